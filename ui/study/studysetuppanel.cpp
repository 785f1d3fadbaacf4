#include "ui/study/studysetuppanel.h"

#include "core/study/studyfolder.h"
#include "core/train/configjson.h"
#include "ui/app/appsettings.h"
#include "ui/panels/datasetcatalog.h"
#include "ui/panels/durationestimate.h"
#include "ui/training/visiblegpus.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>
#include <numeric>

namespace lbd::ui {
namespace {

QString seedsText(const std::vector<int64_t>& seeds)
{
    QStringList parts;
    for (int64_t seed : seeds) {
        parts << QString::number(seed);
    }
    return parts.join(QStringLiteral(","));
}

} // namespace

StudySetupPanel::StudySetupPanel(QWidget* parent) : QWidget(parent)
{
    m_study = new QComboBox(this);
    m_study->setObjectName(QStringLiteral("studyCombo"));
    m_study->setToolTip(tr("The study to run: one of the paper's tables (its cells x seeds, each run an ordinary run "
                           "folder), or a study.json you opened."));
    m_study->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_study->setMinimumContentsLength(30);
    m_info = new QLabel(this);
    m_info->setObjectName(QStringLiteral("studyInfo"));
    m_info->setWordWrap(true);
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_info->setToolTip(tr("Which table or figure of the paper the study reproduces, and the claim it tests."));
    m_openFile = new QPushButton(tr("Open study.json…"), this);
    m_openFile->setToolTip(tr("Add a study of your own (a study.json: a base config, factors and seeds) to the list."));
    m_openFolder = new QPushButton(tr("Open study folder…"), this);
    m_openFolder->setObjectName(QStringLiteral("openStudyFolderButton"));
    m_openFolder->setToolTip(tr("Show a study that has run (or is half-run) in a folder: its runs, table and plots. "
                                "Continue then trains what is missing."));
    m_quick = new QCheckBox(tr("Quick scale"), this);
    m_quick->setObjectName(QStringLiteral("studyQuick"));
    m_estimate = new QLabel(this);
    m_estimate->setObjectName(QStringLiteral("studyEstimate"));
    m_estimate->setWordWrap(true);
    m_estimate->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_estimate->setToolTip(tr("Every run's epochs x training images / a training speed: the one the last run here with "
                              "the same device, model and batch recorded, else a reference figure of a 2-core CPU. "
                              "Evaluations are not counted; the grid's ETA column shows the measured time once the "
                              "runs train."));
    m_seeds = new QLineEdit(this);
    m_seeds->setObjectName(QStringLiteral("studySeeds"));
    m_seeds->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9, ]*")), m_seeds));
    m_seeds->setToolTip(tr("The seeds every cell is repeated with, e.g. 0,1,2 (empty: the study's own). Each seed "
                           "sets data.seed and train.seed; the table's ± is the sample std over them."));
    m_parallel = new QSpinBox(this);
    m_parallel->setObjectName(QStringLiteral("studyParallel"));
    m_parallel->setRange(1, 16);
    m_parallel->setToolTip(tr("Runs trained at once, as threads of this program (small models leave a GPU mostly "
                              "idle). On a CPU the cores are shared among them."));
    m_fuse = new QSpinBox(this);
    m_fuse->setObjectName(QStringLiteral("studyFuse"));
    m_fuse->setRange(0, 16);
    m_fuse->setValue(1);
    m_fuse->setSpecialValueText(tr("auto"));
    m_fuse->setToolTip(tr("Runs trained as one fused model on one device, up to this many a group: the seeds of a cell, "
                          "and cells that differ only in the objective (lbd study --fuse). Each run keeps its own objective, "
                          "optimiser, checkpoints and folder. 1: off; auto: from the GPU's memory (off on the CPU). "
                          "Measured on an H200: 3 fused runs trained 0.78x the images/s of one run alone (no CUDA "
                          "graph yet), so it does not speed a study up today."));
    m_device = new QComboBox(this);
    m_device->setObjectName(QStringLiteral("studyDevice"));
    m_device->setToolTip(tr("Where every run of the study trains: the CPU or one CUDA GPU."));
    m_folder = new QLabel(this);
    m_folder->setObjectName(QStringLiteral("studyFolderLabel"));
    m_folder->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_folder->setToolTip(tr("The study folder: study.json, one run folder per cell and seed under runs/, and the "
                            "tables under results/."));
    m_chooseFolder = new QPushButton(tr("Folder…"), this);
    m_chooseFolder->setToolTip(tr("Put the study somewhere else than <runs folder>/studies/<name>."));
    m_start = new QPushButton(tr("Start"), this);
    m_start->setObjectName(QStringLiteral("startStudyButton"));
    m_start->setToolTip(tr("Run the study: every cell x seed; runs already finished in its folder are skipped."));
    m_stop = new QPushButton(tr("Stop"), this);
    m_stop->setObjectName(QStringLiteral("stopStudyButton"));
    m_stop->setToolTip(tr("Stop every run within one batch (each keeps its last checkpoint) and start no new one."));
    m_continue = new QPushButton(tr("Continue"), this);
    m_continue->setObjectName(QStringLiteral("continueStudyButton"));
    m_continue->setToolTip(tr("Run the shown study folder again with its own settings: finished runs are skipped, "
                              "stopped ones resume from their checkpoint."));
    buildLayout();
    fillStudies();
    fillDevices();
    // The full scale trains the paper's recipes (hours to days on a CPU): without a GPU the quick
    // scale is where a first study should start.
    m_quickWanted = m_device->count() == 1;
    matchQuickToStudy();

    // Another study or scale chosen by hand no longer runs in an opened study's folder.
    connect(m_study, &QComboBox::currentIndexChanged, this, [this] {
        m_openedFolder.clear();
        matchQuickToStudy();
        updateInfo();
        emit choiceChanged();
    });
    connect(m_quick, &QCheckBox::toggled, this, [this](bool on) {
        m_quickWanted = on;
        m_openedFolder.clear();
        updateInfo();
        emit choiceChanged();
    });
    connect(m_seeds, &QLineEdit::textChanged, this, &StudySetupPanel::updateInfo);
    connect(m_device, &QComboBox::currentIndexChanged, this, &StudySetupPanel::updateEstimate);
    connect(m_parallel, &QSpinBox::valueChanged, this, &StudySetupPanel::updateEstimate);
    connect(m_fuse, &QSpinBox::valueChanged, this, &StudySetupPanel::updateEstimate);
    connect(m_openFile, &QPushButton::clicked, this, &StudySetupPanel::chooseStudyFile);
    connect(m_openFolder, &QPushButton::clicked, this, &StudySetupPanel::chooseStudyFolder);
    connect(m_chooseFolder, &QPushButton::clicked, this, &StudySetupPanel::chooseTargetFolder);
    connect(m_start, &QPushButton::clicked, this, &StudySetupPanel::startRequested);
    connect(m_stop, &QPushButton::clicked, this, &StudySetupPanel::stopRequested);
    connect(m_continue, &QPushButton::clicked, this, &StudySetupPanel::continueRequested);
    setRunState(false, false, false);
    updateInfo();
}

void StudySetupPanel::buildLayout()
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    auto* studyRow = new QHBoxLayout;
    studyRow->addWidget(m_study, 1);
    studyRow->addWidget(m_openFile);
    studyRow->addWidget(m_openFolder);
    grid->addWidget(new QLabel(tr("Study"), this), 0, 0);
    grid->addLayout(studyRow, 0, 1, 1, 3);
    grid->addWidget(m_info, 1, 1, 1, 3);
    auto* optionRow = new QHBoxLayout;
    optionRow->addWidget(m_quick);
    optionRow->addSpacing(12);
    optionRow->addWidget(new QLabel(tr("Seeds"), this));
    optionRow->addWidget(m_seeds, 1);
    optionRow->addWidget(new QLabel(tr("Parallel runs"), this));
    optionRow->addWidget(m_parallel);
    optionRow->addWidget(new QLabel(tr("Fuse"), this));
    optionRow->addWidget(m_fuse);
    optionRow->addWidget(new QLabel(tr("Device"), this));
    optionRow->addWidget(m_device, 1);
    grid->addWidget(new QLabel(tr("Scale"), this), 2, 0);
    grid->addLayout(optionRow, 2, 1, 1, 3);
    grid->addWidget(m_estimate, 3, 1, 1, 3);
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(m_chooseFolder);
    folderRow->addSpacing(12);
    folderRow->addWidget(m_start);
    folderRow->addWidget(m_stop);
    folderRow->addWidget(m_continue);
    grid->addWidget(new QLabel(tr("Folder"), this), 4, 0);
    grid->addLayout(folderRow, 4, 1, 1, 3);
    grid->setColumnStretch(1, 1);
}

void StudySetupPanel::fillStudies()
{
    for (const lbd::StudyInfo& info : lbd::listBuiltInStudies()) {
        const QString title = QString::fromStdString(info.title);
        m_study->addItem(QString::fromStdString(info.paperTable) + QStringLiteral(": ") + title,
                         QString::fromStdString(info.name));
        m_study->setItemData(m_study->count() - 1, title, Qt::ToolTipRole);
    }
}

void StudySetupPanel::fillDevices()
{
    m_device->addItem(tr("CPU"), QStringLiteral("cpu"));
    for (const QString& text : visibleGpus()) {
        // "cuda:0 NVIDIA H100 80GB HBM3": the first word is the device name the engine parses.
        m_device->addItem(text, text.section(QLatin1Char(' '), 0, 0));
    }
    if (m_device->count() > 1) {
        m_device->setCurrentIndex(1);
    }
}

bool StudySetupPanel::addStudyFile(const QString& path, QString* error)
{
    try {
        const lbd::StudySpec spec = lbd::findStudySpec(path.toStdString());
        const QString absolute = QFileInfo(path).absoluteFilePath();
        int index = m_study->findData(absolute);
        if (index < 0) {
            m_study->addItem(tr("%1 (%2)").arg(QString::fromStdString(spec.title.empty() ? spec.name : spec.title),
                                              QFileInfo(path).fileName()),
                             absolute);
            index = m_study->count() - 1;
            m_study->setItemData(index, QDir::toNativeSeparators(absolute), Qt::ToolTipRole);
        }
        m_study->setCurrentIndex(index);
        return true;
    } catch (const std::exception& e) {
        *error = tr("Could not read the study %1: %2").arg(path, QString::fromUtf8(e.what()));
        return false;
    }
}

bool StudySetupPanel::selectStudy(const QString& nameOrPath)
{
    const int index = m_study->findData(nameOrPath);
    if (index >= 0) {
        m_study->setCurrentIndex(index);
    }
    return index >= 0;
}

void StudySetupPanel::showOpenedStudy(const lbd::ResolvedStudy& study, const QString& folder)
{
    {
        const QSignalBlocker blockStudy(m_study);
        const QSignalBlocker blockQuick(m_quick);
        const int builtIn = m_study->findData(QString::fromStdString(study.spec.name));
        const bool sameStudy = builtIn >= 0
            && m_study->itemData(builtIn, Qt::ToolTipRole).toString() == QString::fromStdString(study.spec.title);
        QString error;
        if (sameStudy) {
            m_study->setCurrentIndex(builtIn);
        } else if (!addStudyFile(QString::fromStdString(lbd::studySpecPath(folder.toStdString())), &error)) {
            emit message(error, true);
        }
        matchQuickToStudy();
        m_quick->setChecked(study.options.quick);
        m_quickWanted = study.options.quick;
        const QSignalBlocker blockSeeds(m_seeds);
        m_seeds->setText(seedsText(study.options.seeds)); // empty: the study's own, as when it started
    }
    m_openedFolder = QDir::cleanPath(folder);
    updateInfo();
}

void StudySetupPanel::setQuick(bool quick) { m_quick->setChecked(quick); }
void StudySetupPanel::setSeedsText(const QString& text) { m_seeds->setText(text); }
void StudySetupPanel::setParallel(int runs) { m_parallel->setValue(runs); }

void StudySetupPanel::setFolderOverride(const QString& folder)
{
    m_folderOverride = folder.isEmpty() ? QString() : QDir::cleanPath(folder);
    m_openedFolder.clear(); // a folder chosen by hand wins over the opened study's
    updateInfo();
    emit choiceChanged();
}

void StudySetupPanel::matchQuickToStudy()
{
    m_hasQuick = true;
    try {
        m_hasQuick = m_study->currentIndex() >= 0
                     && lbd::findStudySpec(m_study->currentData().toString().toStdString()).quick.has_value();
    } catch (const std::exception&) {
        // An unreadable study.json: resolve() names the problem in the header; the box stays as it is.
    }
    const QSignalBlocker block(m_quick);
    m_quick->setChecked(m_hasQuick && m_quickWanted);
    m_quick->setEnabled(m_hasQuick && !m_running);
    const QString about = tr("Run the study's quick scale (a small preset and fewer seeds: minutes on a CPU) instead of "
                             "the paper's full scale. The two go to different folders. On by default on a machine "
                             "without a GPU.");
    m_quick->setToolTip(m_hasQuick ? about : about + tr("\n\nThis study has no quick scale: it runs at full scale."));
}

std::optional<std::vector<int64_t>> StudySetupPanel::parseSeeds(const QString& text)
{
    std::vector<int64_t> seeds;
    if (text.trimmed().isEmpty()) {
        return seeds;
    }
    for (const QString& part : text.split(QLatin1Char(','))) {
        bool ok = false;
        const qint64 seed = part.trimmed().toLongLong(&ok);
        if (!ok || seed < 0) {
            return std::nullopt;
        }
        seeds.push_back(seed);
    }
    return seeds;
}

std::optional<lbd::ResolvedStudy> StudySetupPanel::resolve(QString* error) const
{
    if (m_study->currentIndex() < 0) {
        *error = tr("Choose a study.");
        return std::nullopt;
    }
    const auto seeds = parseSeeds(m_seeds->text());
    if (!seeds) {
        *error = tr("Seeds must be whole numbers separated by commas, e.g. 0,1,2 (\"%1\").").arg(m_seeds->text());
        return std::nullopt;
    }
    try {
        lbd::StudyOptions options;
        options.quick = m_quick->isChecked();
        options.seeds = *seeds;
        return lbd::resolveStudy(lbd::findStudySpec(m_study->currentData().toString().toStdString()), options);
    } catch (const std::exception& e) {
        *error = QString::fromUtf8(e.what());
        return std::nullopt;
    }
}

QString StudySetupPanel::folderFor(const lbd::ResolvedStudy& study) const
{
    if (!m_openedFolder.isEmpty()) {
        return m_openedFolder;
    }
    if (!m_folderOverride.isEmpty()) {
        return m_folderOverride;
    }
    return QDir::cleanPath(QString::fromStdString(lbd::defaultStudyDirectory(AppSettings::runsFolder().toStdString(), study)));
}

lbd::StudyRunnerOptions StudySetupPanel::runnerOptions() const
{
    lbd::StudyRunnerOptions options;
    options.parallel = m_parallel->value();
    options.fuse = m_fuse->value();
    options.devices = {m_device->currentData().toString().toStdString()};
    return options;
}

void StudySetupPanel::setRunState(bool running, bool stopping, bool canContinue)
{
    m_running = running;
    for (QWidget* widget : std::initializer_list<QWidget*>{m_study, m_openFile, m_openFolder, m_seeds, m_parallel,
                                                           m_fuse, m_device, m_chooseFolder}) {
        widget->setEnabled(!running);
    }
    m_quick->setEnabled(!running && m_hasQuick);
    m_start->setEnabled(!running);
    m_stop->setEnabled(running && !stopping);
    m_stop->setText(stopping ? tr("Stopping…") : tr("Stop"));
    m_continue->setEnabled(!running && canContinue);
}

void StudySetupPanel::showFolder(const QString& folder)
{
    m_folder->setText(QDir::toNativeSeparators(folder));
}

void StudySetupPanel::updateInfo()
{
    QString error;
    const std::optional<lbd::ResolvedStudy> study = resolve(&error);
    if (!study) {
        m_info->setText(error);
        updateEstimate();
        return;
    }
    const lbd::StudySpec& spec = study->spec;
    m_info->setText(tr("<b>%1</b> — %2<br>%n cell(s) x %3 seed(s) = %4 runs.", nullptr, static_cast<int>(study->cells.size()))
                        .arg(QString::fromStdString(spec.paperTable).toHtmlEscaped(),
                             QString::fromStdString(spec.claim).toHtmlEscaped())
                        .arg(study->seeds.size())
                        .arg(study->runs.size()));
    m_seeds->setPlaceholderText(seedsText(study->seeds));
    showFolder(folderFor(*study));
    updateEstimate();
}

void StudySetupPanel::updateEstimate()
{
    const QString text = estimateText();
    m_estimate->setText(text);
    m_estimate->setVisible(!text.isEmpty());
}

QString StudySetupPanel::estimateText() const
{
    QString error;
    const std::optional<lbd::ResolvedStudy> study = resolve(&error);
    if (!study || study->runs.empty()) {
        return {};
    }
    const std::string device = m_device->currentData().toString().toStdString();
    std::vector<int> runsOfCell(study->cells.size(), 0);
    for (const lbd::StudyRunRef& run : study->runs) {
        ++runsOfCell[size_t(run.cell)];
    }
    double seconds = 0;
    int known = 0;
    int unknown = 0;
    bool recorded = false;
    bool reference = false;
    for (size_t cell = 0; cell < study->cells.size(); ++cell) {
        if (runsOfCell[cell] == 0 || study->cells[cell].decisionOnly()) {
            continue; // a decision-only cell re-decides another cell's runs: seconds, no training
        }
        try {
            // Every seed of a cell trains the same config: one estimate per cell.
            lbd::TrainConfig config = lbd::trainConfigFromJson(study->cells[cell].config, study->cells[cell].id);
            config.train.device = device; // where the page will train it, not the preset's device
            const std::vector<int64_t> counts = datasetPreview(config.data).trainCounts;
            const DurationEstimate estimate =
                DurationEstimator::estimate(config, std::accumulate(counts.begin(), counts.end(), int64_t(0)));
            if (estimate.seconds < 0) {
                unknown += runsOfCell[cell];
                continue;
            }
            seconds += estimate.seconds * runsOfCell[cell];
            known += runsOfCell[cell];
            (estimate.recorded ? recorded : reference) = true;
        } catch (const std::exception&) {
            unknown += runsOfCell[cell]; // resolve() checked the config; a preview that fails has no count
        }
    }
    const QString where = QString::fromStdString(device);
    if (known == 0) {
        return tr("Estimated duration: unknown (no training speed recorded on %1 yet, or a data set that must be "
                  "read first); the grid's ETA column shows it once the runs train.")
            .arg(where);
    }
    const QString basis = recorded && reference ? tr("speeds recorded here and a reference speed of a 2-core CPU")
                          : recorded             ? tr("the speed recorded by the last such run on %1").arg(where)
                                                 : tr("a reference speed of a 2-core CPU; yours may differ");
    const QString details = tr("%1; evaluations add to it, and runs already finished in the folder are skipped").arg(basis);
    const QString oneAtATime = DurationEstimator::formatDuration(seconds);
    const int parallel = std::min(m_parallel->value(), known);
    // --fuse auto is 1 on the CPU (fusedgroups.h: the cores, not kernel launches, bound a step).
    const int fuse = m_fuse->value() == 0 && device == "cpu" ? 1 : m_fuse->value();
    QString text;
    if (fuse != 1 && device != "cpu") {
        // Fused steps run without a CUDA graph. Measured once (2 x H200, 2026-11-28,
        // docs/results/gpu-2026-11-28b): 3 fused Fashion-MNIST-LT recipe runs trained 0.78x the
        // images/s of one run alone with its graph. That one figure is what the estimate uses.
        constexpr double kFusedSpeedOfOneAlone = 0.78;
        text = tr("Estimated duration: about %1 of training for %2 fused runs (%3). Fused runs train without a CUDA "
                  "graph: on an H200, 3 fused recipe runs trained 0.78x the images per second of one run alone, so "
                  "fusing is slower there than one at a time (about %4).")
                   .arg(DurationEstimator::formatDuration(seconds / kFusedSpeedOfOneAlone))
                   .arg(known)
                   .arg(details, oneAtATime);
    } else if (parallel > 1 || fuse > 1) {
        text = device == "cpu"
                   ? tr("Estimated duration: about %1 of training for %2 runs (%3). Runs trained at once or fused share "
                        "the CPU's cores: about as long as one at a time.")
                         .arg(oneAtATime)
                         .arg(known)
                         .arg(details)
                   : tr("Estimated duration: about %1 of training for %2 runs one at a time (%3); %4 at once on one GPU "
                        "take between that and %5, as far as the GPU has room to spare.")
                         .arg(oneAtATime)
                         .arg(known)
                         .arg(details)
                         .arg(parallel)
                         .arg(DurationEstimator::formatDuration(seconds / parallel));
    } else {
        text = tr("Estimated duration: about %1 of training for %2 runs, one at a time (%3).")
                   .arg(oneAtATime)
                   .arg(known)
                   .arg(details);
    }
    if (unknown > 0) {
        text += tr(" %1 more runs: unknown (no speed recorded on %2 yet).").arg(unknown).arg(where);
    }
    return text;
}

void StudySetupPanel::chooseStudyFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a study"), AppSettings::runsFolder(),
                                                      tr("Study (*.json)"));
    QString error;
    if (!path.isEmpty() && !addStudyFile(path, &error)) {
        emit message(error, true);
    }
}

void StudySetupPanel::chooseStudyFolder()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Open a study folder"),
                                                             QDir(AppSettings::runsFolder()).filePath(QStringLiteral("studies")));
    if (!folder.isEmpty()) {
        emit openFolderRequested(folder);
    }
}

void StudySetupPanel::chooseTargetFolder()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Folder for the study"), AppSettings::runsFolder());
    if (!folder.isEmpty()) {
        setFolderOverride(folder);
    }
}

} // namespace lbd::ui
