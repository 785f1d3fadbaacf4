#pragma once
// The dataset cache row of the data set section: whether a cache exists for the chosen data and
// its size, a "Use cache" check (data.cache = auto) and a "Build cache" button with a progress bar.
// The status and the build run off the GUI thread (LatestRequest); the build's progress is read
// from atomics by a timer, and closing the panel stops a build and waits for it.
#include <QString>
#include <QTimer>
#include <QWidget>

#include <memory>

#include "core/data/datacaches.h"
#include "core/data/dataspec.h"
#include "ui/background/latestrequest.h"

class QCheckBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace lbd::ui {

class DatasetCacheRow final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DatasetCacheRow)

public:
    explicit DatasetCacheRow(QWidget* parent = nullptr);
    ~DatasetCacheRow() override;

    // The data whose cache is shown; read again off the GUI thread (debounced).
    void setSpec(const lbd::DataSpec& spec);
    bool useCache() const;
    void setUseCache(bool use);
    // Where the caches are looked for and built: data.cache_dir, else beside the runs folder.
    QString cacheDirectory() const;
    QString statusText() const;
    bool building() const { return m_buildState != nullptr; }

signals:
    void changed();       // "Use cache" toggled
    void statusChanged(); // statusText() has a new value
    void buildFinished(bool ok, const QString& message);

private:
    struct BuildState;
    void refresh();
    void startBuild();
    void showProgress();
    void setStatus(const QString& text);

    lbd::DataSpec m_spec;
    QLabel* m_status = nullptr;
    QCheckBox* m_use = nullptr;
    QPushButton* m_build = nullptr;
    QProgressBar* m_progress = nullptr;
    QTimer m_debounce;
    QTimer m_progressTimer;
    std::shared_ptr<BuildState> m_buildState;
    LatestRequest<lbd::DataCacheReport> m_report;
    LatestRequest<int> m_buildRequest; // last: destroyed first, after the destructor asked the build to stop
};

} // namespace lbd::ui
