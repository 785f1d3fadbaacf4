#include "ui/app/appsettings.h"

#include "core/train/runsroot.h"

#include <QSettings>

namespace lbd::ui {

QString AppSettings::runsFolder()
{
    // core's answer, which `lbd train` gives too: $LBD_RUNS_DIR, the folder chosen here, ~/LBDStudio/runs.
    return QString::fromStdString(lbd::defaultRunsRoot());
}

bool AppSettings::setRunsFolder(const QString& path, QString* error)
{
    try {
        lbd::setChosenRunsRoot(path.toStdString());
        return true;
    } catch (const std::exception& failure) {
        if (error) {
            *error = QString::fromUtf8(failure.what());
        }
        return false;
    }
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
