#pragma once
// The Decision lab: for the current finished run, re-decide its cached test probabilities with
// the SHARED decision settings (the UtilityDocument's matrix, rule and defer utility, the same on
// the Utility page, Classify and the experiment panel) without retraining, and compare with the
// one-hot argmax baseline: accuracy by region, the False Head Rate curve, both FHR means under
// their own names, the risk-coverage curves with AURC, and the defer option's coverage and
// selective accuracy. A degenerate result (the report's warnings) is shown as a warning, never as
// an improvement. Quick presets write the shared matrix as undoable edits and say what they
// replaced; the run's own recorded settings are offered, not imposed; with a validation split, c
// and r are tuned on it (DecisionTuningPanel) and the test split is reported. "Calibrated" decides
// the temperature-scaled pbar, softmax(log pbar / T), T fitted on the validation split (fitted and
// kept in the run folder the first time it is checked). Loading and every evaluation run on the
// thread pool.
#include <QWidget>

#include <memory>
#include <optional>

#include "core/eval/decisionrule.h"
#include "core/eval/evaluationreport.h"
#include "core/lbd/utilitymatrix.h"
#include "ui/background/latestrequest.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QStackedWidget;

namespace lbd {
struct RunResults;
}

namespace lbd::ui {

class DecisionControls;
class DecisionLabTable;
class DecisionTuningPanel;
class ThrottledPlot;
class UtilityDocument;

class DecisionLabPage final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DecisionLabPage)

public:
    explicit DecisionLabPage(UtilityDocument* document, QWidget* parent = nullptr);
    ~DecisionLabPage() override;

    // Loads the run folder's cached results (off the GUI thread) and evaluates it; connected to
    // MainWindow::runShown. The shared decision settings stay as they are.
    void showRun(const QString& directory);

    // The shared rule (the document's).
    void setRule(lbd::DecisionRule rule);
    lbd::DecisionRule rule() const;
    // Makes the run's recorded decision matrix, rule and defer utility the shared settings (the
    // matrix as one undoable edit); false when no run is loaded.
    bool adoptRunDecisions();

    // For tests and the screenshot runner.
    QString runDirectory() const { return m_directory; }
    bool hasRun() const { return m_results != nullptr; }
    bool isBusy() const;
    // The last evaluation: the shared rule, matrix and defer utility, and plain argmax under the
    // same matrix (its decisions ignore U; its mean utility is under the matrix).
    const std::optional<lbd::EvaluationReport>& labReport() const { return m_lab; }
    const std::optional<lbd::EvaluationReport>& baselineReport() const { return m_baseline; }
    const lbd::UtilityMatrix& evaluatedMatrix() const { return m_evaluatedMatrix; }
    std::optional<double> evaluatedDefer() const { return m_evaluatedDefer; }
    QString message() const;
    QString headline() const;
    QString warningText() const;      // the degenerate-result banner, empty when hidden
    QString presetNotice() const;     // what the last preset replaced, empty when hidden
    QString runNotes() const;         // the run's notes (old run folders), empty when none
    QString setAsideNotice() const;   // the user's matrix of other classes kept aside, empty when none
    QString deferSummary() const;     // coverage and selective accuracy, empty without defer
    DecisionLabTable* table() const { return m_table; }
    ThrottledPlot* fhrPlot() const { return m_fhrPlot; }
    ThrottledPlot* regionPlot() const { return m_regionPlot; }
    ThrottledPlot* riskCoveragePlot() const { return m_riskPlot; }
    QPushButton* oneHotButton() const { return m_oneHotButton; }
    QPushButton* tailButton() const { return m_tailButton; }
    QDoubleSpinBox* tailPenalty() const { return m_tailPenalty; }
    QPushButton* undoPresetButton() const { return m_undoPreset; }
    QPushButton* adoptButton() const { return m_adopt; }
    DecisionControls* decisionControls() const { return m_controls; }
    QComboBox* ruleBox() const;
    // "Calibrated (T = 1.37, fitted on validation)"; disabled for a run without a validation split.
    QCheckBox* calibratedBox() const { return m_calibrated; }
    // T of the last evaluation; empty when it decided the uncalibrated pbar.
    std::optional<double> evaluatedTemperature() const { return m_lab ? m_lab->temperature : std::nullopt; }
    // With calibrated probabilities: T and the test ECE / NLL before and after; empty otherwise.
    QString calibrationNote() const;
    DecisionTuningPanel* tuning() const { return m_tuning; }

signals:
    // An evaluation (after a run loaded, or the rule, matrix or defer utility changed) is shown.
    void evaluated();
    // Loading or evaluating failed; the reason is shown inline.
    void failed(const QString& message);

private:
    struct Evaluated;

    void requestEvaluation();
    void onLoaded(std::shared_ptr<const lbd::RunResults> results);
    void applyPreset(const lbd::UtilityMatrix& matrix, const QString& name);
    void showMessage(const QString& text, bool error);
    void updateMatrixLabel();
    void updateRecorded();
    void showReports();
    void showHeadline();
    void showDefer();
    QString chosenTitle() const;
    void updateCalibratedBox();

    UtilityDocument* m_document = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_emptyLabel = nullptr;
    DecisionControls* m_controls = nullptr;
    QPushButton* m_oneHotButton = nullptr;
    QPushButton* m_tailButton = nullptr;
    QDoubleSpinBox* m_tailPenalty = nullptr;
    QCheckBox* m_calibrated = nullptr;
    QLabel* m_calibrationNote = nullptr;
    std::optional<double> m_temperature; // the run's temperature.json, once known
    QLabel* m_matrixLabel = nullptr;
    QWidget* m_noticeBar = nullptr;
    QLabel* m_notice = nullptr;
    QPushButton* m_undoPreset = nullptr;
    QLabel* m_setAside = nullptr;
    QLabel* m_runLabel = nullptr;
    QLabel* m_recorded = nullptr;
    QPushButton* m_adopt = nullptr;
    QLabel* m_notes = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_warnings = nullptr;
    QLabel* m_headline = nullptr;
    QLabel* m_defer = nullptr;
    DecisionTuningPanel* m_tuning = nullptr;
    DecisionLabTable* m_table = nullptr;
    ThrottledPlot* m_fhrPlot = nullptr;
    ThrottledPlot* m_regionPlot = nullptr;
    ThrottledPlot* m_riskPlot = nullptr;

    QString m_directory;
    std::shared_ptr<const lbd::RunResults> m_results;
    std::optional<lbd::EvaluationReport> m_lab;
    std::optional<lbd::EvaluationReport> m_baseline;
    lbd::UtilityMatrix m_evaluatedMatrix;
    std::optional<double> m_evaluatedDefer;
    QString m_evaluatedDescription;
    bool m_applyingPreset = false;

    LatestRequest<std::shared_ptr<const lbd::RunResults>> m_load;
    LatestRequest<std::shared_ptr<const Evaluated>> m_evaluation;
};

} // namespace lbd::ui
