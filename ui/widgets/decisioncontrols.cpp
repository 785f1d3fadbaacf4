#include "ui/widgets/decisioncontrols.h"

#include "core/eval/decisionrule.h"
#include "ui/utility/utilitydocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace lbd::ui {
namespace {

// The r a user starts from: with one-hot U the best expected utility is max pbar, so 0.5 defers
// the images no class gets half the probability of.
constexpr double kDefaultDefer = 0.5;

} // namespace

DecisionControls::DecisionControls(UtilityDocument* document, Layout layout, QWidget* parent)
    : QWidget(parent), m_document(document)
{
    m_rule = new QComboBox(this);
    m_rule->setObjectName(QStringLiteral("decisionRule"));
    for (const lbd::DecisionRuleInfo& info : lbd::decisionRules()) {
        m_rule->addItem(QString::fromStdString(info.title), static_cast<int>(info.rule));
        m_rule->setItemData(m_rule->count() - 1, QString::fromStdString(info.name + ": " + info.description), Qt::ToolTipRole);
    }
    m_rule->setToolTip(tr("How an image is decided from the particles' probabilities and the shared decision matrix "
                          "(lbd-math.md section 5). One setting for the Utility page, the Decision lab, Classify and the "
                          "next run: changing it here changes it everywhere. Hover an entry for its definition."));

    m_defer = new QCheckBox(tr("Defer below r ="), this);
    m_defer->setObjectName(QStringLiteral("deferEnabled"));
    m_deferValue = new QDoubleSpinBox(this);
    m_deferValue->setObjectName(QStringLiteral("deferUtility"));
    m_deferValue->setRange(-100.0, 100.0);
    m_deferValue->setDecimals(4); // a tuned r is shown as it is used
    m_deferValue->setSingleStep(0.05);
    m_deferValue->setValue(kDefaultDefer);
    m_deferValue->setKeyboardTracking(false);
    const QString deferTip =
        tr("The defer (reject) option: an extra action \"defer\" with utility r for every true class. An image whose best "
           "expected utility max_d EU(d) is below r is not decided but referred to a person (argmax: max pbar below r). "
           "Coverage = the share of images decided; selective accuracy = accuracy among them. With one-hot U, EU = pbar, "
           "so r is a probability; with a tail-sensitive U, EU can be negative.");
    m_defer->setToolTip(deferTip);
    m_deferValue->setToolTip(deferTip);

    m_warning = new QLabel(this);
    m_warning->setObjectName(QStringLiteral("ruleWarning"));
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(QStringLiteral("color: #8a1c00; background: #fff0e6; padding: 4px; border: 1px solid #d9822b; "
                                            "border-radius: 3px; font-weight: bold;"));
    m_warning->setToolTip(tr("The decision rule registry's warning for this rule with the shared matrix."));
    m_warning->setVisible(false);

    auto* ruleRow = new QHBoxLayout;
    ruleRow->setContentsMargins(0, 0, 0, 0);
    auto* ruleLabel = new QLabel(tr("Decision rule"), this);
    ruleLabel->setToolTip(m_rule->toolTip());
    ruleRow->addWidget(ruleLabel);
    ruleRow->addWidget(m_rule, 1);
    auto* deferRow = new QHBoxLayout;
    deferRow->setContentsMargins(0, 0, 0, 0);
    deferRow->addWidget(m_defer);
    deferRow->addWidget(m_deferValue);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    if (layout == Layout::Row) {
        ruleRow->addSpacing(8);
        ruleRow->addLayout(deferRow);
        box->addLayout(ruleRow);
    } else {
        deferRow->addStretch();
        box->addLayout(ruleRow);
        box->addLayout(deferRow);
    }
    box->addWidget(m_warning);

    connect(m_rule, &QComboBox::currentIndexChanged, this,
            [this] { m_document->setRule(static_cast<lbd::DecisionRule>(m_rule->currentData().toInt())); });
    connect(m_defer, &QCheckBox::toggled, this, &DecisionControls::writeDefer);
    connect(m_deferValue, &QDoubleSpinBox::valueChanged, this, &DecisionControls::writeDefer);
    for (auto signal : {&UtilityDocument::ruleChanged, &UtilityDocument::deferUtilityChanged, &UtilityDocument::matrixChanged}) {
        connect(m_document, signal, this, &DecisionControls::syncFromDocument);
    }
    syncFromDocument();
}

QString DecisionControls::warningText() const { return m_warning->isHidden() ? QString() : m_warning->text(); }

void DecisionControls::writeDefer()
{
    m_deferValue->setEnabled(m_defer->isChecked() && m_defer->isEnabled());
    m_document->setDeferUtility(m_defer->isChecked() ? std::optional<double>(m_deferValue->value()) : std::nullopt);
}

void DecisionControls::syncFromDocument()
{
    const QSignalBlocker blockRule(m_rule);
    const QSignalBlocker blockDefer(m_defer);
    const QSignalBlocker blockValue(m_deferValue);
    m_rule->setCurrentIndex(m_rule->findData(static_cast<int>(m_document->rule())));
    const lbd::DecisionRuleInfo& info = lbd::decisionRuleInfo(m_document->rule());
    const std::optional<double> r = m_document->deferUtility();
    m_defer->setChecked(r.has_value());
    if (r) {
        m_deferValue->setValue(*r);
    }
    m_defer->setEnabled(info.supportsDefer);
    m_deferValue->setEnabled(info.supportsDefer && r.has_value());
    if (!info.supportsDefer) {
        m_defer->setToolTip(tr("The %1 rule has no defer option: it does not score with expected utility (use expected or "
                               "argmax). The r you chose is kept for those rules.")
                                .arg(QString::fromStdString(info.name)));
    } else {
        m_defer->setToolTip(m_deferValue->toolTip());
    }
    const QString warning = m_document->ruleWarning();
    m_warning->setText(warning.isEmpty() ? QString() : tr("Warning: %1").arg(warning));
    m_warning->setVisible(!warning.isEmpty());
}

} // namespace lbd::ui
