#pragma once
// The Disagreement gallery: the current run's test images sorted by how much its particles
// disagree (mutual information = epistemic uncertainty, or vote disagreement = share of
// particles outside the largest top-1 group), decreasing. Each tile shows the image, the true
// class, every particle's top-1 (green = correct, red = wrong) and the value; filters by class
// and region, "wrong only", "tail decided as head" or one confusion cell (the Confusion page opens
// the gallery on a cell); a top-loss order; clicking a tile plots each particle's distribution. Loading, the uncertainty of
// every image and both sort orders are computed once off the GUI thread; the tile view fetches
// 200 tiles at a time and paints only what is visible, so 10,000 images stay fast.
#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

#include "ui/background/latestrequest.h"
#include "ui/pages/runview.h"
#include "ui/gallery/gallerydata.h"
#include "ui/gallery/galleryfilter.h"

#include <utility>

class QComboBox;
class QLabel;
class QListView;
class QStackedWidget;

namespace lbd::ui {

class ThrottledPlot;
class GalleryModel;

class GalleryPage final : public QWidget, public RunView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GalleryPage)

public:
    using SortKey = GallerySortKey;
    static constexpr int kTilesPerFetch = kGalleryTilesPerFetch;

    explicit GalleryPage(QWidget* parent = nullptr);
    ~GalleryPage() override;

    // Loads the run's cached probabilities and test images (off the GUI thread); connected to
    // MainWindow::runShown.
    void showRun(const QString& directory);

    // RunView: a run starts training (or another is opened). The previous run's tiles go at once:
    // left on screen they would pass for the new run's. The page says the run has no evaluation
    // yet until showRun() brings its test probabilities (written when it finishes or stops).
    void beginRun(const RunContext& context) override;
    void addEpoch(const lbd::EpochMetrics& metrics) override;

    void setSortKey(SortKey key);
    SortKey sortKey() const;
    // -1 = every class / region; a class index (head to tail) or lbd::Region value otherwise.
    void setClassFilter(int classIndex);
    void setRegionFilter(int region);
    void setShowFilter(GalleryShow show);
    GalleryShow showFilter() const;
    // Exactly the test images of true class `trueClass` decided as `decidedClass` by the run's own
    // rule (one cell of the report's confusion matrix); the class and region filters are cleared.
    // Asked before the run has loaded, it is applied when it has.
    void showConfusionCell(int64_t trueClass, int64_t decidedClass);

    // For tests and the screenshot runner.
    bool hasRun() const { return m_data != nullptr; }
    bool isBusy() const { return m_load.isRunning(); }
    int matchingCount() const;                 // images that pass the filters
    int shownCount() const;                    // tiles fetched into the view so far
    std::vector<int64_t> shownImages() const;  // their test-image indices, in tile order
    int64_t imageAt(int row) const;            // test-image index of tile `row`
    double value(int64_t image) const;         // under the current sort key
    int64_t trueClass(int64_t image) const;
    int64_t decidedClass(int64_t image) const; // under the run's own rule
    int64_t selectedImage() const { return m_selected; }
    // Each particle's distribution over the plotted classes for the selected image, [M][classes].
    std::vector<std::vector<double>> plottedDistributions() const;
    std::vector<int64_t> plottedClasses() const { return m_plottedClasses; }
    QString message() const;
    QString statusText() const;
    QListView* tileView() const { return m_view; }
    ThrottledPlot* distributionPlot() const { return m_plot; }
    QComboBox* sortBox() const { return m_sort; }
    QComboBox* classBox() const { return m_classFilter; }
    QComboBox* regionBox() const { return m_regionFilter; }
    QComboBox* showBox() const { return m_show; }

signals:
    void loaded();
    void failed(const QString& message);
    void imageSelected(qint64 image);

private:
    void onLoaded(std::shared_ptr<const GalleryData> data);
    void onLoadFailed(const QString& error);
    void applyFilters();
    void selectImage(int64_t image);
    void clearDetail();
    void updateStatus();
    void showMessage(const QString& text, bool error);
    void setCellItem(int64_t trueClass, int64_t decidedClass);

    QStackedWidget* m_stack = nullptr;
    QLabel* m_empty = nullptr;
    QComboBox* m_sort = nullptr;
    QComboBox* m_classFilter = nullptr;
    QComboBox* m_regionFilter = nullptr;
    QComboBox* m_show = nullptr;
    QLabel* m_runLabel = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_status = nullptr;
    QListView* m_view = nullptr;
    GalleryModel* m_model = nullptr;
    QLabel* m_detailImage = nullptr;
    QLabel* m_detailText = nullptr;
    ThrottledPlot* m_plot = nullptr;

    QString m_directory;
    std::shared_ptr<const GalleryData> m_data;
    LatestRequest<std::shared_ptr<const GalleryData>> m_load;
    int64_t m_selected = -1;
    std::pair<int64_t, int64_t> m_cell{-1, -1};        // the "Cell" item of the Show box
    std::pair<int64_t, int64_t> m_pendingCell{-1, -1}; // asked for before the run loaded
    std::vector<int64_t> m_plottedClasses;
};

} // namespace lbd::ui
