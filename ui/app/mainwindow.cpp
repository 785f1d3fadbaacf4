#include "ui/app/mainwindow.h"
#include "ui/app/recordedrun.h"
#include "ui/style/decisionruletext.h"
#include "ui/utility/utilitydocument.h"
#include "core/train/configjson.h"
#include "core/train/runfolder.h"
#include "core/train/runsummary.h"

#include <nlohmann/json.hpp>

#include "ui/app/aboutdialog.h"
#include "ui/app/appsettings.h"
#include "ui/app/degeneracynotice.h"
#include "ui/app/screenfit.h"
#include "ui/app/screenfitter.h"
#include "ui/app/sessionstate.h"
#include "ui/app/userguide.h"
#include "ui/app/windowcommands.h"
#include "ui/panels/durationestimate.h"
#include "ui/training/devicetext.h"
#include "ui/training/runfollower.h"
#include "ui/widgets/memorylabel.h"
#include "ui/pages/calibrationpage.h"
#include "ui/pages/classifypage.h"
#include "ui/pages/confusionpage.h"
#include "ui/pages/decisionlabpage.h"
#include "ui/pages/gallerypage.h"
#include "ui/pages/runspage.h"
#include "ui/pages/studiespage.h"
#include "ui/pages/tailriskpage.h"
#include "ui/pages/trainingpage.h"
#include "ui/panels/experimentpanel.h"
#include "ui/pages/runview.h"
#include "ui/utility/utilityeditorpage.h"
#include "ui/widgets/progresspanel.h"
#include "ui/widgets/plotexport.h"
#include "ui/widgets/throttledplot.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLayout>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>

namespace lbd::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("LBD Studio"));

    // The shared decision settings first: the panel, the Utility page, the lab and Classify edit it.
    m_utility = new UtilityDocument(this);
    m_panel = new ExperimentPanel(m_utility, this);
    m_panel->setObjectName(QStringLiteral("experimentPanel"));
    m_dock = new QDockWidget(tr("Experiment"), this);
    m_dock->setObjectName(QStringLiteral("experimentDock"));
    m_dock->setWidget(m_panel);
    m_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, m_dock);

    m_utility->setClassNames(m_panel->classNames());

    m_pages = new QTabWidget(this);
    m_pages->setObjectName(QStringLiteral("pages"));
    m_pages->setDocumentMode(true);
    setCentralWidget(pageScroller(m_pages)); // the widest page scrolls rather than widen the window
    m_trainingPage = new TrainingPage(this);
    m_tailRiskPage = new TailRiskPage(this);
    m_calibrationPage = new CalibrationPage(this);
    addPage(m_trainingPage, tr("Training"), tr("The run as it trains: loss and its parts, accuracy by region, learning rate, engine messages."));
    addPage(m_tailRiskPage, tr("Tail risk"), tr("How often tail classes are decided as head classes (FHR) and accuracy per class and region."));
    m_confusionPage = new ConfusionPage(this);
    addPage(m_confusionPage, tr("Confusion"), tr("Which classes are decided as which: the confusion matrix with head / med / tail bands; click a cell for its images."));
    addPage(m_calibrationPage, tr("Calibration"), tr("Whether the confidences match the accuracy: reliability diagram, ECE, risk-coverage."));
    // Utility editor (edits the shared matrix) and Classify (drop images on the current run).
    m_utilityEditorPage = new UtilityEditorPage(m_utility, this);
    m_classifyPage = new ClassifyPage(m_utility, this);
    addPage(m_utilityEditorPage, tr("Utility"), tr("The decision utility matrix shared by every page: edit, import, save."));
    addPage(m_classifyPage, tr("Classify"), tr("Drop or paste images to classify them with the current run."));
    m_utilityEditorPage->setClassCounts(m_panel->trainCounts());
    connect(m_panel, &ExperimentPanel::configChanged, m_utilityEditorPage,
            [this] { m_utilityEditorPage->setClassCounts(m_panel->trainCounts()); });
    connect(m_utilityEditorPage, &UtilityEditorPage::trainingMatrixSaved, m_panel, &ExperimentPanel::copyTrainingMatrix);
    connect(this, &MainWindow::runShown, m_classifyPage, &ClassifyPage::setRun);
    // Decision lab and gallery: re-decide and browse the current run's cached test probabilities.
    m_decisionLabPage = new DecisionLabPage(m_utility, this);
    m_galleryPage = new GalleryPage(this);
    addPage(m_decisionLabPage, tr("Decision lab"), tr("Re-decide the current run's test set under other rules and utilities, without retraining."));
    addPage(m_galleryPage, tr("Gallery"), tr("The current run's test images with their decisions and uncertainty."));
    connect(this, &MainWindow::runShown, m_decisionLabPage, &DecisionLabPage::showRun);
    connect(this, &MainWindow::runShown, m_galleryPage, &GalleryPage::showRun);
    // A confusion cell opens the Gallery on its images. The Gallery reads the cached test
    // probabilities, which a run writes when it finishes: a live run's cell has no images yet.
    connect(m_confusionPage, &ConfusionPage::cellActivated, this, [this](qint64 trueClass, qint64 decidedClass) {
        if (m_controller.isActive()) {
            const QString why = tr("The Gallery shows a cell's images once the run has finished (its test probabilities are written at the end).");
            statusBar()->showMessage(why, 8000);
            return;
        }
        m_galleryPage->showConfusionCell(trueClass, decidedClass);
        m_pages->setCurrentWidget(m_galleryPage);
    });
    // Runs: every run folder; opening one shows it on every page.
    m_runsPage = new RunsPage(this);
    addPage(m_runsPage, tr("Runs"), tr("Every run in the runs folder: open, continue, compare."));
    // The Runs and Studies pages open a run the same way, and say so on the page when they cannot.
    const auto openFrom = [this](auto* page) {
        return [this, page](const QString& directory) {
            if (openRun(directory)) {
                m_pages->setCurrentWidget(m_trainingPage);
                return;
            }
            page->showMessage(tr("%1 was not opened: a run is training (stop it first) or its files could not be read.")
                                  .arg(directory),
                              true);
        };
    };
    connect(m_runsPage, &RunsPage::openRequested, this, openFrom(m_runsPage));
    connect(m_runsPage, &RunsPage::continueRequested, this, [this](const QString& directory) {
        if (m_controller.isActive()) {
            m_runsPage->showMessage(tr("%1 was not continued: a run is training (stop it first).").arg(directory), true);
        } else {
            continueRun(directory);
        }
    });
    // Studies: the paper's tables over seeds; a study's run opens like a run of the Runs page.
    m_studiesPage = new StudiesPage(this);
    addPage(m_studiesPage, tr("Studies"), tr("The paper's tables over seeds: run a grid of runs and see mean ± std per cell."));
    connect(m_studiesPage, &StudiesPage::openRequested, this, openFrom(m_studiesPage));
    // One thing trains at a time: a study's runs already use every core (or GPU).
    connect(m_studiesPage, &StudiesPage::runningChanged, this, &MainWindow::updateActions);
    connect(this, &MainWindow::runFinished, m_runsPage, &RunsPage::refresh);
    connect(this, &MainWindow::runFailed, m_runsPage, &RunsPage::refresh);
    connect(this, &MainWindow::runShown, m_runsPage, [this](const QString& directory) {
        m_runsPage->setShownRun(directory);
        m_runsPage->refresh();
    });

    m_progress = new ProgressPanel(this);
    m_follower = new RunFollower(this);
    connect(m_follower, &RunFollower::epochRecorded, this, &MainWindow::onEpoch);
    connect(m_follower, &RunFollower::messageLogged, m_trainingPage, &TrainingPage::appendLogLine);
    connect(m_follower, &RunFollower::ended, this, &MainWindow::onFollowedRunEnded);
    connect(this, &MainWindow::runShown, this, [this](const QString& directory) {
        m_shownRun = directory;
        AppSettings::addRecentRun(directory);
    });
    buildActions();
    buildStatusBar();

    connect(&m_controller, &TrainingController::stateChanged, this, &MainWindow::onStateChanged);
    connect(&m_controller, &TrainingController::batchProgress, this, [this](const lbd::BatchProgress& progress) {
        m_progress->setBatch(progress);
        for (RunView* view : m_views) {
            view->addBatch(progress);
        }
    });
    connect(&m_controller, &TrainingController::epochFinished, this, [this](const lbd::EpochMetrics& metrics) {
        if (m_controller.ranks() == 1) { // one device's speed: the next estimate's basis
            DurationEstimator::recordSpeed(m_runConfig, metrics.imagesPerSecond);
        }
        onEpoch(metrics);
    });
    connect(&m_controller, &TrainingController::message, m_trainingPage, &TrainingPage::appendMessage);
    connect(&m_controller, &TrainingController::logLine, m_trainingPage, &TrainingPage::appendLogLine);
    connect(&m_controller, &TrainingController::finished, this, &MainWindow::onFinished);
    connect(&m_controller, &TrainingController::failed, this, &MainWindow::onFailed);
    connect(m_panel, &ExperimentPanel::configChanged, this, [this] {
        m_utility->setClassNames(m_panel->classNames()); // keeps the matrix unless the classes changed
        updateActions();
        if (!m_controller.isActive()) {
            m_deviceLabel->setText(tr("Device: %1").arg(deviceText(m_panel->config().train.device, m_panel->dataParallelRanks())));
        }
    });

    m_reportError = [this](const QString& title, const QString& message) { showErrorDialog(title, message); };
    m_confirmClose = [this] { return confirmStopAndQuit(this, stopAndQuitQuestion(*this)); };

    // The preset, the last data set and run come back through SessionState::restore (lbd-studio).
    resize(1500, 940);
    restoreGeometry(AppSettings::windowGeometry());
    restoreState(AppSettings::windowState());
    fitToScreen(this); // a geometry saved on a larger screen must not push the status bar off this one
    new ScreenFitter(this, m_dock, m_pages); // and once shown, with the window manager's frame
    setAcceptDrops(true);
    updateActions();
    m_deviceLabel->setText(tr("Device: %1").arg(deviceText(m_panel->config().train.device, m_panel->dataParallelRanks())));
}

MainWindow::~MainWindow() = default;

void MainWindow::addPage(QWidget* page, const QString& title, const QString& about)
{
    const int index = m_pages->addTab(page, title);
    if (!about.isEmpty()) {
        m_pages->setTabToolTip(index, about);
        page->setWhatsThis(about);
    }
    if (auto* view = dynamic_cast<RunView*>(page)) {
        m_views << view;
    }
}

void MainWindow::buildActions()
{
    m_startAction = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Start training"), this);
    m_startAction->setObjectName(QStringLiteral("startAction"));
    m_startAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    connect(m_startAction, &QAction::triggered, this, [this] { startTraining(); });

    m_pauseAction = new QAction(style()->standardIcon(QStyle::SP_MediaPause), tr("&Pause"), this);
    m_pauseAction->setObjectName(QStringLiteral("pauseAction"));
    m_pauseAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    connect(m_pauseAction, &QAction::triggered, this, &MainWindow::pauseOrResume);

    m_stopAction = new QAction(style()->standardIcon(QStyle::SP_MediaStop), tr("S&top"), this);
    m_stopAction->setObjectName(QStringLiteral("stopAction"));
    m_stopAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    m_stopAction->setToolTip(tr("Stop after the current batch; the last checkpoint is kept (Ctrl+.)"));
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stopTraining);

    m_openAction = new QAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open run..."), this);
    m_openAction->setObjectName(QStringLiteral("openRunAction"));
    m_openAction->setShortcut(QKeySequence::Open);
    connect(m_openAction, &QAction::triggered, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open run folder"), AppSettings::runsFolder());
        if (!dir.isEmpty()) {
            openRun(dir);
        }
    });

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    m_recentMenu = file->addMenu(tr("&Recent runs"));
    m_recentMenu->setObjectName(QStringLiteral("recentRunsMenu"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, [this] {
        fillRecentRuns(m_recentMenu, !m_controller.isActive(), [this](const QString& directory) { openRun(directory); });
    });
    file->addAction(tr("&Export every plot (PNG, PDF, SVG)..."), this, [this] { exportPlots(this); });
    file->addAction(tr("Runs &folder..."), this, [this] { chooseRunsFolder(this); });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_startAction);
    run->addAction(m_pauseAction);
    run->addAction(m_stopAction);
    run->addAction(runReportAction(this, [this] { return m_shownRun; }));

    // The panel can collapse to give the pages the whole width (saveState remembers it).
    QAction* panelAction = panelToggleAction(m_dock);
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(panelAction);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* guide = help->addAction(tr("&User guide"), this, [this] { showUserGuide(); });
    guide->setObjectName(QStringLiteral("userGuideAction"));
    guide->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About LBD Studio"), this, &MainWindow::showAbout);

    QToolBar* bar = addToolBar(tr("Training"));
    bar->setObjectName(QStringLiteral("trainingToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_startAction);
    bar->addWidget(m_panel->createSummaryLabel(bar));
    addIconButtons(bar, {m_pauseAction, m_stopAction}); // room at 1024 px
    bar->addSeparator();
    bar->addWidget(m_progress);
    bar->addAction(panelAction);
}

bool MainWindow::showUserGuide()
{
    const bool shown = UserGuide::show(this);
    if (!shown) {
        statusBar()->showMessage(tr("The user guide (user-guide.md) is not installed."), 8000);
    }
    return shown;
}

void MainWindow::buildStatusBar()
{
    m_deviceLabel = new QLabel(this);
    m_deviceLabel->setObjectName(QStringLiteral("deviceLabel"));
    m_runFolderLabel = new QLabel(tr("Run folder: none"), this);
    m_runFolderLabel->setObjectName(QStringLiteral("runFolderLabel"));
    m_runFolderLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long folder path and protocol must not widen the window: the label shrinks (elided by the
    // status bar) and its tooltip keeps the whole text.
    m_runFolderLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    statusBar()->addPermanentWidget(m_runFolderLabel, 1);
    statusBar()->addPermanentWidget(m_deviceLabel);
    statusBar()->addPermanentWidget(new MemoryLabel(this));
    DegeneracyNotice::attach(this); // a degenerate run says so here, by class name
}

void MainWindow::updateActions()
{
    const TrainingController::State state = m_controller.state();
    const bool idle = state == TrainingController::State::Idle;
    m_startAction->setEnabled(idle && !m_studiesPage->isRunning() && m_panel->dataReadable()); // no run folder for data it cannot read
    m_startAction->setToolTip(m_studiesPage->isRunning() ? tr("A study is running (Studies page): stop it first")
                                                         : tr("Start a run with the experiment panel's settings (Ctrl+R)"));
    m_openAction->setEnabled(idle);
    m_pauseAction->setEnabled(m_controller.canPause() && state != TrainingController::State::Stopping);
    m_pauseAction->setText(state == TrainingController::State::Paused ? tr("&Resume") : tr("&Pause"));
    m_pauseAction->setIcon(style()->standardIcon(state == TrainingController::State::Paused ? QStyle::SP_MediaPlay
                                                                                            : QStyle::SP_MediaPause));
    m_stopAction->setEnabled(state == TrainingController::State::Running || state == TrainingController::State::Paused);
    m_panel->setEnabled(idle);
}

bool MainWindow::startTraining()
{
    if (m_controller.isActive() || m_studiesPage->isRunning()) {
        statusBar()->showMessage(tr("Not started: a run or a study (Studies page) is training; stop it first."), 8000);
        return false;
    }
    const QString error = m_panel->validate();
    if (!error.isEmpty()) {
        statusBar()->showMessage(tr("Not started: %1").arg(error), 8000);
        return false;
    }
    const lbd::TrainConfig config = m_panel->config();
    m_follower->stop();
    m_runConfig = config;
    const QString runDirectory =
        QString::fromStdString(lbd::newRunDirectory(AppSettings::runsFolder().toStdString(), config.name));
    // Only the runs folder is made here: the engine creates the run's own folder once its data is
    // read, so a run whose data cannot be read leaves no folder behind.
    if (!QDir().mkpath(AppSettings::runsFolder())) {
        m_reportError(tr("Cannot create the run folder"),
                      tr("The run folder %1 could not be created. Choose another runs folder in File > Runs folder.")
                          .arg(runDirectory));
        return false;
    }
    AppSettings::setLastDataset(QString::fromStdString(config.data.dataset),
                                QString::fromStdString(config.data.directory));

    RunContext context;
    context.runDirectory = runDirectory;
    context.config = config;
    context.classNames = m_panel->classNames();
    context.trainCounts = m_panel->trainCounts();
    for (RunView* view : m_views) {
        view->beginRun(context);
    }
    m_lastError.clear();
    m_runFolderLabel->setText(tr("Run folder: %1 (%2)").arg(runDirectory, m_panel->protocolText())); // the panel's own line
    m_runFolderLabel->setToolTip(m_runFolderLabel->text());
    m_deviceLabel->setText(tr("Device: %1").arg(deviceText(config.train.device, m_panel->dataParallelRanks())));
    m_progress->reset(tr("Starting"));
    m_pages->setCurrentWidget(m_trainingPage);
    return m_controller.start(config, runDirectory, false, m_panel->dataParallelRanks());
}

void MainWindow::pauseOrResume()
{
    if (m_controller.state() == TrainingController::State::Paused) {
        m_controller.resume();
    } else {
        m_controller.pause();
    }
}

void MainWindow::stopTraining()
{
    m_controller.stop();
}

bool MainWindow::showRecordedRun(const QString& directory, int lastEpoch, RunContext& context, int& epochsShown)
{
    RecordedRun recorded;
    try {
        recorded = readRecordedRun(directory, lastEpoch);
    } catch (const std::exception& error) {
        m_reportError(tr("Cannot open the run"), QString::fromUtf8(error.what()));
        return false;
    }
    context.config = recorded.config;
    m_panel->setConfig(context.config, tr("run %1").arg(QFileInfo(directory).fileName()));
    context.runDirectory = directory;
    context.classNames = m_panel->classNames();
    context.trainCounts = m_panel->trainCounts();
    // The run's own classes and counts (run.json), not the panel's: a folder the panel is still
    // reading, or no longer finds, must not leave the pages without names or regions. Without
    // run.json (stopped before its data was read) the panel's data set stands in.
    if (readRecordedClasses(directory, context)) {
        m_utility->setClassNames(context.classNames); // the shared matrix follows the run (a custom one is kept aside)
        m_utilityEditorPage->setClassCounts(context.trainCounts);
    }
    for (RunView* view : m_views) {
        view->beginRun(context);
        for (const lbd::EpochMetrics& metrics : recorded.epochs) {
            view->addEpoch(metrics);
        }
    }
    if (!recorded.epochs.empty()) {
        m_progress->setEpoch(recorded.epochs.back());
    }
    m_runFolderLabel->setText(tr("Run folder: %1 (%2)").arg(directory, runDecisionText(context.config)));
    m_runFolderLabel->setToolTip(m_runFolderLabel->text());
    epochsShown = static_cast<int>(recorded.epochs.size());
    return true;
}

bool MainWindow::openRun(const QString& directory)
{
    if (m_controller.isActive()) {
        return false;
    }
    // The settings go into the panel (Start trains a new run with them); the recorded epochs are
    // replayed into every page.
    m_follower->stop();
    RunContext context;
    int epochs = 0;
    if (!showRecordedRun(directory, -1, context, epochs)) {
        return false;
    }
    QFile log(QDir(directory).filePath(QStringLiteral("log.txt"))); // what the engine said so far
    if (log.open(QIODevice::ReadOnly | QIODevice::Text) && log.size() > 0) {
        m_trainingPage->appendLogLine(QString::fromUtf8(log.readAll()).trimmed());
    }
    if (RunFollower::isTrainedElsewhere(directory)) {
        // Trained by another process (a headless `lbd train`, a synced server folder): follow it.
        m_follower->follow(directory, epochs); // metrics.jsonl holds epochs 1..N in order
        m_progress->setState(tr("Following"));
        statusBar()->showMessage(tr("%1 is training in another process: following it live.").arg(directory), 8000);
    } else {
        m_progress->end(tr("Opened"));
        statusBar()->showMessage(tr("Opened %1 (%2 epochs); Start trains a new run with its settings.").arg(directory).arg(epochs), 8000);
    }
    emit runShown(directory);
    return true;
}

void MainWindow::onFollowedRunEnded(const QString& directory, const QString& state, const QString& message)
{
    m_progress->end(tr("Ended elsewhere"));
    const QString text = tr("The run followed in %1 is %2%3.").arg(directory, state, message.isEmpty() ? QString() : QStringLiteral(": ") + message);
    m_trainingPage->appendMessage(text);
    statusBar()->showMessage(text, 10000);
    emit runShown(directory); // its results (report, test probabilities) are complete now
}

bool MainWindow::continueRun(const QString& directory)
{
    if (m_controller.isActive()) {
        return false;
    }
    const lbd::RunSummary run = lbd::readRunSummary(directory.toStdString());
    if (!run.resumable()) {
        m_reportError(tr("Cannot continue the run"),
                      tr("%1 cannot be continued: only a stopped or failed run with a checkpoint can (this one is %2, "
                         "checkpoint of epoch %3 of %4).")
                          .arg(directory, QString::fromStdString(run.state))
                          .arg(run.checkpointEpoch)
                          .arg(run.epochs));
        return false;
    }
    // The resume rewrites metrics.jsonl from the checkpoint's history: epochs after the
    // checkpoint are trained again and arrive live.
    RunContext context;
    int epochs = 0;
    if (!showRecordedRun(directory, run.checkpointEpoch, context, epochs)) {
        return false;
    }
    m_lastError.clear();
    m_follower->stop();
    m_runConfig = context.config;
    m_deviceLabel->setText(tr("Device: %1").arg(deviceText(context.config.train.device)));
    m_progress->setState(tr("Resuming"));
    m_pages->setCurrentWidget(m_trainingPage);
    statusBar()->showMessage(tr("Continuing %1 after epoch %2.").arg(directory).arg(run.checkpointEpoch), 8000);
    return m_controller.start(context.config, directory, /*resume=*/true);
}

void MainWindow::onStateChanged(TrainingController::State state)
{
    switch (state) {
    case TrainingController::State::Idle: break;
    case TrainingController::State::Running: m_progress->setState(tr("Training")); break;
    case TrainingController::State::Paused: m_progress->setState(tr("Paused")); break;
    case TrainingController::State::Stopping: m_progress->setState(tr("Stopping")); break;
    }
    updateActions();
}

void MainWindow::onEpoch(const lbd::EpochMetrics& metrics)
{
    m_progress->setEpoch(metrics);
    for (RunView* view : m_views) {
        view->addEpoch(metrics);
    }
}

void MainWindow::onFinished(const TrainingOutcome& outcome)
{
    m_progress->end(outcome.stopped ? tr("Stopped") : tr("Finished"));
    const QString stoppedText = outcome.checkpointEpoch > 0
        ? tr("Run stopped after %1 epochs; Runs > Continue training continues from its checkpoint of epoch %2.").arg(outcome.epochsCompleted).arg(outcome.checkpointEpoch)
        : tr("Run stopped after %1 epochs, before its first checkpoint: it cannot be resumed.").arg(outcome.epochsCompleted);
    statusBar()->showMessage(outcome.stopped ? stoppedText : tr("Run finished: %1 epochs.").arg(outcome.epochsCompleted), 10000);
    m_trainingPage->appendMessage(outcome.stopped ? tr("Stopped after epoch %1.").arg(outcome.epochsCompleted)
                                                  : tr("Finished after epoch %1.").arg(outcome.epochsCompleted));
    emit runFinished(outcome);
    if (!outcome.runDirectory.isEmpty()) {
        emit runShown(outcome.runDirectory);
    }
    if (m_closeWhenStopped) {
        close();
    }
}

void MainWindow::onFailed(const QString& error)
{
    m_lastError = error;
    m_progress->end(tr("Failed"));
    m_trainingPage->appendMessage(error);
    statusBar()->showMessage(tr("The run failed; see the message."), 10000);
    emit runFailed(error);
    if (m_closeWhenStopped) {
        close();
        return;
    }
    m_reportError(tr("Training failed"), error);
}

void MainWindow::showErrorDialog(const QString& title, const QString& message)
{
    // Non-modal, so neither the event loop nor a test is blocked by it.
    auto* box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::NonModal);
    box->show();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if ((m_controller.isActive() || m_studiesPage->isRunning()) && !m_closeWhenStopped) {
        if (!m_confirmClose()) {
            event->ignore();
            return;
        }
        m_closeWhenStopped = true;
    }
    // A study's runs stop within one batch; the page waits for them as it is destroyed.
    m_studiesPage->stopStudy();
    if (m_controller.isActive()) {
        // Stop within one batch; onFinished / onFailed closes the window once the worker is done.
        m_controller.stop();
        statusBar()->showMessage(tr("Stopping the run before quitting..."));
        event->ignore();
        return;
    }
    SessionState::save(*this);
    AppSettings::setWindowGeometry(saveGeometry(), saveState());
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!droppedFolders(event->mimeData()).isEmpty()) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QStringList folders = droppedFolders(event->mimeData());
    if (folders.isEmpty()) {
        return;
    }
    event->acceptProposedAction();
    if (!openRun(folders.first())) {
        statusBar()->showMessage(tr("%1 was not opened: a run is training (stop it first) or it is not a run folder.")
                                     .arg(folders.first()),
                                 8000);
    }
}

void MainWindow::showAbout() { AboutDialog(this).exec(); }

} // namespace lbd::ui
