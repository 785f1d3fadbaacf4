#include "ui/pages/runspage.h"

#include "core/infer/runexport.h"
#include "ui/app/appsettings.h"
#include "ui/runs/comparisonsavebar.h"
#include "ui/runs/runcomparisonview.h"
#include "ui/runs/rungroupview.h"
#include "ui/runs/runtablemodel.h"
#include "ui/widgets/savepath.h"

#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelection>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace lbd::ui {
namespace {

constexpr int kMaxColumnWidth = 240; // pixels: a column sized to a long folder path would push the rest away


QPushButton* makeButton(const QString& text, const QString& toolTip, const QString& objectName, QWidget* parent)
{
    auto* button = new QPushButton(text, parent);
    button->setToolTip(toolTip);
    button->setObjectName(objectName);
    return button;
}

} // namespace

RunsPage::RunsPage(QWidget* parent) : QWidget(parent), m_folder(AppSettings::runsFolder())
{
    setObjectName(QStringLiteral("runsPage"));

    m_folderLabel = new QLabel(this);
    m_folderLabel->setObjectName(QStringLiteral("runsFolderLabel"));
    m_folderLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_folderLabel->setToolTip(tr("The folder whose sub-folders are runs; new runs are created here."));
    m_changeFolderButton = makeButton(tr("Change folder…"),
                                      tr("Choose another runs folder: it is listed here and new runs are created in it."),
                                      QStringLiteral("changeRunsFolderButton"), this);
    m_refreshButton = makeButton(tr("Refresh"), tr("Read the runs folder again (it is also watched for new runs)."),
                                 QStringLiteral("refreshRunsButton"), this);

    m_model = new RunTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RunTableModel::SortRole);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("runsTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RunTableModel::Created, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // The results right after the name and status, so that at 1024 px they are on screen without
    // scrolling sideways (the model's column order, which the CSV follows, is unchanged).
    for (int column = RunTableModel::Warnings; column <= RunTableModel::Ece; ++column) {
        m_table->horizontalHeader()->moveSection(m_table->horizontalHeader()->visualIndex(column),
                                                 RunTableModel::Status + 1 + column - RunTableModel::Warnings);
    }
    m_table->setToolTip(tr("Every run in the runs folder. Click a header to sort; double-click a run to open it; "
                           "Ctrl+click or Shift+click to select runs to compare."));

    m_groupToggle = new QCheckBox(tr("Group seeds"), this);
    m_groupToggle->setObjectName(QStringLiteral("groupSeedsToggle"));
    m_groupToggle->setToolTip(tr("One row per experiment repeated over seeds (configs equal but for train.seed, "
                                 "data.seed and name), with mean ± sample std over its finished runs."));
    m_groups = new RunGroupView(this);
    m_tableStack = new QStackedWidget(this);

    m_openButton = makeButton(tr("Open"), tr("Show the selected run on every page (Training, Tail risk, Calibration, ...)."),
                              QStringLiteral("openRunButton"), this);
    m_continueButton = makeButton(tr("Continue training"),
                                  tr("Train a stopped or failed run on from its last checkpoint, with its own settings "
                                     "(like `lbd train --resume RUN`); epochs after the checkpoint are trained again."),
                                  QStringLiteral("continueRunButton"), this);
    m_compareButton = makeButton(tr("Compare"),
                                 tr("Overlay the selected runs' test accuracy, tail accuracy and training objective per "
                                    "epoch, and list their metrics side by side (select two or more)."),
                                 QStringLiteral("compareRunsButton"), this);
    m_csvButton = makeButton(tr("Save metrics as CSV…"),
                             tr("Write the selected runs' metrics (every listed run when none is selected) as CSV: one "
                                "row per run, accuracies and FHR as fractions in [0, 1]."),
                             QStringLiteral("saveMetricsCsvButton"), this);
    m_exportModelButton = makeButton(tr("Export model for Python…"),
                                     tr("Write the selected run's weights (last checkpoint) as a torch.load-readable file "
                                        "with class names and normalisation, like `lbd export RUN --out FILE`."),
                                     QStringLiteral("exportModelButton"), this);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("runsMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_comparison = new RunComparisonView(this);
    m_saveBar = new ComparisonSaveBar(m_comparison, [this] { return m_folder; }, this);
    connect(m_saveBar, &ComparisonSaveBar::message, this, &RunsPage::showMessage);

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folderLabel, 1);
    folderRow->addWidget(m_changeFolderButton);
    folderRow->addWidget(m_refreshButton);
    folderRow->addWidget(m_groupToggle);
    topLayout->addLayout(folderRow);
    m_tableStack->addWidget(m_table);
    m_tableStack->addWidget(m_groups);
    topLayout->addWidget(m_tableStack, 1);
    auto* actionRow = new QHBoxLayout;
    actionRow->addWidget(m_openButton);
    actionRow->addWidget(m_continueButton);
    actionRow->addWidget(m_compareButton);
    actionRow->addWidget(m_csvButton);
    actionRow->addWidget(m_exportModelButton);
    actionRow->addStretch(1);
    topLayout->addLayout(actionRow);
    topLayout->addWidget(m_message);

    auto* comparisonBox = new QGroupBox(tr("Comparison"), this);
    auto* comparisonLayout = new QVBoxLayout(comparisonBox);
    comparisonLayout->addWidget(m_comparison, 1);
    comparisonLayout->addWidget(m_saveBar);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(top);
    splitter->addWidget(comparisonBox);
    // The run list first: at 1024 x 700 it showed two rows above an empty comparison. It keeps
    // room for about six rows; the comparison takes what is left and grows once runs are compared.
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() + m_table->horizontalScrollBar()->sizeHint().height()
                              + 6 * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth());
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    m_watcher = new QFileSystemWatcher(this);
    m_rescanTimer = new QTimer(this);
    m_rescanTimer->setSingleShot(true);
    m_rescanTimer->setInterval(400); // a new run writes several files at once: one scan for all
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, m_rescanTimer, qOverload<>(&QTimer::start));
    connect(m_rescanTimer, &QTimer::timeout, this, [this] {
        // A hidden page only notes the change: it scans when it is shown.
        if (isVisible()) {
            refresh();
        } else {
            m_stale = true;
        }
    });

    connect(m_changeFolderButton, &QPushButton::clicked, this, &RunsPage::chooseFolder);
    connect(m_refreshButton, &QPushButton::clicked, this, &RunsPage::refresh);
    connect(m_openButton, &QPushButton::clicked, this, &RunsPage::openSelected);
    connect(m_continueButton, &QPushButton::clicked, this, [this] {
        const QStringList selected = selectedRuns();
        if (selected.size() == 1) {
            emit continueRequested(selected.first());
        }
    });
    connect(m_compareButton, &QPushButton::clicked, this, [this] { compare(selectedRuns()); });
    connect(m_csvButton, &QPushButton::clicked, this, &RunsPage::askSaveCsv);
    connect(m_exportModelButton, &QPushButton::clicked, this, &RunsPage::askExportModel);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.isValid()) {
            selectRuns({m_proxy->data(index, RunTableModel::DirectoryRole).toString()});
            openSelected();
        }
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsPage::updateButtons);
    connect(m_groupToggle, &QCheckBox::toggled, this, &RunsPage::setGroupedBySeed);
    connect(m_groups, &RunGroupView::groupActivated, this, [this](const QStringList& directories) {
        setGroupedBySeed(false); // the group's runs, selected in the run list: Compare is one click away
        selectRuns(directories);
    });

    updateFolderLabel();
    watchFolder();
    updateButtons();
}

RunsPage::~RunsPage() = default;

void RunsPage::setGroupedBySeed(bool grouped)
{
    m_groupToggle->setChecked(grouped);
    m_tableStack->setCurrentWidget(grouped ? static_cast<QWidget*>(m_groups) : m_table);
}

const std::vector<lbd::RunSummary>& RunsPage::runs() const
{
    return m_model->runs();
}

int RunsPage::rowOf(const QString& directory) const
{
    return m_model->rowOf(directory);
}

void RunsPage::setRunsFolder(const QString& folder)
{
    const QString cleaned = QDir::cleanPath(folder);
    if (cleaned.isEmpty()) {
        showMessage(tr("No runs folder given."), true);
        return;
    }
    AppSettings::setRunsFolder(cleaned);
    m_folder = cleaned;
    m_scan.cancel(); // a scan of the old folder still running is now stale
    m_model->setRuns({});
    m_groups->setRuns({});
    m_comparison->clear();
    updateFolderLabel();
    watchFolder();
    updateButtons();
    refresh();
}

void RunsPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // File > Runs folder in the main window changes the setting too.
    const QString current = QDir::cleanPath(AppSettings::runsFolder());
    if (current != QDir::cleanPath(m_folder)) {
        setRunsFolder(current);
    } else if (!m_scannedOnce || m_stale) {
        refresh();
    }
}

void RunsPage::refresh()
{
    m_stale = false;
    const std::string folder = m_folder.toStdString();
    m_refreshButton->setEnabled(false);
    watchFolder(); // the folder may have been created since
    // A scan still running is superseded: its folder listing may already be out of date.
    m_scan.start(
        [folder] {
            std::vector<lbd::RunSummary> runs;
            for (const std::string& directory : lbd::findRunFolders(folder)) {
                runs.push_back(lbd::readRunSummary(directory));
            }
            return runs;
        },
        [this](std::vector<lbd::RunSummary> runs) { onScanned(std::move(runs), {}); },
        [this](const QString& error) { onScanned({}, error); });
}

void RunsPage::onScanned(std::vector<lbd::RunSummary> runs, const QString& error)
{
    m_refreshButton->setEnabled(true);
    m_scannedOnce = true;
    const QStringList selected = selectedRuns();
    int damaged = 0;
    for (const lbd::RunSummary& run : runs) {
        damaged += run.damaged() ? 1 : 0;
    }
    const int count = static_cast<int>(runs.size());
    const bool firstRows = m_model->rowCount() == 0;
    m_model->setRuns(std::move(runs));
    m_groups->setRuns(m_model->runs());
    m_model->setShownRun(m_shownRun);
    if (firstRows) {
        m_table->resizeColumnsToContents(); // later scans keep the user's column widths
        for (int column = 0; column < RunTableModel::ColumnCount; ++column) {
            m_table->setColumnWidth(column, std::min(m_table->columnWidth(column), kMaxColumnWidth)); // a long path is elided
        }
    }
    selectRuns(selected);
    if (!error.isEmpty()) {
        showMessage(tr("Could not read the runs folder %1: %2").arg(m_folder, error), true);
    } else if (!QFileInfo(m_folder).isDir()) {
        showMessage(tr("The runs folder %1 does not exist yet; the first run you start creates it.").arg(m_folder), false);
    } else if (count == 0) {
        showMessage(tr("No runs in %1 yet. Train one with Start, or choose another folder.").arg(m_folder), false);
    } else if (damaged > 0) {
        showMessage(tr("%n run(s) listed; %1 damaged (see the Problems column).", nullptr, count).arg(damaged), true);
    } else {
        showMessage(tr("%n run(s) listed.", nullptr, count), false);
    }
    updateButtons();
    emit runsRefreshed();
}

QStringList RunsPage::selectedRuns() const
{
    QStringList directories;
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    for (const QModelIndex& index : rows) {
        directories << m_proxy->data(index, RunTableModel::DirectoryRole).toString();
    }
    return directories;
}

void RunsPage::selectRuns(const QStringList& directories)
{
    QItemSelection selection;
    for (const QString& directory : directories) {
        const int row = m_model->rowOf(directory);
        if (row >= 0) {
            const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
            selection.select(index, index);
        }
    }
    m_table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    updateButtons();
}

void RunsPage::setShownRun(const QString& directory)
{
    m_shownRun = directory;
    m_model->setShownRun(directory);
}

void RunsPage::openSelected()
{
    const QStringList selected = selectedRuns();
    if (selected.size() != 1) {
        showMessage(tr("Select one run to open."), true);
        return;
    }
    const int row = m_model->rowOf(selected.first());
    if (row < 0) {
        return;
    }
    const lbd::RunSummary& run = m_model->run(row);
    if (!QFileInfo(QDir(selected.first()).filePath(QStringLiteral("config.json"))).isFile()) {
        showMessage(tr("Cannot open %1: it has no config.json (%2).")
                        .arg(QString::fromStdString(run.folderName), RunTableModel::statusText(run)),
                    true);
        return;
    }
    emit openRequested(selected.first());
}

bool RunsPage::compare(const QStringList& directories)
{
    if (directories.size() < 2) {
        showMessage(tr("Select two or more runs to compare (Ctrl+click or Shift+click rows)."), true);
        return false;
    }
    m_compareButton->setEnabled(false);
    showMessage(tr("Reading the curves of %n run(s)…", nullptr, static_cast<int>(directories.size())), false);
    const auto shown = [this](std::vector<ComparedRun> runs) {
        QStringList problems;
        for (const ComparedRun& run : runs) {
            if (!run.error.isEmpty()) {
                problems << run.error;
            }
        }
        const int count = static_cast<int>(runs.size());
        m_comparison->setRuns(std::move(runs));
        if (problems.isEmpty()) {
            showMessage(tr("Comparing %n run(s).", nullptr, count), false);
        } else {
            showMessage(tr("Comparing %1 runs; without curves: %2").arg(count).arg(problems.join(QStringLiteral("; "))), true);
        }
        updateButtons();
        emit comparisonReady();
    };
    m_compare.start(
        [directories] {
            std::vector<ComparedRun> runs;
            for (const QString& directory : directories) {
                runs.push_back(loadComparedRun(directory));
            }
            return runs;
        },
        shown,
        [this](const QString& error) {
            showMessage(tr("Could not compare the runs: %1").arg(error), true);
            updateButtons();
        });
    return true;
}

bool RunsPage::savePlotsPng(const QString& path) { return m_saveBar->savePng(path); }

bool RunsPage::savePlotsPdf(const QString& path) { return m_saveBar->savePdf(path); }

bool RunsPage::writeComparisonReport(const QString& markdownPath) { return m_saveBar->writeReport(markdownPath); }

std::vector<lbd::RunSummary> RunsPage::runsForCsv() const
{
    const QStringList selected = selectedRuns();
    std::vector<lbd::RunSummary> runs;
    // In the table's (sorted) order.
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const QString directory = m_proxy->data(m_proxy->index(row, 0), RunTableModel::DirectoryRole).toString();
        if (selected.isEmpty() || selected.contains(directory)) {
            runs.push_back(m_model->run(m_model->rowOf(directory)));
        }
    }
    return runs;
}

bool RunsPage::saveMetricsCsv(const QString& path)
{
    const std::vector<lbd::RunSummary> runs = runsForCsv();
    if (runs.empty()) {
        showMessage(tr("No runs to save: the runs folder lists none."), true);
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text) || file.write(runsToCsv(runs).toUtf8()) < 0 || !file.commit()) {
        showMessage(tr("Could not write %1: %2").arg(path, file.errorString()), true);
        return false;
    }
    showMessage(tr("Saved the metrics of %n run(s) to %1.", nullptr, static_cast<int>(runs.size())).arg(path), false);
    return true;
}

void RunsPage::exportModel(const QString& runDirectory, const QString& outFile)
{
    if (m_export.isRunning()) {
        showMessage(tr("A model export is already running."), true);
        return;
    }
    if (outFile.isEmpty()) {
        showMessage(tr("No output file given for the model."), true);
        emit modelExportFailed(lastMessage());
        return;
    }
    showMessage(tr("Exporting the model of %1 to %2…").arg(QFileInfo(runDirectory).fileName(), outFile), false);
    const std::string run = runDirectory.toStdString();
    const std::string out = outFile.toStdString();
    m_export.start([run, out] { return lbd::exportRunForPython(run, out); },
                   [this, outFile](const lbd::ExportedModel& model) {
                       updateButtons();
                       showMessage(tr("Wrote %1: %2 with M = %3 particles, %4 classes, %5 tensors (%6 numbers), weights of "
                                      "epoch %7. In Python: d = torch.load('%1'); d['state_dict'], d['class_names']")
                                       .arg(outFile, QString::fromStdString(model.arch))
                                       .arg(model.particles)
                                       .arg(model.classNames.size())
                                       .arg(model.tensorCount)
                                       .arg(model.parameterCount)
                                       .arg(model.epoch),
                                   false);
                       emit modelExported(outFile);
                   },
                   [this](const QString& error) {
                       updateButtons();
                       showMessage(tr("The model was not exported: %1").arg(error), true);
                       emit modelExportFailed(error);
                   });
    updateButtons(); // no second export while this one runs
}

QString RunsPage::lastMessage() const
{
    return m_message->text();
}

void RunsPage::showMessage(const QString& text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #b01e1e;") : QString());
}

void RunsPage::updateButtons()
{
    const QStringList selected = selectedRuns();
    bool canExport = false;
    bool canContinue = false;
    if (selected.size() == 1) {
        const int row = m_model->rowOf(selected.first());
        canExport = row >= 0 && m_model->run(row).hasCheckpoint;
        canContinue = row >= 0 && m_model->run(row).resumable();
    }
    m_openButton->setEnabled(selected.size() == 1);
    m_continueButton->setEnabled(canContinue);
    m_compareButton->setEnabled(selected.size() >= 2);
    m_csvButton->setEnabled(m_model->rowCount() > 0);
    m_exportModelButton->setEnabled(canExport && !m_export.isRunning());
    m_exportModelButton->setToolTip(canExport || selected.size() != 1
                                        ? tr("Write the selected run's weights (last checkpoint) as a torch.load-readable "
                                             "file with class names and normalisation, like `lbd export RUN --out FILE`.")
                                        : tr("The selected run has no checkpoint yet (it has not finished an epoch)."));
    m_saveBar->updateButtons();
}

void RunsPage::updateFolderLabel()
{
    m_folderLabel->setText(tr("Runs folder: %1").arg(QDir::toNativeSeparators(m_folder)));
}

void RunsPage::watchFolder()
{
    const QStringList watched = m_watcher->directories();
    if (watched.size() == 1 && watched.first() == m_folder) {
        return;
    }
    if (!watched.isEmpty()) {
        m_watcher->removePaths(watched);
    }
    if (QFileInfo(m_folder).isDir()) {
        m_watcher->addPath(m_folder);
    }
}

void RunsPage::chooseFolder()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Runs folder"), m_folder);
    if (!folder.isEmpty()) {
        setRunsFolder(folder);
    }
}

void RunsPage::askSaveCsv()
{
    const QString path = withSuffix(QFileDialog::getSaveFileName(this, tr("Save the runs' metrics as CSV"),
                                                                 QDir(m_folder).filePath(QStringLiteral("runs.csv")),
                                                                 tr("CSV table (*.csv)")),
                                    QStringLiteral("csv"));
    if (!path.isEmpty()) {
        saveMetricsCsv(path);
    }
}

void RunsPage::askExportModel()
{
    const QStringList selected = selectedRuns();
    if (selected.size() != 1) {
        showMessage(tr("Select one run whose model to export."), true);
        return;
    }
    const QString name = QFileInfo(selected.first()).fileName();
    const QString path = withSuffix(QFileDialog::getSaveFileName(this, tr("Export the model for Python"),
                                                                 QDir(m_folder).filePath(name + QStringLiteral("-model.pt")),
                                                                 tr("PyTorch file (*.pt)")),
                                    QStringLiteral("pt"));
    if (!path.isEmpty()) {
        exportModel(selected.first(), path);
    }
}

} // namespace lbd::ui
