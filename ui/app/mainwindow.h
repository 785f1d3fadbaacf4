#pragma once
// The main window: the experiment panel (dock), the pages (tabs), the training actions and the
// status bar. It owns the TrainingController and feeds the live run to every page that is a
// RunView; part 2 adds pages with addPage(). Dialogs that could block tests go through
// replaceable hooks (error reporter, close confirmation).
#include <QList>
#include <QMainWindow>

#include <functional>

#include "core/train/epochmetrics.h"
#include "ui/training/trainingcontroller.h"
#include "ui/training/trainingoutcome.h"

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QTabWidget;

namespace lbd::ui {

class CalibrationPage;
class ClassifyPage;
class ConfusionPage;
class DecisionLabPage;
class ExperimentPanel;
class GalleryPage;
class ProgressPanel;
class RunFollower;
class RunsPage;
class StudiesPage;
class RunView;
struct RunContext;
class TailRiskPage;
class TrainingPage;
class UtilityEditorPage;
class UtilityDocument;

class MainWindow final : public QMainWindow {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    using ErrorReporter = std::function<void(const QString& title, const QString& message)>;
    using CloseConfirmation = std::function<bool()>;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Adds a page as a tab; a page that implements RunView receives the live run. `about` is the
    // one-line "what is this" of the page, shown as the tab's tooltip.
    void addPage(QWidget* page, const QString& title, const QString& about = {});

    // Validates the panel and starts a run in a new folder under the runs folder. Returns false
    // (with the reason shown inline and in the status bar) when the settings are invalid or a run
    // is already active.
    bool startTraining();
    void pauseOrResume();
    void stopTraining();
    // Loads a run folder's config into the panel (and its results, where the engine can read them).
    // A run that another process is training (status running, lock held) is followed live until
    // it ends (runfollower.h).
    bool openRun(const QString& directory);
    // Continues a stopped or failed run from its checkpoint (as `lbd train --resume`): its epochs
    // up to the checkpoint are shown, the rest arrive live. False (with the reason reported) when
    // a run is active or the folder has no checkpoint to continue from.
    bool continueRun(const QString& directory);

    void setErrorReporter(ErrorReporter reporter) { m_reportError = std::move(reporter); }
    void setCloseConfirmation(CloseConfirmation confirm) { m_confirmClose = std::move(confirm); }

    TrainingController* controller() { return &m_controller; }
    ExperimentPanel* experimentPanel() const { return m_panel; }
    TrainingPage* trainingPage() const { return m_trainingPage; }
    TailRiskPage* tailRiskPage() const { return m_tailRiskPage; }
    ConfusionPage* confusionPage() const { return m_confusionPage; }
    CalibrationPage* calibrationPage() const { return m_calibrationPage; }
    UtilityEditorPage* utilityEditorPage() const { return m_utilityEditorPage; }
    ClassifyPage* classifyPage() const { return m_classifyPage; }
    DecisionLabPage* decisionLabPage() const { return m_decisionLabPage; }
    GalleryPage* galleryPage() const { return m_galleryPage; }
    RunsPage* runsPage() const { return m_runsPage; }
    StudiesPage* studiesPage() const { return m_studiesPage; }
    QTabWidget* pages() const { return m_pages; }
    // The utility matrix being edited: shared by the editor, the decision lab and Classify.
    UtilityDocument* utilityDocument() const { return m_utility; }
    ProgressPanel* progressPanel() const { return m_progress; }
    RunFollower* runFollower() const { return m_follower; }
    QDockWidget* experimentDock() const { return m_dock; }
    QString lastError() const { return m_lastError; }
    // The run folder every page shows (the last one shown by runShown), empty before any.
    QString shownRun() const { return m_shownRun; }
    // Opens the user guide (F1); false when it is not installed.
    bool showUserGuide();

signals:
    // The window's own summary of a run, after the pages have been updated.
    void runFinished(const lbd::ui::TrainingOutcome& outcome);
    void runFailed(const QString& error);
    // A run folder with results is now the window's current run: after a run finishes or stops
    // (its folder is complete) and after openRun(). Pages that work on a finished run's files
    // (decision lab, gallery, classify, runs) connect here.
    void runShown(const QString& directory);

protected:
    void closeEvent(QCloseEvent* event) override;
    // Folders dropped on the window open as runs (images dropped on Classify are Classify's).
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildActions();
    void buildStatusBar();
    void updateActions();
    void onStateChanged(TrainingController::State state);
    void onEpoch(const lbd::EpochMetrics& metrics);
    void onFinished(const TrainingOutcome& outcome);
    void onFailed(const QString& error);
    void onFollowedRunEnded(const QString& directory, const QString& state, const QString& message);
    void showAbout();
    void showErrorDialog(const QString& title, const QString& message);
    // Puts a run folder's config into the panel and replays its recorded epochs (up to
    // `lastEpoch`, all when negative) into every page; reports and returns false when unreadable.
    bool showRecordedRun(const QString& directory, int lastEpoch, RunContext& context, int& epochsShown);

    TrainingController m_controller;
    ExperimentPanel* m_panel = nullptr;
    QTabWidget* m_pages = nullptr;
    TrainingPage* m_trainingPage = nullptr;
    TailRiskPage* m_tailRiskPage = nullptr;
    ConfusionPage* m_confusionPage = nullptr;
    CalibrationPage* m_calibrationPage = nullptr;
    UtilityEditorPage* m_utilityEditorPage = nullptr;
    ClassifyPage* m_classifyPage = nullptr;
    DecisionLabPage* m_decisionLabPage = nullptr;
    GalleryPage* m_galleryPage = nullptr;
    RunsPage* m_runsPage = nullptr;
    StudiesPage* m_studiesPage = nullptr;
    QList<RunView*> m_views;
    UtilityDocument* m_utility = nullptr;
    ProgressPanel* m_progress = nullptr;
    RunFollower* m_follower = nullptr;
    QDockWidget* m_dock = nullptr;
    QMenu* m_recentMenu = nullptr;
    lbd::TrainConfig m_runConfig; // of the run training in this window, for its recorded speed
    QString m_shownRun;

    QAction* m_startAction = nullptr;
    QAction* m_pauseAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_openAction = nullptr;

    QLabel* m_deviceLabel = nullptr;
    QLabel* m_runFolderLabel = nullptr;

    ErrorReporter m_reportError;
    CloseConfirmation m_confirmClose;
    QString m_lastError;
    bool m_closeWhenStopped = false;
};

} // namespace lbd::ui
