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

namespace {

QString text(const char* key)
{
    return QSettings().value(QLatin1String(key)).toString();
}

void setText(const char* key, const QString& value)
{
    QSettings().setValue(QLatin1String(key), value);
}

} // namespace

QString AppSettings::lastPreset() { return text("session/preset"); }
bool AppSettings::lastPresetShown() { return QSettings().value(QStringLiteral("session/presetShown")).toBool(); }

void AppSettings::setLastPreset(const QString& id, bool shown)
{
    setText("session/preset", id);
    QSettings().setValue(QStringLiteral("session/presetShown"), shown);
}
QString AppSettings::lastRun() { return text("session/lastRun"); }
void AppSettings::setLastRun(const QString& directory) { setText("session/lastRun", directory); }
QString AppSettings::currentPage() { return text("session/page"); }
void AppSettings::setCurrentPage(const QString& title) { setText("session/page", title); }
QString AppSettings::decisionMatrix() { return text("decisions/matrix"); }
QString AppSettings::decisionRule() { return text("decisions/rule"); }

std::optional<double> AppSettings::deferUtility()
{
    const QVariant value = QSettings().value(QStringLiteral("decisions/defer"));
    bool ok = false;
    const double r = value.toDouble(&ok);
    return value.isValid() && ok ? std::optional<double>(r) : std::nullopt;
}

void AppSettings::setDecisions(const QString& matrixJson, const QString& rule, std::optional<double> defer)
{
    QSettings settings;
    settings.setValue(QStringLiteral("decisions/matrix"), matrixJson);
    settings.setValue(QStringLiteral("decisions/rule"), rule);
    if (defer) {
        settings.setValue(QStringLiteral("decisions/defer"), *defer);
    } else {
        settings.remove(QStringLiteral("decisions/defer"));
    }
}

QStringList AppSettings::recentRuns()
{
    return QSettings().value(QStringLiteral("session/recentRuns")).toStringList();
}

void AppSettings::addRecentRun(const QString& directory)
{
    QStringList runs = recentRuns();
    runs.removeAll(directory);
    runs.prepend(directory);
    while (runs.size() > kRecentRuns) {
        runs.removeLast();
    }
    QSettings().setValue(QStringLiteral("session/recentRuns"), runs);
}

} // namespace lbd::ui
