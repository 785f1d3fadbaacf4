#include "ui/pages/studiespage.h"

#include "core/study/studyfolder.h"
#include "core/study/studysummary.h"
#include "ui/study/studyclaimsmodel.h"
#include "ui/study/studycontroller.h"
#include "ui/study/studyplots.h"
#include "ui/study/studyrunmodel.h"
#include "ui/study/studysetuppanel.h"
#include "ui/study/studysummarymodel.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QSaveFile>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace lbd::ui {
namespace {

QTableView* makeTable(const QString& objectName, const QString& toolTip, QWidget* parent)
{
    auto* table = new QTableView(parent);
    table->setObjectName(objectName);
    table->setToolTip(toolTip);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

std::vector<std::string> factorKeys(const lbd::ResolvedStudy& study)
{
    std::vector<std::string> keys;
    for (const lbd::StudyFactor& factor : study.spec.factors) {
        keys.push_back(factor.key);
    }
    return keys;
}

bool ended(lbd::StudyRunState state)
{
    return state == lbd::StudyRunState::Finished || state == lbd::StudyRunState::Failed
           || state == lbd::StudyRunState::Stopped;
}

} // namespace

StudiesPage::StudiesPage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("studiesPage"));
    m_setup = new StudySetupPanel(this);
    m_controller = new StudyController(this);
    m_runModel = new StudyRunModel(this);
    m_runTable = makeTable(QStringLiteral("studyRunTable"),
                           tr("Every run of the study (one per cell and seed), live. Double-click a finished or "
                              "stopped run to open it on every page."), this);
    m_runTable->setModel(m_runModel);
    m_runTable->setWordWrap(false); // "✓ finished" on one line: rows stay one line high
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("studyMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* runsBox = new QGroupBox(tr("Runs"), this);
    auto* runsLayout = new QVBoxLayout(runsBox);
    runsLayout->addWidget(m_runTable);
    auto* left = new QSplitter(Qt::Vertical, this);
    left->addWidget(runsBox);
    left->addWidget(buildResults());
    left->setStretchFactor(0, 1);
    left->setStretchFactor(1, 1);
    m_plots = new StudyPlots(this);
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->addWidget(left);
    m_splitter->addWidget(m_plots);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    // The claims get a tab of their own, the page's whole width and height: under the table they
    // had about three rows at 1024x700 and pushed the page past the window. The tab's title counts
    // the verdicts, so which claims hold shows from the other tab too.
    m_resultTabs = new QTabWidget(this);
    m_resultTabs->setObjectName(QStringLiteral("studyResultTabs"));
    m_resultTabs->setDocumentMode(true);
    m_resultTabs->addTab(m_splitter, tr("Runs, table and plots"));
    m_claims = buildClaims();
    m_resultTabs->setTabVisible(m_resultTabs->addTab(m_claims, tr("Claims")), false); // until a study with claims is shown
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_setup);
    layout->addWidget(m_resultTabs, 1);
    layout->addWidget(m_message);

    connect(m_setup, &StudySetupPanel::startRequested, this, &StudiesPage::startStudy);
    connect(m_setup, &StudySetupPanel::stopRequested, this, &StudiesPage::stopStudy);
    connect(m_setup, &StudySetupPanel::continueRequested, this, &StudiesPage::continueStudy);
    connect(m_setup, &StudySetupPanel::openFolderRequested, this, &StudiesPage::openStudyFolder);
    connect(m_setup, &StudySetupPanel::message, this, &StudiesPage::showMessage);
    connect(m_setup, &StudySetupPanel::choiceChanged, this, &StudiesPage::showChosenStudy);
    connect(m_plots, &StudyPlots::message, this, &StudiesPage::showMessage);
    connect(m_controller, &StudyController::activeChanged, this, &StudiesPage::updateButtons);
    connect(m_controller, &StudyController::activeChanged, this, &StudiesPage::runningChanged);
    connect(m_controller, &StudyController::progress, this, &StudiesPage::onProgress);
    connect(m_controller, &StudyController::message, this, [this](const QString& text) { showMessage(text, false); });
    connect(m_controller, &StudyController::finished, this, &StudiesPage::onFinished);
    connect(m_controller, &StudyController::failed, this, &StudiesPage::onFailed);
    connect(m_runTable, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const auto state = m_runModel->state(index.row());
        if (state == lbd::StudyRunState::Finished || state == lbd::StudyRunState::Stopped) {
            emit openRequested(m_runModel->runDirectory(index.row()));
        } else {
            showMessage(tr("Only a finished or stopped run can be opened (this one is %1).")
                            .arg(StudyRunModel::stateText(state)), true);
        }
    });
    updateButtons();
    showChosenStudy(); // after a restart: what the folder holds, before anyone presses Start
}

StudiesPage::~StudiesPage() = default;

void StudiesPage::showChosenStudy()
{
    if (m_controller->isActive()) {
        return;
    }
    QString error;
    const std::optional<lbd::ResolvedStudy> study = m_setup->resolve(&error);
    if (!study) {
        return; // the panel's header says why
    }
    const QString directory = m_setup->folderFor(*study);
    if (lbd::isStudyFolder(directory.toStdString())) {
        try {
            // The folder's own settings (its seeds may differ from the panel's): what is on disk.
            showStudy(lbd::openStudyFolder(directory.toStdString()), directory);
            showMessage(tr("%1 holds this study from before: its runs and table are shown. Start or Continue trains "
                           "the runs that are missing or stopped.")
                            .arg(QDir::toNativeSeparators(directory)),
                        false);
            return;
        } catch (const std::exception& e) {
            showMessage(tr("Could not read the study folder %1: %2").arg(directory, QString::fromUtf8(e.what())), true);
        }
    }
    showStudy(*study, directory);
}

QWidget* StudiesPage::buildResults()
{
    m_summaryModel = new StudySummaryModel(this);
    m_summaryTable = makeTable(QStringLiteral("studySummaryTable"),
                               tr("The study's table: one row per cell, mean ± sample std over the finished seeds "
                                  "(hover a number for its 95 % Student-t interval and the single values)."), this);
    m_summaryTable->setModel(m_summaryModel);
    m_problems = new QLabel(this);
    m_problems->setObjectName(QStringLiteral("studyProblems"));
    m_problems->setWordWrap(true);
    m_problems->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problems->setToolTip(tr("Runs that failed or are not finished: they are left out of the means."));
    m_saveTable = new QPushButton(tr("Save table…"), this);
    m_saveTable->setObjectName(QStringLiteral("saveStudyTableButton"));
    m_saveTable->setToolTip(tr("Write the table as Markdown (.md), CSV (.csv: mean, std, 95 % interval and n per "
                               "metric) or LaTeX (.tex, booktabs), the same files `lbd study` writes to results/."));
    auto* box = new QGroupBox(tr("Table (mean ± std over seeds)"), this);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_summaryTable, 1);
    layout->addWidget(m_problems);
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(m_saveTable);
    layout->addLayout(row);
    connect(m_saveTable, &QPushButton::clicked, this, &StudiesPage::askSaveTable);
    return box;
}

// The study's claims (core/study/claimverdict.h), one line each with the verdict first: at
// 1024x700 the nine claims of the methods study show without scrolling. The numbers behind a
// verdict (each seed's difference, the paper's own figure) are in the row's tooltip.
QWidget* StudiesPage::buildClaims()
{
    m_claimsModel = new StudyClaimsModel(this);
    m_claimsTable = makeTable(QStringLiteral("studyClaimsTable"),
                              tr("The paper's claims this study tests, each a paired comparison of two cells seed by "
                                 "seed (hover a row for each seed's difference and the paper's own figure)."), this);
    m_claimsTable->setModel(m_claimsModel);
    m_claimsTable->setWordWrap(false);
    m_claimsTable->horizontalHeader()->setStretchLastSection(false);
    m_claimsTable->horizontalHeader()->setSectionResizeMode(StudyClaimsModel::Claim, QHeaderView::Stretch);
    m_claimsTable->verticalHeader()->setDefaultSectionSize(m_claimsTable->fontMetrics().height() + 6);
    m_claimsSummary = new QLabel(this);
    m_claimsSummary->setObjectName(QStringLiteral("studyClaimsSummary"));
    m_claimsSummary->setWordWrap(true);
    m_claimsSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* claims = new QWidget(this);
    claims->setObjectName(QStringLiteral("studyClaims"));
    auto* layout = new QVBoxLayout(claims);
    layout->addWidget(m_claimsSummary);
    layout->addWidget(m_claimsTable, 1);
    return claims;
}

bool StudiesPage::isRunning() const
{
    return m_controller->isActive();
}

bool StudiesPage::startStudy()
{
    QString error;
    const std::optional<lbd::ResolvedStudy> study = m_setup->resolve(&error);
    if (!study) {
        showMessage(tr("The study was not started: %1").arg(error), true);
        return false;
    }
    return runPass(*study, m_setup->folderFor(*study));
}

bool StudiesPage::continueStudy()
{
    if (m_directory.isEmpty() || !lbd::isStudyFolder(m_directory.toStdString())) {
        showMessage(tr("No study folder to continue: start a study or open its folder first."), true);
        return false;
    }
    try {
        // The folder's own settings: what was chosen when the study started, not the panel's now.
        return runPass(lbd::openStudyFolder(m_directory.toStdString()), m_directory);
    } catch (const std::exception& e) {
        showMessage(tr("The study was not continued: %1").arg(QString::fromUtf8(e.what())), true);
        return false;
    }
}

bool StudiesPage::runPass(const lbd::ResolvedStudy& study, const QString& directory)
{
    if (m_controller->isActive()) {
        showMessage(tr("A study is already running: stop it first."), true);
        return false;
    }
    showStudy(study, directory);
    if (!m_controller->start(study, directory, m_setup->runnerOptions())) {
        return false;
    }
    showMessage(tr("Running %1 in %2…").arg(QString::fromStdString(study.spec.name), QDir::toNativeSeparators(directory)),
                false);
    return true;
}

void StudiesPage::stopStudy()
{
    if (m_controller->isActive()) {
        m_controller->stop();
        showMessage(tr("Stopping every run (each keeps its last checkpoint; Continue resumes them)…"), false);
    }
}

bool StudiesPage::openStudyFolder(const QString& folder)
{
    if (m_controller->isActive()) {
        showMessage(tr("A study is running: stop it before opening another."), true);
        return false;
    }
    try {
        const QString directory = QDir::cleanPath(folder);
        const lbd::ResolvedStudy study = lbd::openStudyFolder(directory.toStdString());
        m_setup->showOpenedStudy(study, directory);
        showStudy(study, directory);
        showMessage(tr("Opened the study folder %1.").arg(QDir::toNativeSeparators(directory)), false);
        return true;
    } catch (const std::exception& e) {
        showMessage(tr("Could not open the study folder %1: %2").arg(folder, QString::fromUtf8(e.what())), true);
        return false;
    }
}

void StudiesPage::showStudy(const lbd::ResolvedStudy& study, const QString& directory)
{
    m_study = study;
    m_directory = directory;
    m_setup->showFolder(directory);
    m_runModel->setStudy(study, directory);
    m_runTable->resizeColumnsToContents();
    m_plots->setMetric("accuracy"); // the paper's figures show accuracy; any other metric is one click away
    updateButtons();
    refreshSummary();
}

void StudiesPage::refreshSummary()
{
    if (!m_study) {
        return;
    }
    const lbd::ResolvedStudy study = *m_study;
    const std::string directory = m_directory.toStdString();
    m_summarize.start([study, directory] { return lbd::summarizeStudy(study, directory); },
                      [this](const lbd::StudySummary& summary) { showSummary(summary); },
                      [this](const QString& error) { showMessage(tr("Could not read the study's results: %1").arg(error), true); });
}

void StudiesPage::showSummary(const lbd::StudySummary& summary)
{
    m_summaryModel->setSummary(summary);
    m_summaryTable->resizeColumnsToContents();
    showClaims(summary.verdicts);
    const QStringList problems = m_summaryModel->problems();
    m_problems->setText(problems.isEmpty() ? QString()
                                           : tr("Not in the means:\n%1").arg(problems.join(QLatin1Char('\n'))));
    m_problems->setVisible(!problems.isEmpty());
    m_plots->setSummary(summary, m_study ? factorKeys(*m_study) : std::vector<std::string>{});
    updateButtons();
    emit summaryRefreshed();
}

void StudiesPage::showClaims(const std::vector<lbd::ClaimVerdict>& verdicts)
{
    m_claimsModel->setVerdicts(verdicts);
    for (const int column : {StudyClaimsModel::Verdict, StudyClaimsModel::Effect, StudyClaimsModel::Seeds}) {
        m_claimsTable->resizeColumnToContents(column);
    }
    const int tab = claimsTab();
    m_resultTabs->setTabVisible(tab, !verdicts.empty());
    m_resultTabs->setTabText(tab, verdicts.empty() ? tr("Claims") : tr("Claims: %1").arg(StudyClaimsModel::countsText(verdicts)));
    m_resultTabs->setTabToolTip(tab, StudyClaimsModel::countsSentence(verdicts));
    m_claimsSummary->setText(
        tr("<b>%1.</b> Each claim is a paired comparison: the difference between two cells trained on the same split "
           "with the same seed, its mean over the seeds with a 95 % interval. Holds: the interval lies on the claimed "
           "side; opposite: wholly on the other; not detected: it straddles zero. Hover a row for each seed's "
           "difference and the paper's own figure.")
            .arg(StudyClaimsModel::countsSentence(verdicts).toHtmlEscaped()));
}

void StudiesPage::onProgress(const lbd::StudyProgress& progress)
{
    const bool wasEnded = progress.run < m_runModel->rowCount() && ended(m_runModel->state(progress.run));
    m_runModel->applyProgress(progress);
    // A run that has just ended changes the table: read the results again (the newest read wins).
    if (ended(progress.state) && !wasEnded) {
        refreshSummary();
    }
}

void StudiesPage::onFinished(const lbd::StudyOutcome& outcome)
{
    m_summarize.cancel(); // the runner's own summary, written to results/, is the final word
    showSummary(outcome.summary);
    m_runTable->resizeColumnsToContents(); // the states are longer than "pending" now
    showMessage(tr("%1: %2 finished (%3 now), %4 failed, %5 stopped or pending, in %6 s. Tables in %7.")
                    .arg(outcome.stopRequested ? tr("Stopped") : tr("Done"))
                    .arg(outcome.finished)
                    .arg(outcome.trainedNow)
                    .arg(outcome.failed)
                    .arg(outcome.stopped)
                    .arg(outcome.seconds, 0, 'f', 0)
                    .arg(QDir::toNativeSeparators(QDir(m_directory).filePath(QStringLiteral("results")))),
                outcome.failed > 0);
    updateButtons();
    emit studyFinished();
}

void StudiesPage::onFailed(const QString& error)
{
    showMessage(error, true);
    if (m_study) {
        m_runModel->setStudy(*m_study, m_directory); // what the folders say after the pass
    }
    refreshSummary();
    updateButtons();
    emit studyFinished();
}

void StudiesPage::updateButtons()
{
    const bool canContinue = !m_directory.isEmpty() && lbd::isStudyFolder(m_directory.toStdString());
    m_setup->setRunState(m_controller->isActive(), m_controller->isStopping(), canContinue);
    m_saveTable->setEnabled(m_summaryModel->rowCount() > 0);
}

bool StudiesPage::saveTable(const QString& path)
{
    const lbd::StudySummary& summary = m_summaryModel->summary();
    if (summary.cells.empty()) {
        showMessage(tr("No table to save: run or open a study first."), true);
        return false;
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    const std::string text = suffix == QLatin1String("csv")   ? lbd::csvTable(summary)
                             : suffix == QLatin1String("tex") ? lbd::latexTable(summary)
                                                              : lbd::markdownTable(summary);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 || !file.commit()) {
        showMessage(tr("Could not write %1: %2").arg(path, file.errorString()), true);
        return false;
    }
    showMessage(tr("Saved the table as %1.").arg(QDir::toNativeSeparators(path)), false);
    return true;
}

void StudiesPage::askSaveTable()
{
    QString filter;
    const QString markdown = tr("Markdown (*.md)"), csv = tr("CSV (*.csv)"), latex = tr("LaTeX table (*.tex)");
    QString path = QFileDialog::getSaveFileName(this, tr("Save the study's table"),
                                                QDir(m_directory).filePath(QStringLiteral("table.md")),
                                                QStringList{markdown, csv, latex}.join(QStringLiteral(";;")), &filter);
    if (path.isEmpty()) {
        return;
    }
    if (QFileInfo(path).suffix().isEmpty()) {
        path += filter == csv ? QStringLiteral(".csv") : filter == latex ? QStringLiteral(".tex") : QStringLiteral(".md");
    }
    saveTable(path);
}

QString StudiesPage::lastMessage() const
{
    return m_message->text();
}

void StudiesPage::showMessage(const QString& text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #b01e1e;") : QString());
}

int StudiesPage::claimsTab() const
{
    return m_resultTabs->indexOf(m_claims);
}

bool StudiesPage::plotsOnTheirOwnTab() const
{
    return m_resultTabs->indexOf(m_plots) >= 0;
}

void StudiesPage::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Side by side the plots need room: below ~1000 px (the experiment panel open at 1024) they
    // get a tab of their own. Stacked under the two tables, as before, the three were a few rows
    // each and made the page taller than a 700 px screen.
    const bool narrow = event->size().width() < 1000;
    if (narrow == plotsOnTheirOwnTab()) {
        return;
    }
    m_resultTabs->setTabText(m_resultTabs->indexOf(m_splitter), narrow ? tr("Runs and table") : tr("Runs, table and plots"));
    if (narrow) {
        m_resultTabs->insertTab(1, m_plots, tr("Plots"));
    } else {
        const bool plotsShown = m_resultTabs->currentWidget() == m_plots;
        m_resultTabs->removeTab(m_resultTabs->indexOf(m_plots));
        m_splitter->addWidget(m_plots);
        m_splitter->setStretchFactor(1, 1);
        m_plots->show(); // the tab widget had hidden it with its tab
        if (plotsShown) {
            m_resultTabs->setCurrentWidget(m_splitter);
        }
    }
}

} // namespace lbd::ui
