#pragma once
// The app's persistent settings in one place (QSettings, organisation "LBDStudio"): runs folder,
// last data set and directory, window geometry and state. Tests redirect QSettings into a
// temporary directory with QSettings::setPath before constructing the window.
#include <QByteArray>
#include <QString>

namespace lbd::ui {

class AppSettings {
public:
    static QString defaultRunsFolder(); // ~/LBDStudio/runs
    static QString runsFolder();
    static void setRunsFolder(const QString& path);

    static QString lastDatasetKind(); // datasetKindName(), empty if never set
    static QString lastDatasetDirectory();
    static void setLastDataset(const QString& kind, const QString& directory);

    static QByteArray windowGeometry();
    static QByteArray windowState();
    static void setWindowGeometry(const QByteArray& geometry, const QByteArray& state);
};

} // namespace lbd::ui
