#include "ui/appsettings.h"

#include <QDir>
#include <QSettings>

namespace lbd::ui {

QString AppSettings::defaultRunsFolder()
{
    return QDir::home().filePath(QStringLiteral("LBDStudio/runs"));
}

QString AppSettings::runsFolder()
{
    return QSettings().value(QStringLiteral("paths/runsFolder"), defaultRunsFolder()).toString();
}

void AppSettings::setRunsFolder(const QString& path)
{
    QSettings().setValue(QStringLiteral("paths/runsFolder"), path);
}

QString AppSettings::lastDatasetKind()
{
    return QSettings().value(QStringLiteral("data/lastKind")).toString();
}

QString AppSettings::lastDatasetDirectory()
{
    return QSettings().value(QStringLiteral("data/lastDirectory")).toString();
}

void AppSettings::setLastDataset(const QString& kind, const QString& directory)
{
    QSettings settings;
    settings.setValue(QStringLiteral("data/lastKind"), kind);
    settings.setValue(QStringLiteral("data/lastDirectory"), directory);
}

QByteArray AppSettings::windowGeometry()
{
    return QSettings().value(QStringLiteral("window/geometry")).toByteArray();
}

QByteArray AppSettings::windowState()
{
    return QSettings().value(QStringLiteral("window/state")).toByteArray();
}

void AppSettings::setWindowGeometry(const QByteArray& geometry, const QByteArray& state)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), geometry);
    settings.setValue(QStringLiteral("window/state"), state);
}

} // namespace lbd::ui
