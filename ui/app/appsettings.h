#pragma once
// The app's persistent settings in one place (QSettings, organisation "LBDStudio"): runs folder,
// last data set and directory, window geometry and state, what a restart brings back (preset,
// decision settings, last run, page; see sessionstate.h) and the recent runs. Tests redirect QSettings into a
// temporary directory with QSettings::setPath before constructing the window.
#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace lbd::ui {

class AppSettings {
public:
    // The runs folder is core's setting (core/train/runsroot.h), so that `lbd train` uses the
    // folder chosen here; false with the reason when it cannot be saved.
    static QString runsFolder();
    static bool setRunsFolder(const QString& path, QString* error = nullptr);

    static QString lastDatasetKind(); // a data set catalogue name (DataSpec::dataset), empty if never set
    static QString lastDatasetDirectory();
    static void setLastDataset(const QString& kind, const QString& directory);

    static QByteArray windowGeometry();
    static QByteArray windowState();
    static void setWindowGeometry(const QByteArray& geometry, const QByteArray& state);

    // Each value empty when never saved.
    static QString lastPreset();
    // Whether the panel showed the preset unedited when saved (then it wins over the last run's settings).
    static bool lastPresetShown();
    static void setLastPreset(const QString& id, bool shown);
    static QString lastRun();
    static void setLastRun(const QString& directory);
    static QString currentPage(); // the page's tab title
    static void setCurrentPage(const QString& title);
    // The decision document: its matrix as core's UtilitySetting JSON text, the rule's registry
    // name and the defer utility (absent: none).
    static QString decisionMatrix();
    static QString decisionRule();
    static std::optional<double> deferUtility();
    static void setDecisions(const QString& matrixJson, const QString& rule, std::optional<double> defer);

    // Most recent first, at most kRecentRuns.
    static QStringList recentRuns();
    static void addRecentRun(const QString& directory);
    static constexpr int kRecentRuns = 8;
};

} // namespace lbd::ui
