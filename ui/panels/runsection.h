#pragma once
// The optimisation and run part of the experiment panel: epochs, batch size, learning rate and
// its schedule, weight decay lambda, evaluation cadence, augmentation, device and seed.
#include <QWidget>

#include "core/train/trainconfig.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace lbd::ui {

class RunSection final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunSection)

public:
    explicit RunSection(QWidget* parent = nullptr);

    void load(const lbd::TrainConfig& config);
    void apply(lbd::TrainConfig& config) const; // optimizer, augment and train settings
    int epochs() const;
    // The epochs of the config last loaded (a preset, a run), before any edit.
    int loadedEpochs() const { return m_loadedEpochs; }
    // As if typed in the box: epochsChanged follows (the schedule scales along when that is on).
    void setEpochs(int epochs);
    bool scalesSchedule() const;
    // N when "All N GPUs (data-parallel)" is chosen (the config's device is then "cuda"), else 1.
    int dataParallelRanks() const;

signals:
    void changed();
    void epochsChanged(int epochs);

private:
    void fillDevices();
    void describeAugmentation(const lbd::AugmentSpec& spec);
    void updateGpuOptions();

    QSpinBox* m_epochs = nullptr;
    QCheckBox* m_scaleSchedule = nullptr;
    QSpinBox* m_batch = nullptr;
    QDoubleSpinBox* m_lr = nullptr;
    QDoubleSpinBox* m_weightDecay = nullptr;
    QSpinBox* m_warmup = nullptr;
    QLabel* m_schedule = nullptr;
    QSpinBox* m_evalEvery = nullptr;
    QCheckBox* m_augment = nullptr;
    QComboBox* m_device = nullptr;
    QSpinBox* m_seed = nullptr;
    QComboBox* m_precision = nullptr;
    QCheckBox* m_cudaGraph = nullptr;
    QString m_precisionToolTip;
    QString m_cudaGraphToolTip;

    lbd::OptimizerSpec m_baseOptimizer;
    lbd::AugmentSpec m_baseAugment;
    lbd::TrainSettings m_baseTrain;
    int m_loadedEpochs = 200;
    int m_gpuCount = 0;
    bool m_loading = false;
};

} // namespace lbd::ui
