#pragma once
// The Classify page: drop image files (or Open..., or paste an image) to classify them with the
// current run's particle ensemble. Each file becomes an entry of a list; the selected entry is
// shown by a PredictionView (the image, pbar and each particle's distribution, the uncertainties,
// the decision under the shared decision matrix, rule and defer utility next to the plain argmax,
// "deferred" when the defer option refers the image to a person).
// The predictor (core's torch-free lbd::Predictor facade) is loaded and run through
// LatestRequest on a one-thread pool (the predictor keeps the settings it was last given, so its
// calls run one after another), so the GUI never waits on torch; results come back as value types.
#include <QByteArray>
#include <QImage>
#include <QString>
#include <QStringList>
#include <QThreadPool>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

#include "core/eval/decisionrule.h"
#include "core/infer/prediction.h"
#include "core/lbd/utilitymatrix.h"
#include "ui/background/latestrequest.h"
#include "ui/engine/classifyjob.h"
#include "ui/pages/classifypagestatus.h"

class QLabel;
class QListWidget;
class QMimeData;
class QSpinBox;
class QStackedWidget;
class QTimer;

namespace lbd {
class Predictor;
}

namespace lbd::ui {

class ClassifyCalibration;
class DecisionControls;
class PredictionView;
class UtilityDocument;

class ClassifyPage final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClassifyPage)

public:
    enum class EntryState { Waiting, Running, Done, Failed };
    struct Entry {
        QString source;      // the file path, or a label for a pasted image
        QString displayName; // file name or label
        QByteArray encoded;  // PNG bytes of a pasted / dropped image (empty for files)
        EntryState state = EntryState::Waiting;
        bool hasPrediction = false;
        lbd::Prediction prediction;
        std::optional<double> temperature; // the T `prediction` was calibrated with
        QString error; // names the file
        QImage thumbnail;
    };

    explicit ClassifyPage(UtilityDocument* document, QWidget* parent = nullptr);
    ~ClassifyPage() override;

    // The run to classify with (MainWindow::runShown): loads its predictor off the GUI thread and
    // classifies the list again with it.
    void setRun(const QString& runDirectory);
    QString runDirectory() const { return m_runDirectory; }
    // Why this run classifies (`lbd-studio IMAGE...` chose the last finished one), shown in the
    // header until another run is set.
    void setRunReason(const QString& reason);
    // The run's state as its folder says ("finished (6 epochs)", "stopped at epoch 2/20").
    QString runState() const { return m_header.state(); }
    bool predictorReady() const { return m_predictor != nullptr; }

    // Adds the files to the list and classifies them (the drop, Open... and the tests call this).
    void classifyFiles(const QStringList& paths);
    // A pasted or dropped image without a file: encoded to PNG and classified.
    void classifyImage(const QImage& image, const QString& label);
    void pasteFromClipboard();
    void clearEntries();

    int entryCount() const { return static_cast<int>(m_entries.size()); }
    const Entry& entry(int index) const { return m_entries.at(static_cast<size_t>(index)); }
    int currentEntry() const;
    void selectEntry(int index);
    // Loading the run or classifying: classificationFinished() follows when it is done.
    bool isBusy() const;

    // The shared rule (the document's): setRule changes it on every page.
    lbd::DecisionRule rule() const;
    void setRule(lbd::DecisionRule rule);
    DecisionControls* decisionControls() const { return m_controls; }
    // The "Calibrated (T = ...)" toggle: the run's temperature.json applied before deciding.
    ClassifyCalibration* calibrationToggle() const { return m_calibration; }
    // True when decisions use the shared document's matrix (its class count matches the run's).
    bool usesDocumentMatrix() const;

    // What the detail view shows, for tests and the screenshot tool.
    QString statusText() const;
    QString entryErrorText() const;
    QString decisionText() const;
    QString warningText() const;
    // The selected image's out-of-distribution line (a caution, "like the run's images", or why
    // it was not checked) and what was done to it ("colour PNG 640x480, reduced to 28x28 grey ...").
    QString cautionText() const;
    QString inputText() const;
    int particleSeriesCount() const;
    int particleTableRows() const;
    bool emptyStateShown() const;

signals:
    void predictorLoaded(bool ok, const QString& message);
    // The entry's prediction or error arrived.
    void entryUpdated(int index);
    // Every queued classification (and the run's loading) is done.
    void classificationFinished();

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildUi();
    void addEntry(Entry entry);
    void submit(int index);
    void submitAll(bool retryFailed);
    void onLoaded(std::shared_ptr<lbd::Predictor> predictor);
    void onLoadFailed(const QString& error);
    void onClassified(int index, const ClassifyResult& result);
    int runningCount() const;
    void finishIfIdle();
    std::optional<lbd::UtilityMatrix> decisionMatrix() const;
    QString matrixDescription() const;
    void updateListItem(int index);
    void showCurrent();
    void updateStatus();
    void openFiles();
    // Classifies the local files of a drop or the clipboard, else its image (labelled `imageLabel`
    // with a running number); says which remote URLs it will not download. False: nothing to classify.
    bool classifyMime(const QMimeData* mime, const QString& imageLabel);

    UtilityDocument* m_document;
    // One worker: predictor calls run in order on one thread. Declared before the requests,
    // whose destructors wait on it.
    QThreadPool m_pool;
    LatestRequest<std::shared_ptr<lbd::Predictor>> m_load{&m_pool};

    QString m_runDirectory;
    ClassifyPageStatus m_header; // the run's state, why it was chosen, the out-of-distribution fit
    std::shared_ptr<lbd::Predictor> m_predictor;
    QStringList m_runClassNames;
    lbd::UtilityMatrix m_runUtility;
    QStringList m_runNotes; // the run's notes (a matrix file of an old run folder that is gone)
    int m_particles = 0;
    QString m_loadError;

    std::vector<Entry> m_entries;
    // One per entry (same index): a re-decision supersedes the entry's earlier request.
    std::vector<std::unique_ptr<LatestRequest<ClassifyResult>>> m_requests;
    int m_pasted = 0;

    QStackedWidget* m_stack = nullptr;
    QLabel* m_emptyState = nullptr;
    QLabel* m_status = nullptr;
    DecisionControls* m_controls = nullptr;
    ClassifyCalibration* m_calibration = nullptr;
    QSpinBox* m_topK = nullptr;
    QListWidget* m_list = nullptr;
    QStackedWidget* m_detailStack = nullptr;
    QLabel* m_detailHint = nullptr;
    QLabel* m_entryError = nullptr;
    PredictionView* m_result = nullptr; // the selected image's detail
    QTimer* m_redecideTimer = nullptr;
};

} // namespace lbd::ui
