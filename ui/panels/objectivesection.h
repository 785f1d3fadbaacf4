#pragma once
// The model and objective part of the experiment panel: architecture, particle count M, the
// baseline presets, the discrepancy ratio (formula + live class-weight plot), alpha, tau, DRW,
// LDAM margins, repulsion, the utility preset and the decision rule.
#include <QWidget>

#include <cstdint>
#include <vector>

#include "core/train/trainconfig.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace lbd::ui {

class ClassWeightPlot;

class ObjectiveSection final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ObjectiveSection)

public:
    explicit ObjectiveSection(QWidget* parent = nullptr);

    void load(const lbd::TrainConfig& config);
    // Writes model, objective and the utility / decision settings into `config`.
    void apply(lbd::TrainConfig& config) const;
    void setClassCounts(const std::vector<int64_t>& counts);
    // Moves the DRW epoch with the run length (the paper: 80% of the epochs).
    void scaleToEpochs(int epochs);
    // Chooses "File (from the editor)" with this CSV / JSON matrix (the utility editor's "Use for
    // training"); emits changed().
    void setUtilityFile(const QString& path);

signals:
    void changed();

private:
    void applyBaseline();
    void updateDiscrepancy();
    void updateEnabled();

    QComboBox* m_arch = nullptr;
    QSpinBox* m_particles = nullptr;
    QComboBox* m_baseline = nullptr;
    QComboBox* m_discrepancy = nullptr;
    QLabel* m_formula = nullptr;
    QDoubleSpinBox* m_beta = nullptr;
    QDoubleSpinBox* m_gamma = nullptr;
    ClassWeightPlot* m_weights = nullptr;
    QSpinBox* m_drwEpoch = nullptr;
    QCheckBox* m_margins = nullptr;
    QDoubleSpinBox* m_maxMargin = nullptr;
    QCheckBox* m_utilityTerm = nullptr;
    QDoubleSpinBox* m_alpha = nullptr;
    QCheckBox* m_repulsive = nullptr;
    QDoubleSpinBox* m_tau = nullptr;
    QComboBox* m_utilityPreset = nullptr;
    QDoubleSpinBox* m_tailPenalty = nullptr;
    QLabel* m_utilityFile = nullptr;
    QComboBox* m_rule = nullptr;

    lbd::ObjectiveSpec m_baseObjective; // fields not shown (eps, scale, utility-after-DRW) keep their values
    lbd::ModelSpec m_baseModel;
    std::string m_customUtility;        // the "File" choice: a CSV / JSON matrix, kept while another preset is chosen
    std::vector<int64_t> m_counts;
    int m_epochs = 200;
    bool m_loading = false;
};

} // namespace lbd::ui
