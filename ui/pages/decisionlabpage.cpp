#include "ui/pages/decisionlabpage.h"

#include "core/eval/temperature.h"
#include "core/infer/runresults.h"
#include "core/infer/runtuning.h"
#include "ui/decisionlab/labplots.h"
#include "ui/decisionlab/labtable.h"
#include "ui/decisionlab/labtext.h"
#include "ui/decisionlab/tuningpanel.h"
#include "ui/utility/utilitydocument.h"
#include "ui/widgets/decisioncontrols.h"
#include "ui/widgets/emptystate.h"
#include "ui/widgets/fittedscrollarea.h"
#include "ui/widgets/fhraxes.h"
#include "ui/widgets/plottitle.h"
#include "ui/widgets/throttledplot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include <exception>

namespace lbd::ui {

struct DecisionLabPage::Evaluated {
    lbd::UtilityMatrix matrix;
    std::optional<double> defer;
    QString description;
    lbd::EvaluationReport lab;
    lbd::EvaluationReport baseline;
};

namespace {

QLabel* boxedLabel(const QString& name, const QString& style, QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setStyleSheet(style);
    label->setVisible(false);
    return label;
}

const QString kWarningStyle = QStringLiteral("color: #8a1c00; background: #fff0e6; padding: 3px; border: 2px solid #d9822b; "
                                             "border-radius: 3px; font-weight: bold;");
const QString kNoteStyle = QStringLiteral("color: #5a4500; background: #fff8dc; padding: 4px; border: 1px solid #e0c060; "
                                          "border-radius: 3px;");

} // namespace

DecisionLabPage::DecisionLabPage(UtilityDocument* document, QWidget* parent) : QWidget(parent), m_document(document)
{
    setObjectName(QStringLiteral("decisionLabPage"));

    // ---- Controls: the shared rule and defer, quick presets of the shared matrix ---------------
    m_controls = new DecisionControls(m_document, DecisionControls::Layout::Row, this);
    m_oneHotButton = new QPushButton(tr("One-hot"), this);
    m_oneHotButton->setObjectName(QStringLiteral("oneHotPreset"));
    m_oneHotButton->setToolTip(tr("Set the shared decision matrix to U = I (1 for a correct decision, 0 otherwise). It is "
                                  "the Utility page's matrix too: the change is one undo step, and the page says it no "
                                  "longer matches a file it was saved to."));
    m_tailPenalty = new QDoubleSpinBox(this);
    m_tailPenalty->setObjectName(QStringLiteral("tailPenalty"));
    m_tailPenalty->setRange(0.01, 100.0);
    m_tailPenalty->setDecimals(2);
    m_tailPenalty->setSingleStep(0.25);
    m_tailPenalty->setValue(1.0);
    m_tailPenalty->setPrefix(tr("c = "));
    m_tailPenalty->setToolTip(tr("The penalty c of the tail-sensitive matrix (paper Fig. 1b): U = I with -c wherever the "
                                 "decision is more head-ward than the truth (a false head). Shows the shared matrix's c "
                                 "when it is tail-sensitive; Tail-sensitive applies the value here."));
    m_tailButton = new QPushButton(tr("Tail-sensitive"), this);
    m_tailButton->setObjectName(QStringLiteral("tailPreset"));
    m_tailButton->setToolTip(tr("Set the shared decision matrix to tail-sensitive(c): I minus c below the diagonal (true "
                                "class t, decision d < t). One undo step; the Utility page shows the same matrix."));
    connect(m_oneHotButton, &QPushButton::clicked, this, [this] {
        applyPreset(lbd::UtilityMatrix::oneHot(m_results ? m_results->classes : m_document->classCount()), tr("one-hot"));
    });
    connect(m_tailButton, &QPushButton::clicked, this, [this] {
        const double c = m_tailPenalty->value();
        applyPreset(lbd::UtilityMatrix::tailSensitive(m_results ? m_results->classes : m_document->classCount(), c),
                    tr("tail-sensitive (c = %1)").arg(c));
    });
    m_calibrated = new QCheckBox(tr("Calibrated"), this);
    m_calibrated->setObjectName(QStringLiteral("calibratedProbabilities"));
    m_calibrated->setToolTip(tr("Decide with temperature-scaled probabilities: calibrated pbar = softmax(log pbar / T), "
                                "one T fitted by NLL on the run's validation split (never on the test set) and kept in "
                                "the run folder (temperature.json). Argmax decisions stay the same; expected-utility "
                                "decisions, confidences, defer and calibration change. Expected and argmax rules only."));
    m_calibrated->setEnabled(false);
    connect(m_calibrated, &QCheckBox::toggled, this, [this] { requestEvaluation(); });
    m_calibrationNote = new QLabel(this);
    m_calibrationNote->setObjectName(QStringLiteral("calibrationNote"));
    m_calibrationNote->setWordWrap(true);
    m_calibrationNote->setVisible(false);
    m_matrixLabel = new QLabel(this);
    m_matrixLabel->setObjectName(QStringLiteral("matrixDescription"));
    m_matrixLabel->setToolTip(tr("The shared decision matrix U[true, decision] (edited on the Utility page) and where it "
                                 "was saved to or read from; the lab re-decides whenever it, the rule or r changes."));

    m_notice = new QLabel(this);
    m_notice->setObjectName(QStringLiteral("presetNotice"));
    m_notice->setWordWrap(true);
    m_notice->setToolTip(tr("What the last quick preset replaced: the matrix is shared with the Utility page, Classify "
                            "and the next run, so the lab says so instead of replacing it silently."));
    m_undoPreset = new QPushButton(tr("Undo"), this);
    m_undoPreset->setObjectName(QStringLiteral("undoPreset"));
    m_undoPreset->setToolTip(tr("Restore the matrix the preset replaced (the same undo step as Ctrl+Z on the Utility page)."));
    connect(m_undoPreset, &QPushButton::clicked, this, [this] {
        m_document->undoStack()->undo();
        m_noticeBar->hide();
    });
    m_noticeBar = new QWidget(this);
    m_noticeBar->setStyleSheet(kNoteStyle);
    auto* noticeLayout = new QHBoxLayout(m_noticeBar);
    noticeLayout->setContentsMargins(4, 2, 4, 2);
    noticeLayout->addWidget(m_notice, 1);
    noticeLayout->addWidget(m_undoPreset);
    m_noticeBar->setVisible(false);

    m_setAside = boxedLabel(QStringLiteral("labSetAside"), kNoteStyle, this);
    m_setAside->setToolTip(tr("The shared matrix follows the classes of the run shown here; a matrix you had made for "
                              "other classes is kept, not lost."));

    m_runLabel = new QLabel(this);
    m_runLabel->setObjectName(QStringLiteral("labRun"));
    m_runLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runLabel->setWordWrap(true); // beside the Calibrated box: a long run path wraps instead of widening the page
    m_runLabel->setToolTip(tr("The run whose cached test probabilities (test_probabilities.pt) are re-decided."));
    m_recorded = new QLabel(this);
    m_recorded->setObjectName(QStringLiteral("labRecorded"));
    m_recorded->setWordWrap(true);
    m_recorded->setToolTip(tr("What the run folder recorded (by value): the matrix it trained with and how it decided. "
                              "The lab decides with the shared settings; Use the run's settings makes the run's the shared ones."));
    m_adopt = new QPushButton(tr("Use the run's decision settings"), this);
    m_adopt->setObjectName(QStringLiteral("adoptRunDecisions"));
    m_adopt->setToolTip(tr("Make the run's recorded decision matrix, rule and defer utility the shared settings (every "
                           "page). The matrix change is one undo step."));
    connect(m_adopt, &QPushButton::clicked, this, &DecisionLabPage::adoptRunDecisions);
    m_notes = boxedLabel(QStringLiteral("labNotes"), kNoteStyle, this);
    m_notes->setToolTip(tr("Notes about this run folder (a matrix file that could not be read, and what stands in for it)."));
    m_message = boxedLabel(QStringLiteral("labMessage"), QString(), this);
    m_warnings = boxedLabel(QStringLiteral("labWarnings"), kWarningStyle, this);
    m_warnings->setToolTip(tr("The evaluation's warnings: the numbers of this rule and matrix would mislead without them "
                              "(a region at 0 %, accuracy near chance, decisions piled into a few classes, eq7 with "
                              "negative utilities)."));
    m_headline = new QLabel(this);
    m_headline->setObjectName(QStringLiteral("labHeadline"));
    m_headline->setWordWrap(true);
    m_headline->setTextFormat(Qt::RichText);
    m_headline->setToolTip(tr("The chosen rule under the shared matrix compared with plain argmax under one-hot, on the "
                              "same test images. FHR curve mean: mean of FHR(k) over every split k = 1..C-1. FHR 3-point "
                              "mean: mean of the paper's three points, the head being the first int(C r + 0.5) classes for "
                              "r = 0.25, 0.5, 0.75 (the published code's convention)."));
    m_defer = new QLabel(this);
    m_defer->setObjectName(QStringLiteral("labDefer"));
    m_defer->setWordWrap(true);
    m_defer->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_defer->setToolTip(tr("The defer option on the test split: images whose best expected utility is below r are "
                           "referred to a person. Coverage = decided / all; selective accuracy = correct among the decided."));
    m_tuning = new DecisionTuningPanel(m_document, this);

    auto* controls = new QHBoxLayout;
    controls->addWidget(m_controls);
    controls->addSpacing(16);
    controls->addWidget(new QLabel(tr("Quick presets:"), this));
    controls->addWidget(m_oneHotButton);
    controls->addWidget(m_tailPenalty);
    controls->addWidget(m_tailButton);
    controls->addStretch();
    auto* recordedRow = new QHBoxLayout;
    recordedRow->addWidget(m_recorded, 1);
    recordedRow->addWidget(m_adopt);

    // ---- Results ---------------------------------------------------------------------------
    m_table = new DecisionLabTable(this);
    m_fhrPlot = new ThrottledPlot(this);
    m_fhrPlot->setObjectName(QStringLiteral("labFhrPlot"));
    addPlotTitle(m_fhrPlot, tr("False Head Rate: chosen vs one-hot argmax"));
    setUpFhrAxes(m_fhrPlot);
    m_fhrPlot->placeLegendBelow();
    m_regionPlot = new ThrottledPlot(this);
    m_regionPlot->setObjectName(QStringLiteral("labRegionPlot"));
    // The regions (and their image counts) are the tick labels: no x label, so the plot keeps
    // room for its bars and legend at 700 px high.
    addPlotTitle(m_regionPlot, tr("Accuracy by region (thirds by class index)"));
    m_regionPlot->yAxis->setLabel(tr("accuracy (%)"));
    m_regionPlot->setFixedValueRange(0, 105);
    m_regionPlot->setFixedRange(m_regionPlot->xAxis, 0.4, 4.6);
    m_regionPlot->setInteractions({});
    m_regionPlot->placeLegendBelow();
    m_riskPlot = new ThrottledPlot(this);
    m_riskPlot->setObjectName(QStringLiteral("labRiskCoveragePlot"));
    addPlotTitle(m_riskPlot, tr("Risk-coverage (defer the least confident)"));
    setUpRiskCoverageAxes(m_riskPlot);
    m_riskPlot->setToolTip(tr("Decide only the k most confident test images (by the rule's confidence: max EU for "
                              "expected, max pbar for argmax) and count the errors among them. Lower is better; AURC = "
                              "mean selective risk over k = 1..N. The marked point is the defer option at r."));
    for (ThrottledPlot* plot : {m_fhrPlot, m_regionPlot, m_riskPlot}) {
        plot->setMinimumHeight(210); // the text above scrolls first: the plots keep room at 1024 x 700
        // (legend columns: as many as the plot's width holds, placeLegendBelow)
    }

    // The text (the run, what it recorded, the headline, tuning, defer) in one column
    // that scrolls when the window is small, above the plots that take the rest of the height.
    auto* resultText = new QWidget(this);
    auto* resultTextLayout = new QVBoxLayout(resultText);
    resultTextLayout->setContentsMargins(0, 0, 0, 0);
    resultTextLayout->addWidget(m_headline);
    resultTextLayout->addWidget(m_tuning);
    resultTextLayout->addWidget(m_defer);
    resultText->setVisible(false); // until a run's results are shown
    auto* info = new QWidget(this);
    auto* infoLayout = new QVBoxLayout(info);
    infoLayout->setContentsMargins(0, 0, 0, 0);
    infoLayout->addWidget(m_matrixLabel); // its own line: the page must fit a 1600-pixel screen beside the panel
    infoLayout->addWidget(m_noticeBar);
    infoLayout->addWidget(m_setAside);
    // The Calibrated box beside the run it is about: the controls row is as wide as a 1600-pixel
    // screen beside the panel allows.
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(m_runLabel, 1);
    runRow->addWidget(m_calibrated);
    infoLayout->addLayout(runRow);
    infoLayout->addWidget(m_calibrationNote);
    infoLayout->addLayout(recordedRow);
    infoLayout->addWidget(m_notes);
    infoLayout->addWidget(m_message);
    infoLayout->addWidget(resultText);
    auto* infoArea = new FittedScrollArea(info, this);
    infoArea->setObjectName(QStringLiteral("labText"));

    auto* results = new QWidget(this);
    auto* grid = new QGridLayout(results);
    grid->setContentsMargins(0, 0, 0, 0);
    // Two columns, so each plot keeps room for its tick labels and legend beside the panel on a
    // 1600-pixel screen: FHR | risk-coverage over regions | table.
    grid->addWidget(m_fhrPlot, 0, 0);
    grid->addWidget(m_riskPlot, 0, 1);
    grid->addWidget(m_regionPlot, 1, 0);
    grid->addWidget(m_table, 1, 1);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);

    m_emptyLabel = makeEmptyStateLabel(QStringLiteral("labEmptyState"),
                                       tr("<h3>No run yet</h3><p>Train a run or open one (File &gt; Open run...). The decision "
                                          "lab re-decides its cached test probabilities with any rule, utility matrix and defer "
                                          "option, without retraining, and compares the result with one-hot argmax.</p>"),
                                       this);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_emptyLabel);
    m_stack->addWidget(results);
    connect(m_stack, &QStackedWidget::currentChanged, resultText, [this, resultText](int page) {
        resultText->setVisible(page == 1);
        m_warnings->setVisible(page == 1 && !m_warnings->text().isEmpty());
    });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_warnings); // above the text that scrolls: never scrolled out of sight at 1024 x 700
    layout->addWidget(infoArea);
    layout->addWidget(m_stack, 1);

    connect(m_document, &UtilityDocument::matrixChanged, this, [this] {
        if (!m_applyingPreset) {
            m_noticeBar->hide(); // the notice was about the matrix before this change
        }
        updateMatrixLabel();
        updateRecorded();
        requestEvaluation();
    });
    for (auto signal : {&UtilityDocument::ruleChanged, &UtilityDocument::deferUtilityChanged}) {
        connect(m_document, signal, this, [this] {
            updateRecorded();
            requestEvaluation();
        });
    }
    connect(m_document, &UtilityDocument::sourceChanged, this, &DecisionLabPage::updateMatrixLabel);
    connect(m_document, &UtilityDocument::classNamesChanged, this, &DecisionLabPage::updateMatrixLabel);
    connect(m_document, &UtilityDocument::setAsideChanged, this, &DecisionLabPage::updateMatrixLabel);
    updateMatrixLabel();
    updateRecorded();
}

DecisionLabPage::~DecisionLabPage()
{
    // The tasks own their inputs (shared pointers, values); only the watchers must stop listening.
}

void DecisionLabPage::setRule(lbd::DecisionRule rule) { m_document->setRule(rule); }

lbd::DecisionRule DecisionLabPage::rule() const { return m_document->rule(); }

QComboBox* DecisionLabPage::ruleBox() const { return m_controls->ruleBox(); }

bool DecisionLabPage::isBusy() const
{
    return m_load.isRunning() || m_evaluation.isRunning() || m_tuning->isBusy();
}

QString DecisionLabPage::message() const { return m_message->isHidden() ? QString() : m_message->text(); }
QString DecisionLabPage::headline() const { return m_headline->text(); }
QString DecisionLabPage::warningText() const { return m_warnings->isHidden() ? QString() : m_warnings->text(); }
QString DecisionLabPage::presetNotice() const { return m_noticeBar->isHidden() ? QString() : m_notice->text(); }
QString DecisionLabPage::setAsideNotice() const { return m_setAside->isHidden() ? QString() : m_setAside->text(); }
QString DecisionLabPage::runNotes() const { return m_notes->isHidden() ? QString() : m_notes->text(); }
QString DecisionLabPage::deferSummary() const { return m_defer->text(); }

void DecisionLabPage::showRun(const QString& directory)
{
    m_directory = directory;
    m_runLabel->setText(tr("Run: %1 (loading the cached test probabilities...)").arg(QDir::toNativeSeparators(directory)));
    showMessage({}, false);
    m_evaluation.cancel(); // an evaluation of the previous run is not shown
    const std::string path = directory.toStdString();
    m_load.start([path] { return std::make_shared<const lbd::RunResults>(lbd::loadRunResults(path)); },
                 [this](std::shared_ptr<const lbd::RunResults> results) { onLoaded(std::move(results)); },
                 [this](const QString& error) {
                     m_lab.reset();
                     m_baseline.reset();
                     m_results.reset();
                     m_runLabel->setText(tr("Run: %1").arg(QDir::toNativeSeparators(m_directory)));
                     m_stack->setCurrentIndex(0);
                     m_tuning->setRun({}, false, 0);
                     updateRecorded();
                     showMessage(tr("Cannot use this run in the decision lab: %1").arg(error), true);
                     emit failed(error);
                 });
}

void DecisionLabPage::onLoaded(std::shared_ptr<const lbd::RunResults> results)
{
    m_lab.reset();
    m_baseline.reset();
    m_results = std::move(results);
    m_runLabel->setText(tr("Run: %1: %2 test images, %3 classes, %4 particles%5")
                            .arg(QDir::toNativeSeparators(m_directory))
                            .arg(m_results->images)
                            .arg(m_results->classes)
                            .arg(m_results->particles)
                            .arg(m_results->hasValidation ? tr(", with a validation split") : QString()));
    const std::vector<std::string>& notes = m_results->decisions.notes;
    m_notes->setText(notes.empty() ? QString() : tr("<b>Note:</b> %1").arg(labtext::htmlLines(notes)));
    m_notes->setVisible(!notes.empty());
    m_tuning->setRun(m_directory, m_results->hasValidation, m_results->classes);
    m_temperature.reset();
    try {
        if (const auto fit = lbd::loadTemperature(m_directory.toStdString())) {
            m_temperature = fit->temperature;
        }
    } catch (const std::exception& error) {
        showMessage(tr("The run's temperature file cannot be read: %1").arg(QString::fromUtf8(error.what())), true);
    }
    updateCalibratedBox();
    // The shared matrix is about this run's classes (run.json's), whatever data set the experiment
    // panel shows: a matrix made for other classes is kept aside by the document, not lost.
    QStringList runNames;
    for (const std::string& name : m_results->classNames) {
        runNames << QString::fromStdString(name);
    }
    m_document->setClassNames(runNames);
    updateMatrixLabel();
    updateRecorded();
    requestEvaluation();
}

bool DecisionLabPage::adoptRunDecisions()
{
    if (!m_results) {
        return false;
    }
    const lbd::RunDecisions& run = m_results->decisions;
    if (m_document->classCount() != m_results->classes) {
        QStringList names;
        for (const std::string& name : m_results->classNames) {
            names << QString::fromStdString(name);
        }
        m_document->setClassNames(names);
    }
    QString error;
    if (!m_document->editMatrix(run.decisionUtility, tr("decision matrix of run %1").arg(QFileInfo(m_directory).fileName()), &error)) {
        showMessage(tr("The run's settings were not applied: %1").arg(error), true);
        return false;
    }
    m_document->setSource(UtilityDocument::Source::Run, m_directory);
    m_document->setRule(run.rule);
    m_document->setDeferUtility(run.deferUtility);
    return true;
}

void DecisionLabPage::applyPreset(const lbd::UtilityMatrix& matrix, const QString& name)
{
    if (m_results && m_document->classCount() != m_results->classes) {
        // The document is about another data set's classes: start it over for this run's classes.
        QStringList names;
        for (const std::string& n : m_results->classNames) {
            names << QString::fromStdString(n);
        }
        m_document->setClassNames(names);
    }
    const QString before = m_document->description();
    const QString source = m_document->sourceText();
    const bool hadSource = m_document->source() != UtilityDocument::Source::None;
    const bool changes = matrix != m_document->matrix();
    QString error;
    m_applyingPreset = true;
    const bool ok = m_document->editMatrix(matrix, tr("%1 preset (Decision lab)").arg(name), &error);
    m_applyingPreset = false;
    if (!ok) {
        showMessage(tr("The preset was not applied: %1").arg(error), true);
        return;
    }
    if (changes) {
        // Say what was replaced: the matrix is the Utility page's too, and may be one the user
        // edited or saved (that page's label now reads "Modified since saved to ...").
        m_notice->setText(tr("The shared decision matrix (Utility page, Classify, next run) was <b>%1</b>%2; it is now "
                             "<b>%3</b>.")
                              .arg(before.toHtmlEscaped(),
                                   hadSource ? QStringLiteral(" (%1)").arg(source.toHtmlEscaped()) : QString(),
                                   m_document->description().toHtmlEscaped()));
        m_noticeBar->show();
    }
}

void DecisionLabPage::updateMatrixLabel()
{
    // The preset's c follows the shared matrix, so the lab never shows c = 1 for a c = 2 matrix.
    if (const auto c = m_document->tailPenalty()) {
        const QSignalBlocker block(m_tailPenalty);
        m_tailPenalty->setValue(*c);
    }
    m_matrixLabel->setText(tr("Decision matrix: %1 (%2 x %2); %3")
                               .arg(m_document->description())
                               .arg(m_document->classCount())
                               .arg(m_document->sourceText().toLower()));
    m_setAside->setText(m_document->setAsideText());
    m_setAside->setVisible(!m_setAside->text().isEmpty());
}

void DecisionLabPage::updateRecorded()
{
    if (!m_results) {
        m_recorded->clear();
        m_adopt->setVisible(false);
        return;
    }
    const lbd::RunDecisions& run = m_results->decisions;
    const QString defer = run.deferUtility ? tr("defer below r = %1").arg(*run.deferUtility) : tr("no defer");
    const bool same = m_document->matrix() == run.decisionUtility && m_document->rule() == run.rule
                      && m_document->effectiveDeferUtility() == run.deferUtility;
    m_recorded->setText(tr("The run trained with %1 (%2) and decides with %3, rule %4, %5.%6")
                            .arg(QString::fromStdString(run.trainingDescription),
                                 QString::fromStdString(m_results->config.objective.utilityTerm
                                                            ? lbd::utilityFormName(m_results->config.objective.utilityForm)
                                                            : std::string("no utility term")),
                                 QString::fromStdString(run.decisionDescription),
                                 QString::fromStdString(lbd::decisionRuleName(run.rule)), defer)
                            .arg(same ? tr(" The lab uses the same settings.")
                                      : tr(" The lab uses the shared settings below, which differ.")));
    m_adopt->setVisible(true);
    m_adopt->setEnabled(!same);
}

void DecisionLabPage::requestEvaluation()
{
    if (!m_results) {
        return;
    }
    const lbd::UtilityMatrix matrix = m_document->matrix();
    if (matrix.classCount() != m_results->classes) {
        m_evaluation.cancel();
        m_lab.reset();
        m_baseline.reset();
        m_stack->setCurrentIndex(0);
        showMessage(tr("The shared decision matrix is %1 x %1 but this run has %2 classes (the experiment panel shows "
                       "another data set). Choose a quick preset above, or Use the run's decision settings.")
                        .arg(matrix.classCount())
                        .arg(m_results->classes),
                    true);
        return;
    }
    const lbd::DecisionRule chosen = rule();
    const std::optional<double> defer = m_document->effectiveDeferUtility();
    const QString description = m_document->description();
    const std::shared_ptr<const lbd::RunResults> results = m_results;
    const bool calibrated = m_calibrated->isChecked() && m_calibrated->isEnabled();
    // Settings changed while an evaluation runs (a painting stroke) start a newer one: only the
    // newest is shown.
    m_evaluation.start(
        [results, matrix, chosen, defer, description, calibrated] {
            auto out = std::make_shared<Evaluated>();
            out->matrix = matrix;
            out->defer = defer;
            out->description = description;
            // Calibrated: T from temperature.json, fitted on the validation split (and saved) the first time.
            out->lab = calibrated ? lbd::evaluateCalibrated(*results, lbd::runTemperature(results->directory).temperature,
                                                            matrix, chosen, defer)
                                  : lbd::evaluateRunResults(*results, matrix, chosen, defer);
            // Argmax ignores U when deciding; evaluating it under the same matrix gives the
            // one-hot baseline's decisions with their mean utility under the shared matrix.
            out->baseline = lbd::evaluateRunResults(*results, matrix, lbd::DecisionRule::Argmax);
            return std::shared_ptr<const Evaluated>(std::move(out));
        },
        [this](const std::shared_ptr<const Evaluated>& out) {
            m_lab = out->lab;
            m_baseline = out->baseline;
            m_evaluatedMatrix = out->matrix;
            m_evaluatedDefer = out->defer;
            m_evaluatedDescription = out->description;
            if (out->lab.temperature) {
                m_temperature = out->lab.temperature;
            }
            updateCalibratedBox();
            showMessage({}, false);
            showReports();
            emit evaluated();
        },
        [this](const QString& error) {
            m_lab.reset();
            m_baseline.reset();
            m_stack->setCurrentIndex(0);
            showMessage(tr("The evaluation failed: %1").arg(error), true);
            emit failed(error);
        });
}

void DecisionLabPage::updateCalibratedBox()
{
    const bool possible = m_results && (m_results->hasValidation || m_temperature);
    m_calibrated->setEnabled(possible);
    if (!m_results) {
        m_calibrated->setText(tr("Calibrated"));
    } else if (!possible) {
        m_calibrated->setText(tr("Calibrated (no validation split: T cannot be fitted)"));
    } else if (!m_temperature) {
        m_calibrated->setText(tr("Calibrated (T fitted on validation when checked)"));
    } else {
        m_calibrated->setText(tr("Calibrated (T = %1, fitted on validation)").arg(*m_temperature, 0, 'f', 2));
    }
    // The before / after on its own wrapping line: the controls row must stay narrow.
    const bool calibrated = m_lab && m_lab->temperature && m_lab->uncalibrated;
    m_calibrationNote->setVisible(calibrated);
    m_calibrationNote->setText(calibrated ? labtext::calibrationNoteText(*m_lab) : QString());
}

QString DecisionLabPage::calibrationNote() const { return m_calibrationNote->isHidden() ? QString() : m_calibrationNote->text(); }

void DecisionLabPage::showMessage(const QString& text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
    m_message->setVisible(!text.isEmpty());
}

QString DecisionLabPage::chosenTitle() const
{
    return tr("%1, %2").arg(QString::fromStdString(lbd::decisionRuleName(m_lab->rule)), m_evaluatedDescription);
}

void DecisionLabPage::showReports()
{
    m_stack->setCurrentIndex(1);
    showHeadline();
    showDefer();
    m_table->showReports(*m_baseline, *m_lab, chosenTitle());
    plotFhrComparison(m_fhrPlot, *m_baseline, *m_lab);
    plotRegionComparison(m_regionPlot, *m_baseline, *m_lab, tr("chosen rule"));
    plotRiskCoverage(m_riskPlot, *m_baseline, *m_lab);
}

void DecisionLabPage::showHeadline()
{
    // A flagged evaluation is never presented as a gain: the banner carries its warnings and the
    // headline gives the accuracy cost only (labtext.h).
    m_warnings->setText(labtext::warningsText(*m_lab));
    m_warnings->setVisible(!m_lab->warnings.empty());
    m_headline->setText(labtext::headlineText(*m_lab, *m_baseline, m_evaluatedDescription));
}

void DecisionLabPage::showDefer()
{
    m_defer->setText(labtext::deferText(*m_lab));
}

} // namespace lbd::ui
