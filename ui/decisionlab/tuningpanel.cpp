#include "ui/decisionlab/tuningpanel.h"

#include "core/infer/runtuning.h"
#include "core/lbd/priorutility.h"
#include "ui/utility/utilitydocument.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace lbd::ui {

struct DecisionTuningPanel::Outcome {
    Kind kind = Kind::TailPenalty;
    std::shared_ptr<const lbd::RunResults> validation;
    lbd::TunedTailPenalty penalty;
    lbd::TunedPriorTau prior;
    lbd::TunedDeferUtility defer;
    double coverageTarget = 0.0;
};

DecisionTuningPanel::DecisionTuningPanel(UtilityDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document)
{
    setObjectName(QStringLiteral("labTuning"));
    m_tailButton = new QPushButton(tr("Tune c on validation"), this);
    m_tailButton->setObjectName(QStringLiteral("tuneTailPenalty"));
    m_budget = new QDoubleSpinBox(this);
    m_budget->setObjectName(QStringLiteral("accuracyBudget"));
    m_budget->setRange(0.0, 20.0);
    m_budget->setDecimals(1);
    m_budget->setSingleStep(0.5);
    m_budget->setValue(1.0);
    m_budget->setPrefix(tr("lose \u2264 "));
    m_budget->setSuffix(tr(" pts"));
    m_budget->setToolTip(tr("Accuracy budget: the tuned c may cost at most this many points of VALIDATION accuracy "
                            "against one-hot; among those, the c with the lowest validation FHR curve mean is chosen."));
    m_tailButton->setToolTip(tr("Choose the tail penalty c of a tail-sensitive decision matrix on the run's VALIDATION "
                                "split (never the test set), set the shared matrix to tail-sensitive(c) (one undo step), "
                                "and show the TEST split at that c."));
    m_priorButton = new QPushButton(tr("Tune \u03c4 (prior) on validation"), this);
    m_priorButton->setObjectName(QStringLiteral("tunePriorTau"));
    m_priorButton->setToolTip(tr("Logit adjustment (Menon et al. 2021): decide argmax pbar_d / pi_d^\u03c4, pi = the training "
                                 "class frequencies, as the expected utility of U = diag(1 / pi^\u03c4) (prior:\u03c4). "
                                 "Chooses \u03c4 with the highest balanced (mean per-class) accuracy on the run's VALIDATION "
                                 "split, sets the shared matrix to it (one undo step) and shows the TEST split."));
    m_priorButton->setProperty("baseToolTip", m_priorButton->toolTip()); // updateButtons adds why it is off with eq7
    m_deferButton = new QPushButton(tr("Tune r on validation"), this);
    m_deferButton->setObjectName(QStringLiteral("tuneDeferUtility"));
    m_coverage = new QDoubleSpinBox(this);
    m_coverage->setObjectName(QStringLiteral("coverageTarget"));
    m_coverage->setRange(1.0, 100.0);
    m_coverage->setDecimals(1);
    m_coverage->setValue(90.0);
    m_coverage->setPrefix(tr("coverage \u2265 "));
    m_coverage->setSuffix(QStringLiteral(" %"));
    m_coverage->setToolTip(tr("Target coverage: the largest defer utility r that still decides at least this share of "
                              "the VALIDATION images."));
    m_deferButton->setToolTip(tr("Choose the defer utility r on the run's VALIDATION split for the target coverage, turn "
                                 "the defer option on with it, and show the TEST coverage and selective accuracy."));
    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("tuningResult"));
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setToolTip(tr("The last tuning: the value chosen on the validation split and its validation numbers; the "
                          "lab's plots and table are the test split at that value."));

    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_tailButton);
    row->addWidget(m_budget);
    row->addSpacing(12);
    row->addWidget(m_priorButton);
    row->addSpacing(12);
    row->addWidget(m_deferButton);
    row->addWidget(m_coverage);
    row->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_text);

    connect(m_tailButton, &QPushButton::clicked, this, &DecisionTuningPanel::tuneTailPenalty);
    connect(m_deferButton, &QPushButton::clicked, this, &DecisionTuningPanel::tuneDeferUtility);
    connect(m_priorButton, &QPushButton::clicked, this, &DecisionTuningPanel::tunePriorTau);
    connect(m_document, &UtilityDocument::ruleChanged, this, &DecisionTuningPanel::updateButtons);
    // A tuned value the user has since changed is no longer what the lab shows: say so.
    const auto markStale = [this] {
        const bool tailGone = m_tunedPenalty && m_document->tailPenalty().value_or(0.0) != *m_tunedPenalty;
        const bool deferGone = m_tunedDefer && m_document->effectiveDeferUtility() != m_tunedDefer;
        const bool tauGone = m_tunedTau && m_document->matrix() != m_tunedPriorMatrix;
        if (tailGone || deferGone || tauGone) {
            m_tunedPenalty.reset();
            m_tunedDefer.reset();
            m_tunedTau.reset();
            showText(m_text->text() + tr(" <i>(No longer applied: the value has been changed since.)</i>"), false);
        }
    };
    for (auto signal : {&UtilityDocument::matrixChanged, &UtilityDocument::deferUtilityChanged, &UtilityDocument::ruleChanged}) {
        connect(m_document, signal, this, markStale);
    }
    setRun({}, false, 0);
}

DecisionTuningPanel::~DecisionTuningPanel() = default;

void DecisionTuningPanel::setRun(const QString& directory, bool hasValidation, int64_t classes)
{
    m_tuning.cancel(); // a tuning of the previous run still running is dropped
    m_directory = directory;
    m_hasValidation = hasValidation;
    m_classes = classes;
    m_validation.reset();
    m_tunedPenalty.reset();
    m_tunedDefer.reset();
    m_tunedTau.reset();
    if (!directory.isEmpty() && !hasValidation) {
        showText(tr("No validation split in this run: tuning c, \u03c4 or r would read the test set, so it is off. Train with a "
                    "validation share (panel > Data > Validation) to tune here."),
                 false);
    } else {
        showText({}, false);
    }
    updateButtons();
}

QString DecisionTuningPanel::resultText() const { return m_text->text(); }

void DecisionTuningPanel::updateButtons()
{
    const lbd::DecisionRuleInfo& rule = lbd::decisionRuleInfo(m_document->rule());
    const bool ready = m_hasValidation && !m_tuning.isRunning();
    m_tailButton->setEnabled(ready && rule.usesUtility);
    // prior:tau with eq7 would decide the head class (lbd-math.md section 9, vector H): off, saying why.
    const auto refusal = lbd::priorUtilityRefusal(m_document->rule());
    m_priorButton->setEnabled(ready && rule.usesUtility && !refusal);
    m_priorButton->setToolTip(m_priorButton->property("baseToolTip").toString()
                              + (refusal ? tr("\n\nOff with the eq7 rule: %1.").arg(QString::fromStdString(*refusal)) : QString()));
    m_deferButton->setEnabled(ready && rule.supportsDefer);
    m_budget->setEnabled(m_hasValidation);
    m_coverage->setEnabled(m_hasValidation);
}

void DecisionTuningPanel::showText(const QString& text, bool error)
{
    m_text->setText(text);
    m_text->setVisible(!text.isEmpty());
    m_text->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QStringLiteral("color: #1b3a5e;"));
}

void DecisionTuningPanel::tuneTailPenalty() { start(Kind::TailPenalty); }

void DecisionTuningPanel::tunePriorTau() { start(Kind::PriorTau); }

void DecisionTuningPanel::tuneDeferUtility() { start(Kind::DeferUtility); }

void DecisionTuningPanel::start(Kind kind)
{
    if (!m_hasValidation || m_tuning.isRunning() || m_directory.isEmpty()) {
        return;
    }
    const std::string directory = m_directory.toStdString();
    const std::shared_ptr<const lbd::RunResults> cached = m_validation;
    const lbd::DecisionRule rule = m_document->rule();
    const lbd::UtilityMatrix utility = m_document->matrix();
    const double budget = m_budget->value() / 100.0;
    const double coverage = m_coverage->value() / 100.0;
    showText(kind == Kind::TailPenalty ? tr("Tuning c on the validation split...")
             : kind == Kind::PriorTau  ? tr("Tuning \u03c4 on the validation split...")
                                       : tr("Tuning r on the validation split..."),
             false);
    m_tuning.start(
        [kind, coverage, cached, directory, rule, utility, budget] {
            auto out = std::make_shared<Outcome>();
            out->kind = kind;
            out->coverageTarget = coverage;
            out->validation = cached ? cached
                                     : std::make_shared<const lbd::RunResults>(
                                           lbd::loadRunResults(directory, lbd::ResultSplit::Validation));
            if (kind == Kind::TailPenalty) {
                out->penalty = lbd::tuneTailPenalty(*out->validation, rule, budget);
            } else if (kind == Kind::PriorTau) {
                out->prior = lbd::tunePriorTau(*out->validation, rule);
            } else {
                out->defer = lbd::tuneDeferUtility(*out->validation, utility, rule, coverage);
            }
            return std::shared_ptr<const Outcome>(std::move(out));
        },
        [this](const std::shared_ptr<const Outcome>& out) { onTuned(*out); },
        [this](const QString& error) {
            updateButtons();
            showText(tr("Tuning failed: %1").arg(error), true);
            emit failed(error);
        });
    updateButtons();
}

void DecisionTuningPanel::onTuned(const Outcome& out)
{
    updateButtons();
    m_validation = out.validation;
    const auto images = m_validation->images;
    if (out.kind == Kind::PriorTau) {
        const lbd::TunedPriorTau& t = out.prior;
        lbd::PriorTauCandidate chosen;
        for (const lbd::PriorTauCandidate& candidate : t.candidates) {
            if (candidate.tau == t.tau) {
                chosen = candidate;
            }
        }
        const lbd::UtilityMatrix matrix = lbd::priorAdjusted(m_validation->trainCounts, t.tau);
        QString error;
        if (!m_document->editMatrix(matrix, tr("logit adjustment prior:%1 tuned on validation").arg(t.tau), &error)) {
            showText(tr("The tuned \u03c4 = %1 was not applied: %2").arg(t.tau).arg(error), true);
            return;
        }
        m_tunedTau = t.tau;
        m_tunedPriorMatrix = matrix;
        showText(tr("<b>\u03c4 = %1</b> (prior:%1, logit adjustment), tuned on the <b>validation</b> split (%2 images): "
                    "validation balanced accuracy %3 %, accuracy %4 %, FHR curve mean %5 %. The lab's numbers are the "
                    "<b>test</b> split at this \u03c4; the matrix is now diag(1 / pi^\u03c4) on every page (Undo on the "
                    "Utility page restores it).")
                     .arg(t.tau)
                     .arg(images)
                     .arg(100.0 * chosen.balancedAccuracy, 0, 'f', 1)
                     .arg(100.0 * chosen.accuracy, 0, 'f', 1)
                     .arg(100.0 * chosen.fhrCurveMean, 0, 'f', 1),
                 false);
    } else if (out.kind == Kind::TailPenalty) {
        const lbd::TunedTailPenalty& t = out.penalty;
        double fhr = 0.0, accuracy = t.baselineAccuracy;
        for (const lbd::TailPenaltyCandidate& candidate : t.candidates) {
            if (candidate.penalty == t.penalty) {
                fhr = candidate.fhrCurveMean;
                accuracy = candidate.accuracy;
            }
        }
        const lbd::UtilityMatrix matrix =
            t.penalty > 0 ? lbd::UtilityMatrix::tailSensitive(m_classes, t.penalty) : lbd::UtilityMatrix::oneHot(m_classes);
        QString error;
        if (!m_document->editMatrix(matrix, tr("tail-sensitive c = %1 tuned on validation").arg(t.penalty), &error)) {
            showText(tr("The tuned c = %1 was not applied: %2").arg(t.penalty).arg(error), true);
            return;
        }
        m_tunedPenalty = t.penalty;
        showText(tr("<b>c = %1</b>, tuned on the <b>validation</b> split (%2 images): validation accuracy %3 % (one-hot "
                    "%4 %, budget %5 pts), validation FHR curve mean %6 %. The lab's numbers are the <b>test</b> split at "
                    "this c; the matrix is now tail-sensitive(%1) on every page (Undo on the Utility page restores it).")
                     .arg(t.penalty)
                     .arg(images)
                     .arg(100.0 * accuracy, 0, 'f', 1)
                     .arg(100.0 * t.baselineAccuracy, 0, 'f', 1)
                     .arg(100.0 * t.maxAccuracyLoss, 0, 'f', 1)
                     .arg(100.0 * fhr, 0, 'f', 1),
                 false);
    } else {
        const lbd::TunedDeferUtility& d = out.defer;
        m_document->setDeferUtility(d.deferUtility);
        m_tunedDefer = d.deferUtility;
        showText(tr("<b>r = %1</b>, tuned on the <b>validation</b> split (%2 images) for coverage \u2265 %3 %: validation "
                    "coverage %4 %, validation selective accuracy %5 %. The coverage and selective accuracy under the "
                    "plots are the <b>test</b> split at this r.")
                     .arg(d.deferUtility, 0, 'g', 4)
                     .arg(images)
                     .arg(100.0 * out.coverageTarget, 0, 'f', 1)
                     .arg(100.0 * d.coverage, 0, 'f', 1)
                     .arg(100.0 * d.selectiveAccuracy, 0, 'f', 1),
                 false);
    }
    emit tuned();
}

} // namespace lbd::ui
