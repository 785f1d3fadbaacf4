#pragma once
// "Tune on validation" for the Decision lab: the tail penalty c (lowest validation FHR within an
// accuracy budget), tau of the logit-adjustment preset prior:tau (highest validation balanced
// accuracy; core/lbd/priorutility.h) and the defer utility r (a target validation coverage), through core's
// runtuning on the run's cached VALIDATION probabilities, off the GUI thread. The tuned value is
// written to the shared decision document (c as a tail-sensitive matrix and tau as
// diag((min pi / pi_y)^tau), one undo step each; r as the defer utility), and the lab then shows the TEST split at it; the text says which split each
// number comes from. Runs without a validation split cannot tune: the test set is never used.
#include <QString>
#include <QWidget>

#include <memory>
#include <optional>

#include "core/lbd/utilitymatrix.h"
#include "ui/background/latestrequest.h"

class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace lbd {
struct RunResults;
}

namespace lbd::ui {

class UtilityDocument;

class DecisionTuningPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DecisionTuningPanel)

public:
    explicit DecisionTuningPanel(UtilityDocument* document, QWidget* parent = nullptr);
    ~DecisionTuningPanel() override;

    // A newly shown run (its validation split is loaded when first tuned); empty: none.
    void setRun(const QString& directory, bool hasValidation, int64_t classes);

    void tuneTailPenalty();
    void tunePriorTau();
    void tuneDeferUtility();
    // Until the result is shown.
    bool isBusy() const { return m_tuning.isRunning(); }
    QString resultText() const;
    QPushButton* tailButton() const { return m_tailButton; }
    QPushButton* deferButton() const { return m_deferButton; }
    QPushButton* priorButton() const { return m_priorButton; }
    // The values the last tuning wrote (for tests).
    std::optional<double> tunedPenalty() const { return m_tunedPenalty; }
    std::optional<double> tunedDefer() const { return m_tunedDefer; }
    std::optional<double> tunedTau() const { return m_tunedTau; }

signals:
    // The tuned value was written to the document (the lab re-evaluates on the test split).
    void tuned();
    void failed(const QString& message);

private:
    struct Outcome;
    enum class Kind { TailPenalty, PriorTau, DeferUtility };
    void start(Kind kind);
    void onTuned(const Outcome& out);
    void updateButtons();
    void showText(const QString& text, bool error);

    UtilityDocument* m_document;
    QPushButton* m_tailButton = nullptr;
    QDoubleSpinBox* m_budget = nullptr;
    QPushButton* m_priorButton = nullptr;
    QPushButton* m_deferButton = nullptr;
    QDoubleSpinBox* m_coverage = nullptr;
    QLabel* m_text = nullptr;

    QString m_directory;
    bool m_hasValidation = false;
    int64_t m_classes = 0;
    std::shared_ptr<const lbd::RunResults> m_validation; // loaded on the first tuning
    std::optional<double> m_tunedPenalty;
    std::optional<double> m_tunedDefer;
    std::optional<double> m_tunedTau;
    lbd::UtilityMatrix m_tunedPriorMatrix; // what the tuned tau wrote, to notice a later change
    LatestRequest<std::shared_ptr<const Outcome>> m_tuning;
};

} // namespace lbd::ui
