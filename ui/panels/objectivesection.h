#pragma once
// The model and objective part of the experiment panel: architecture, particle count M, the
// weights to start from (startfromrow.h), the baseline presets, the discrepancy ratio (formula +
// live class-weight plot), alpha, tau, DRW, LDAM margins, the logit adjustment, repulsion, and the TRAINING utility (one-hot, tail-sensitive c, or the Utility
// page's matrix copied by value) with its form and alpha, warning inline when that combination is
// known to be unstable. How the run decides is the shared decision setting, not part of this section.
#include <QWidget>

#include <cstdint>
#include <vector>

#include "core/train/trainconfig.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace lbd::ui {

class ClassWeightPlot;
class StartFromRow;

class ObjectiveSection final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ObjectiveSection)

public:
    explicit ObjectiveSection(QWidget* parent = nullptr);

    void load(const lbd::TrainConfig& config);
    // Writes model and objective (with the training utility) into `config`.
    void apply(lbd::TrainConfig& config) const;
    void setClassCounts(const std::vector<int64_t>& counts);
    // Moves the DRW epoch with the run length (the paper: 80% of the epochs).
    void scaleToEpochs(int epochs);
    // Chooses "Matrix by value" with this matrix (a copy of the Utility page's); emits changed().
    void setTrainingMatrix(const lbd::UtilitySetting& utility);
    lbd::UtilitySetting trainingUtility() const;
    // The inline warning (trainingUtilityWarning) as shown, or empty.
    QString trainingWarningText() const;

signals:
    void changed();
    // The user chose "Matrix by value" or pressed Copy again: the owner copies the Utility page's matrix.
    void matrixCopyRequested();

private:
    void applyBaseline();
    void updateDiscrepancy();
    void updateEnabled();
    void updateTrainingWarning();

    QComboBox* m_arch = nullptr;
    QSpinBox* m_particles = nullptr;
    StartFromRow* m_startFrom = nullptr; // model.init_from
    QComboBox* m_baseline = nullptr;
    QComboBox* m_discrepancy = nullptr;
    QLabel* m_formula = nullptr;
    QDoubleSpinBox* m_beta = nullptr;
    QDoubleSpinBox* m_gamma = nullptr;
    ClassWeightPlot* m_weights = nullptr;
    QSpinBox* m_drwEpoch = nullptr;
    QCheckBox* m_ratioAsLinear = nullptr; // objective.ratio_scale as-linear
    QCheckBox* m_margins = nullptr;
    QDoubleSpinBox* m_maxMargin = nullptr;
    QCheckBox* m_logitAdjustment = nullptr; // objective.logit_adjustment (training only)
    QDoubleSpinBox* m_logitTau = nullptr;
    QCheckBox* m_utilityTerm = nullptr;
    QDoubleSpinBox* m_alpha = nullptr;
    QCheckBox* m_repulsive = nullptr;
    QDoubleSpinBox* m_tau = nullptr;
    QComboBox* m_utilityPreset = nullptr;
    QDoubleSpinBox* m_tailPenalty = nullptr;
    QWidget* m_utilityMatrixRow = nullptr;
    QLabel* m_utilityMatrixLabel = nullptr;
    QPushButton* m_copyMatrix = nullptr;
    QComboBox* m_utilityForm = nullptr;
    QLabel* m_trainingWarning = nullptr;

    lbd::ObjectiveSpec m_baseObjective; // fields not shown (eps, scale, utility-after-DRW) keep their values
    lbd::ModelSpec m_baseModel;
    lbd::UtilitySetting m_matrixUtility; // the "Matrix" choice (by value, or a file a config named), kept while another is chosen
    std::vector<int64_t> m_counts;
    int m_epochs = 200;
    bool m_loading = false;
};

} // namespace lbd::ui
