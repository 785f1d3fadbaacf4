#include "ui/panels/experimentpanel.h"

#include "core/lbd/utilitymatrix.h"
#include "core/train/schedulefit.h"
#include "core/util/error.h"
#include "datasets/catalogue.h"
#include "ui/panels/datasetcatalog.h"
#include "ui/panels/datasetsection.h"
#include "ui/panels/durationestimate.h"
#include "ui/panels/objectivesection.h"
#include "ui/panels/runsection.h"
#include "ui/panels/presetlibrary.h"
#include "ui/style/configerrortext.h"
#include "ui/style/decisionruletext.h"
#include "ui/utility/utilitydocument.h"
#include "ui/widgets/decisioncontrols.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScreen>
#include <QScrollBar>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

namespace lbd::ui {
namespace {

QGroupBox* group(const QString& title, QWidget* content, QWidget* parent)
{
    auto* box = new QGroupBox(title, parent);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(content);
    return box;
}

// Side of the images the model receives: smaller images are centred and zero-padded to the
// batcher's output size.
int64_t modelInputSide(const lbd::TrainConfig& config)
{
    const lbd::DatasetEntry* entry = lbd::findDataset(config.data.dataset);
    const int64_t native = entry ? entry->formatFor(config.data).height : config.data.imageSize;
    return std::max(native, config.augment.outputSize);
}

// Whether a spec ("onehot", "tail:2") names exactly this matrix for these classes.
bool resolvesTo(const lbd::UtilitySetting& setting, const lbd::UtilityMatrix& matrix, const QStringList& classNames)
{
    std::vector<std::string> names;
    for (const QString& name : classNames) {
        names.push_back(name.toStdString());
    }
    try {
        return lbd::resolveUtility(setting, names, "decision.utility") == matrix;
    } catch (const std::exception&) {
        return false;
    }
}

} // namespace

ExperimentPanel::ExperimentPanel(UtilityDocument* decisions, QWidget* parent) : QWidget(parent), m_decisions(decisions)
{
    m_presets = new QComboBox(this);
    m_presets->setObjectName(QStringLiteral("presets"));
    m_presets->setToolTip(tr("Recipes: the paper's settings per benchmark and quick CPU runs (resources/presets/*.json)."));
    for (const Preset& preset : PresetLibrary::presets()) {
        m_presets->addItem(preset.id, preset.id);
        m_presets->setItemData(m_presets->count() - 1,
                               QStringLiteral("<p>%1</p><p><i>%2</i></p>").arg(preset.description.toHtmlEscaped(), preset.path),
                               Qt::ToolTipRole);
    }
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("runName"));
    m_name->setToolTip(tr("Name of the run; the run folder is <runs folder>/<name>-<date-time>."));

    m_dataset = new DatasetSection(this);
    m_objective = new ObjectiveSection(this);
    m_run = new RunSection(this);
    // The decision settings are the shared document's (Utility page, Decision lab, Classify): the
    // panel shows them and records them by value in the run, it keeps no copy of its own.
    auto* decisionBox = new QWidget(this);
    m_decisionMatrix = new QLabel(decisionBox);
    m_decisionMatrix->setObjectName(QStringLiteral("decisionMatrix"));
    m_decisionMatrix->setWordWrap(true);
    m_decisionMatrix->setToolTip(tr("How the run's evaluations decide: the Utility page's matrix (stored by value in the "
                                    "run), the rule and the defer option. Re-deciding later needs no retraining (Decision lab)."));
    m_protocol = new QLabel(decisionBox);
    m_protocol->setObjectName(QStringLiteral("protocolLine"));
    m_protocol->setWordWrap(true);
    m_protocol->setToolTip(tr("The protocol the run's numbers follow (lbd-math.md section 8), as the status bar names it."));
    m_decisionControls = new DecisionControls(m_decisions, DecisionControls::Layout::Stacked, decisionBox);
    auto* decisionLayout = new QVBoxLayout(decisionBox);
    decisionLayout->setContentsMargins(0, 0, 0, 0);
    decisionLayout->addWidget(m_decisionMatrix);
    decisionLayout->addWidget(m_protocol);
    decisionLayout->addWidget(m_decisionControls);

    auto* content = new QWidget;
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->addWidget(group(tr("Data"), m_dataset, content));
    contentLayout->addWidget(group(tr("Model and objective"), m_objective, content));
    // A short title: a group box is at least as wide as its title.
    QGroupBox* decisionGroup = group(tr("Decisions (shared)"), decisionBox, content);
    decisionGroup->setToolTip(tr("Shared with the Utility page, the Decision lab and Classify."));
    contentLayout->addWidget(decisionGroup);
    contentLayout->addWidget(group(tr("Optimisation and run"), m_run, content));
    contentLayout->addStretch();
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("validationMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_estimate = new QLabel(this);
    m_estimate->setObjectName(QStringLiteral("durationEstimate"));
    m_estimate->setWordWrap(true);
    m_estimate->setToolTip(tr("Epochs x training images / a training speed for this device and model: the one the last "
                              "such run here recorded, else a reference figure. The progress bar shows the measured ETA "
                              "once the run trains."));

    auto* head = new QFormLayout;
    head->addRow(tr("Preset"), m_presets);
    head->addRow(tr("Run name"), m_name);
    head->addRow(m_estimate);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(head);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_message);
    // The panel shares a small screen (1024 px) with the pages: it asks for no more width than its
    // narrowest useful form. A row whose field does not fit beside its label goes under it, and a
    // list shows what the width allows of its current item (its pop-up shows every item whole).
    // Without this the lists' longest items made the panel 489 px wide at the least, and with the
    // widest page the window 1478 px (issue 26).
    for (QFormLayout* form : findChildren<QFormLayout*>()) {
        form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    }
    for (QComboBox* box : findChildren<QComboBox*>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(12);
        box->setMinimumWidth(box->sizeHint().width()); // QComboBox keeps its minimum hint of before the policy
    }
    // Should a row grow wider than the panel later (a longer text), the panel scrolls sideways
    // rather than cutting it off or widening the window (minimumSizeHint).
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_content = content;
    m_scroll = scroll;

    const auto edited = [this] {
        if (m_loading) {
            return;
        }
        if (m_presets->currentIndex() >= 0) {
            showPresetAs(tr("%1 (edited)").arg(m_presets->currentText()));
        }
        validate();
        emit configChanged();
    };
    connect(m_dataset, &DatasetSection::changed, this, edited);
    connect(m_objective, &ObjectiveSection::changed, this, edited);
    connect(m_run, &RunSection::changed, this, edited);
    connect(m_name, &QLineEdit::textEdited, this, edited);
    connect(m_dataset, &DatasetSection::dataErrorChanged, this, [this] {
        validate(); // Start is refused, and disabled, while the data set cannot be read
        emit configChanged();
    });
    connect(m_dataset, &DatasetSection::countsChanged, this, [this] {
        m_objective->setClassCounts(m_dataset->trainCounts());
        fitEpochsToData();
        updateEstimate();
        if (!m_loading) {
            // A folder read in the background names its classes only now: the shared matrix and
            // the checks against the classes follow them.
            validate();
            emit configChanged();
        }
    });
    connect(m_run, &RunSection::epochsChanged, this, [this](int epochs) {
        if (m_run->scalesSchedule()) {
            m_objective->scaleToEpochs(epochs);
        }
    });
    connect(m_presets, &QComboBox::activated, this, &ExperimentPanel::loadPreset);
    connect(m_objective, &ObjectiveSection::matrixCopyRequested, this, &ExperimentPanel::copyTrainingMatrix);
    for (auto signal : {&UtilityDocument::matrixChanged, &UtilityDocument::ruleChanged, &UtilityDocument::deferUtilityChanged,
                        &UtilityDocument::sourceChanged, &UtilityDocument::classNamesChanged}) {
        // Revalidate and relabel only: configChanged would make the main window reset the
        // document's classes to the panel's while the lab adopts a run of another data set.
        connect(m_decisions, signal, this, [this] {
            updateDecisionLabel();
            if (!m_loading) {
                validate();
            }
        });
    }
    updateDecisionLabel();
    // The first launch fits the machine: quick-cpu without a CUDA device (presetlibrary.h).
    applyConfig(PresetLibrary::defaultConfig());
    m_chosenPreset = PresetLibrary::defaultPresetId();
    const int index = m_presets->findData(m_chosenPreset);
    if (index >= 0) {
        m_presets->setCurrentIndex(index);
    } else {
        showPresetAs(tr("built-in defaults"));
    }
}

void ExperimentPanel::loadPreset(int index)
{
    const QString id = m_presets->itemData(index).toString();
    if (!selectPreset(id)) {
        showPresetAs(tr("%1 (could not be loaded)").arg(id));
        showMessage(tr("Preset '%1' could not be loaded.").arg(id), true);
    }
}

bool ExperimentPanel::selectPreset(const QString& nameOrPath)
{
    try {
        const lbd::TrainConfig preset = PresetLibrary::load(nameOrPath);
        // A preset decides by its own rule (the paper's presets: mean-logit, their protocol's);
        // opening a run leaves the shared rule alone (the Decision lab offers the run's settings).
        m_decisions->setRule(preset.decision.rule);
        applyConfig(preset);
    } catch (const std::exception&) {
        return false;
    }
    const int index = m_presets->findData(nameOrPath);
    if (index >= 0) {
        m_presets->setCurrentIndex(index);
        m_chosenPreset = nameOrPath;
        emit presetChosen(nameOrPath);
    } else {
        showPresetAs(QFileInfo(nameOrPath).fileName());
    }
    return true;
}

QString ExperimentPanel::currentPreset() const
{
    return m_presets->currentIndex() >= 0 ? m_presets->currentData().toString() : QString();
}

void ExperimentPanel::showPresetAs(const QString& text)
{
    m_presets->setPlaceholderText(text);
    m_presets->setCurrentIndex(-1);
}

QString ExperimentPanel::durationText() const { return m_estimate->text(); }

void ExperimentPanel::fitEpochsToData()
{
    // On a user's small folder the preset's epochs are too few steps to learn (schedulefit.h):
    // stretch them, with the schedule, unless the user chose the epochs; crossFieldWarning says so.
    m_stretchedFrom = 0;
    const lbd::TrainConfig current = config();
    if (!current.data.isUsersOwnImages() || m_run->epochs() != m_run->loadedEpochs()) {
        return;
    }
    const std::vector<int64_t>& counts = m_dataset->trainCounts();
    const int64_t images = std::accumulate(counts.begin(), counts.end(), int64_t(0));
    const int epochs = lbd::epochsForSmallData(current.train.epochs, images, current.train.batchSize);
    if (epochs != current.train.epochs) {
        m_run->setEpochs(epochs); // scales the DRW epoch and the decays along (the section's "scale" box)
        m_stretchedFrom = current.train.epochs;
    }
}

QSize ExperimentPanel::sizeHint() const
{
    // Opened on a small screen (1024 px), the panel takes its narrowest width: the pages beside it
    // keep room for the Training page without scrolling sideways.
    QSize hint = QWidget::sizeHint();
    if (const QScreen* shown = screen(); shown && shown->availableGeometry().width() < 1280) {
        hint.setWidth(minimumSizeHint().width());
    }
    return hint;
}

QSize ExperimentPanel::minimumSizeHint() const
{
    // As wide as the settings' narrowest form, computed when asked: the lists and rows that shrink
    // (see the constructor) report their final minimum only once laid out.
    const QMargins margins = layout()->contentsMargins();
    return {m_content->minimumSizeHint().width() + m_scroll->verticalScrollBar()->sizeHint().width() + margins.left()
                + margins.right(),
            QWidget::minimumSizeHint().height()};
}

QString ExperimentPanel::summaryLine() const
{
    const lbd::TrainConfig current = config();
    const std::vector<int64_t>& counts = m_dataset->trainCounts();
    const int64_t images = std::accumulate(counts.begin(), counts.end(), int64_t(0));
    QString data = QString::fromStdString(current.data.dataset);
    if (const lbd::DatasetEntry* entry = lbd::findDataset(current.data.dataset)) {
        // A folder or list of the user's: its own name says more than "Image folder".
        data = entry->requiresDirectory() && !current.data.directory.empty()
                   ? QFileInfo(QString::fromStdString(current.data.directory)).fileName()
                   : datasetTitle(*entry);
    }
    // A user's folder is named as given ("icons", however uneven its classes): "-LT" says that a
    // long tail is imposed, which only the panel's long-tail profile does to the user's images.
    const bool imposed = current.data.longTail.profile != lbd::LongTailProfile::None;
    if (!counts.empty() && (imposed || !current.data.isUsersOwnImages())) {
        const auto [fewest, most] = std::minmax_element(counts.begin(), counts.end());
        if (*fewest > 0 && *most >= 2 * *fewest) {
            data += QStringLiteral("-LT");
        }
    }
    return QStringLiteral("%1 \u00b7 %2 \u00b7 %3").arg(m_name->text().trimmed(), data, DurationEstimator::shortText(current, images));
}

QLabel* ExperimentPanel::createSummaryLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setObjectName(QStringLiteral("startSummary"));
    label->setContentsMargins(4, 0, 8, 0);
    // A long run or folder name must not push the tool bar's buttons into its overflow menu: the
    // label keeps to about 40 characters (clipping the rest) and its tooltip says it whole.
    label->setMaximumWidth(label->fontMetrics().averageCharWidth() * 40);
    const auto show = [label](const QString& summary) {
        label->setText(summary);
        label->setToolTip(tr("%1<br>What Start trains: run name, data set (-LT: its training classes are long-tailed; your own "
                             "images only when the long-tail profile resamples them) "
                             "and the estimated duration (the experiment panel says how it is estimated).")
                              .arg(summary.toHtmlEscaped()));
    };
    show(summaryLine());
    connect(this, &ExperimentPanel::summaryChanged, label, show);
    return label;
}

void ExperimentPanel::updateEstimate()
{
    const std::vector<int64_t>& counts = m_dataset->trainCounts();
    const int64_t images = std::accumulate(counts.begin(), counts.end(), int64_t(0));
    const QString text = DurationEstimator::text(config(), images);
    m_estimate->setText(text);
    m_estimate->setVisible(!text.isEmpty());
    emit summaryChanged(summaryLine());
}

int ExperimentPanel::dataParallelRanks() const { return m_run->dataParallelRanks(); }

lbd::TrainConfig ExperimentPanel::config() const
{
    lbd::TrainConfig config = m_base;
    config.name = m_name->text().trimmed().toStdString();
    m_dataset->apply(config.data);
    // A preset's name on a user's own images would name every run "quick-cpu": such a run is
    // named after its data ("digits-folder") unless the name was typed.
    if (config.name == m_base.name && config.data.isUsersOwnImages()
        && (config.data.dataset != m_base.data.dataset || config.data.directory != m_base.data.directory
            || config.data.trainList != m_base.data.trainList)) {
        config.name = config.data.runName();
    }
    m_run->apply(config);
    m_objective->apply(config);
    // The shared decision settings, the matrix by value (a run never depends on a user's file).
    if (m_decisions->classNames() == m_dataset->classNames() && m_decisions->classCount() > 0) {
        config.decision.utility = m_decisions->setting();
        if (!m_base.decision.utility.byValue() && !lbd::isUtilityFileSpec(m_base.decision.utility.spec)
            && resolvesTo(m_base.decision.utility, m_decisions->matrix(), m_dataset->classNames())) {
            config.decision.utility = m_base.decision.utility; // "onehot" as loaded: what `lbd train` records too
        }
    } else {
        config.decision.utility = lbd::utilityFromSpec("onehot"); // not for these classes: see the warning
    }
    config.decision.rule = m_decisions->rule();
    config.decision.deferUtility = m_decisions->effectiveDeferUtility();
    // Settings changed away from a paper protocol make the run the app's own (crossFieldWarning
    // says why), so that its numbers are never labelled with a protocol they do not follow.
    if (lbd::protocolContradiction(config)) {
        config.protocol = lbd::Protocol::App;
    }
    return config;
}

void ExperimentPanel::setConfig(const lbd::TrainConfig& config, const QString& origin)
{
    applyConfig(config);
    showPresetAs(origin.isEmpty() ? tr("custom settings") : origin);
}

void ExperimentPanel::applyConfig(const lbd::TrainConfig& config)
{
    m_loading = true;
    m_base = config;
    m_name->setText(QString::fromStdString(config.name));
    m_dataset->load(config.data);
    m_run->load(config);
    m_objective->load(config);
    m_objective->setClassCounts(m_dataset->trainCounts());
    m_loading = false;
    validate();
    emit configChanged();
}

const std::vector<int64_t>& ExperimentPanel::trainCounts() const { return m_dataset->trainCounts(); }
QStringList ExperimentPanel::classNames() const { return m_dataset->classNames(); }
bool ExperimentPanel::dataReadable() const { return m_dataset->dataError().isEmpty(); }
void ExperimentPanel::copyTrainingMatrix()
{
    if (m_decisions->classCount() == 0) {
        return;
    }
    m_objective->setTrainingMatrix(m_decisions->setting());
}

void ExperimentPanel::updateDecisionLabel()
{
    m_decisionMatrix->setText(tr("Decision matrix: %1 (%2 x %2), %3.")
                                  .arg(m_decisions->description())
                                  .arg(m_decisions->classCount())
                                  .arg(m_decisions->sourceText().toLower()));
}
QString ExperimentPanel::validationMessage() const { return m_valid ? QString() : m_message->text(); }
QString ExperimentPanel::protocolText() const { return runDecisionText(config(), m_base.protocol); }

QString ExperimentPanel::crossFieldError(const lbd::TrainConfig& config) const
{
    if (config.name.empty()) {
        return tr("Give the run a name.");
    }
    if (!m_dataset->dataError().isEmpty()) {
        return tr("Could not read the data set: %1").arg(m_dataset->dataError());
    }
    // The training matrix; the decision matrix is the shared document's, checked as it is edited.
    const lbd::UtilitySetting& utility = config.objective.utility;
    if (const auto penalty = lbd::tailPenaltyOf(utility.spec); penalty && !(*penalty > 0)) {
        return tr("The tail-sensitive utility needs a penalty c > 0 (c = 0 is the one-hot matrix: choose One-hot).");
    }
    if (utility.spec.empty() && !utility.byValue()) {
        return tr("Training utility: no matrix copied yet. Press Copy again (it copies the Utility page's matrix), or "
                  "choose One-hot or Tail-sensitive.");
    }
    if (utility.byValue() || lbd::isUtilityFileSpec(utility.spec)) {
        // A copied matrix or a file a config names: check it against these classes now (size,
        // names, finite values) rather than when training starts.
        std::vector<std::string> names;
        for (const QString& name : m_dataset->classNames()) {
            names.push_back(name.toStdString());
        }
        try {
            lbd::resolveUtility(utility, names, "training utility");
        } catch (const std::exception& error) {
            return tr("%1 (copy the Utility page's matrix again for this data set)").arg(QString::fromUtf8(error.what()));
        }
    }
    const int64_t side = modelInputSide(config);
    const int64_t minimum = lbd::ModelSpec::minimumInputSize(config.model.arch);
    if (side < minimum) {
        return tr("%1 needs images of at least %2x%2 pixels; this data set gives %3x%3.")
            .arg(QString::fromStdString(config.model.arch))
            .arg(minimum)
            .arg(side);
    }
    if (!m_dataset->trainCounts().empty()) {
        const auto smallest = *std::min_element(m_dataset->trainCounts().begin(), m_dataset->trainCounts().end());
        if (smallest < 1) {
            return tr("Every class needs at least one training image; lower the imbalance ratio.");
        }
    }
    return {};
}

QString ExperimentPanel::crossFieldWarning(const lbd::TrainConfig& config) const
{
    QStringList notes;
    if (m_stretchedFrom > 0 && config.train.epochs != m_stretchedFrom) {
        notes << tr("%1 epochs (not the preset's %2): on %3 training images %2 epochs would be too few steps to learn.")
                     .arg(config.train.epochs)
                     .arg(m_stretchedFrom)
                     .arg(std::accumulate(m_dataset->trainCounts().begin(), m_dataset->trainCounts().end(), int64_t(0)));
    }
    if (config.protocol != m_base.protocol) { // changed away from the loaded protocol: say so in the one text
        notes << tr("Settings changed: %1.").arg(runDecisionText(config, m_base.protocol));
    }
    const bool oneHot = config.objective.utility.byValue() ? config.objective.utility.matrix.isOneHot()
                                                           : config.objective.utility.spec == "onehot";
    if (config.objective.utilityTerm && oneHot) {
        notes << tr("The utility term has no effect with the one-hot utility.");
    }
    if (config.objective.drwEpoch >= config.train.epochs
        && config.objective.discrepancy.kind != lbd::DiscrepancyKind::Constant) {
        notes << tr("The DRW epoch is not before the last epoch: re-weighting (and the utility term) never starts.");
    }
    if (config.model.particles == 1 && config.objective.repulsive) {
        notes << tr("One particle: no repulsive force and no epistemic uncertainty.");
    }
    if (m_decisions->classNames() != m_dataset->classNames()) {
        notes << tr("The Utility page's matrix is for other classes: this run decides with one-hot.");
    }
    return notes.join(QLatin1Char(' '));
}

QString ExperimentPanel::validate()
{
    const lbd::TrainConfig current = config();
    QString error;
    try {
        current.validate();
        error = crossFieldError(current);
    } catch (const lbd::InputError& e) {
        error = configErrorInPanelWords(QString::fromUtf8(e.what())); // the panel's words, not the config key
    } catch (const std::exception& e) {
        error = QString::fromUtf8(e.what());
    }
    m_protocol->setText(tr("Protocol: %1.").arg(runDecisionText(current, m_base.protocol)));
    if (error.isEmpty()) {
        showMessage(crossFieldWarning(current), false);
    } else {
        showMessage(error, true);
    }
    const bool valid = error.isEmpty();
    if (valid != m_valid) {
        m_valid = valid;
        emit validityChanged(valid);
    }
    m_valid = valid;
    updateEstimate();
    return error;
}

void ExperimentPanel::showMessage(const QString& text, bool error)
{
    m_message->setVisible(!text.isEmpty());
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #b00020; font-weight: bold; padding: 4px; "
                                                    "border: 1px solid #b00020; border-radius: 3px;")
                                   : QStringLiteral("color: #8a5a00; padding: 4px;"));
}

} // namespace lbd::ui
