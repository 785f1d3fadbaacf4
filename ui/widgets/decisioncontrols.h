#pragma once
// The decision rule and defer controls bound to the shared UtilityDocument: the same widget on
// the Utility page, the Decision lab, Classify and the experiment panel, so every page lists the
// registry's rules in the registry's order with its descriptions as tooltips, and a change on
// one page shows on all the others. The registry's warning (eq7 with a negative utility) is shown
// right under the rule wherever the rule is chosen.
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace lbd::ui {

class UtilityDocument;

class DecisionControls final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DecisionControls)

public:
    // Row: rule and defer side by side (page tool bars). Stacked: one above the other (the panel).
    enum class Layout { Row, Stacked };

    DecisionControls(UtilityDocument* document, Layout layout, QWidget* parent = nullptr);

    QComboBox* ruleBox() const { return m_rule; }
    QCheckBox* deferBox() const { return m_defer; }
    QDoubleSpinBox* deferSpin() const { return m_deferValue; }
    // The eq7 warning as shown, or empty when hidden.
    QString warningText() const;

private:
    void syncFromDocument();
    void writeDefer();

    UtilityDocument* m_document;
    QComboBox* m_rule = nullptr;
    QCheckBox* m_defer = nullptr;
    QDoubleSpinBox* m_deferValue = nullptr;
    QLabel* m_warning = nullptr;
};

} // namespace lbd::ui
