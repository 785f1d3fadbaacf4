#pragma once
// The app's persistent settings in one place (QSettings, organisation "LBDStudio"): runs folder,
// last data set and directory, window geometry and state. Tests redirect QSettings into a
// temporary directory with QSettings::setPath before constructing the window.
#include <QByteArray>
#include <QString>

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
};

} // namespace lbd::ui
