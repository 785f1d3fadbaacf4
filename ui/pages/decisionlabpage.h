#pragma once
// The Decision lab: for the current finished run, re-decide its cached test probabilities with a
// chosen rule (argmax / LBD / expected utility) and the shared utility matrix, without
// retraining, and compare with the one-hot argmax baseline: overall and head / med / tail
// accuracy, the False Head Rate curve (paper points marked) and the mean utility under the edited
// matrix. Loading and every re-evaluation run on the thread pool; the page reacts to the
// document's matrixChanged and only writes the document through its quick presets.
#include <QFutureWatcher>
#include <QWidget>

#include <memory>
#include <optional>

#include "core/eval/decisionrule.h"
#include "core/eval/evaluationreport.h"
#include "core/lbd/utilitymatrix.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTableWidget;

namespace lbd {
struct RunResults;
}

namespace lbd::ui {

class ThrottledPlot;
class UtilityDocument;

class DecisionLabPage final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DecisionLabPage)

public:
    explicit DecisionLabPage(UtilityDocument* document, QWidget* parent = nullptr);
    ~DecisionLabPage() override;

    // Loads the run folder's cached results (off the GUI thread) and evaluates it; connected to
    // MainWindow::runShown.
    void showRun(const QString& directory);

    void setRule(lbd::DecisionRule rule);
    lbd::DecisionRule rule() const;

    // For tests and the screenshot runner.
    QString runDirectory() const { return m_directory; }
    bool hasRun() const { return m_results != nullptr; }
    bool isBusy() const;
    // The last evaluation: the chosen rule under the document's matrix, and plain argmax (its
    // decisions ignore U; its mean utility is under the same matrix).
    const std::optional<lbd::EvaluationReport>& labReport() const { return m_lab; }
    const std::optional<lbd::EvaluationReport>& baselineReport() const { return m_baseline; }
    // The matrix the last evaluation used.
    const lbd::UtilityMatrix& evaluatedMatrix() const { return m_evaluatedMatrix; }
    QString message() const;
    QString headline() const;
    QTableWidget* table() const { return m_table; }
    ThrottledPlot* fhrPlot() const { return m_fhrPlot; }
    ThrottledPlot* regionPlot() const { return m_regionPlot; }
    QPushButton* oneHotButton() const { return m_oneHotButton; }
    QPushButton* tailButton() const { return m_tailButton; }
    QDoubleSpinBox* tailPenalty() const { return m_tailPenalty; }
    QComboBox* ruleBox() const { return m_rule; }

signals:
    // An evaluation (after a run loaded, or the rule or matrix changed) is shown.
    void evaluated();
    // Loading or evaluating failed; the reason is shown inline.
    void failed(const QString& message);

private:
    struct Loaded;
    struct Evaluated;

    void requestEvaluation();
    void onLoaded();
    void onEvaluated();
    void applyPreset(const lbd::UtilityMatrix& matrix);
    void showMessage(const QString& text, bool error);
    void updateMatrixLabel();
    void showReports();
    void fillTable();
    void plotFhr();
    void plotRegions();

    UtilityDocument* m_document = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_emptyLabel = nullptr;
    QComboBox* m_rule = nullptr;
    QPushButton* m_oneHotButton = nullptr;
    QPushButton* m_tailButton = nullptr;
    QDoubleSpinBox* m_tailPenalty = nullptr;
    QLabel* m_matrixLabel = nullptr;
    QLabel* m_runLabel = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_headline = nullptr;
    QTableWidget* m_table = nullptr;
    ThrottledPlot* m_fhrPlot = nullptr;
    ThrottledPlot* m_regionPlot = nullptr;

    QString m_directory;
    std::shared_ptr<const lbd::RunResults> m_results;
    std::optional<lbd::EvaluationReport> m_lab;
    std::optional<lbd::EvaluationReport> m_baseline;
    lbd::UtilityMatrix m_evaluatedMatrix;

    QFutureWatcher<std::shared_ptr<Loaded>> m_loadWatcher;
    QFutureWatcher<std::shared_ptr<Evaluated>> m_evalWatcher;
    int m_loadGeneration = 0;
    int m_evalGeneration = 0;
    bool m_evaluationPending = false; // the rule or matrix changed while an evaluation ran
};

} // namespace lbd::ui
