#include "ui/panels/runsection.h"

#include "ui/training/visiblegpus.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace lbd::ui {
namespace {

constexpr const char* kAllGpus = "all-gpus"; // the device choice's data for "All N GPUs"

} // namespace

RunSection::RunSection(QWidget* parent) : QWidget(parent)
{
    m_epochs = new QSpinBox(this);
    m_epochs->setObjectName(QStringLiteral("epochs"));
    m_epochs->setRange(1, 100000);
    m_epochs->setKeyboardTracking(false);
    m_epochs->setToolTip(tr("Training epochs (paper: 200 for CIFAR-LT)."));
    m_scaleSchedule = new QCheckBox(tr("scale schedule"), this);
    m_scaleSchedule->setObjectName(QStringLiteral("scaleSchedule"));
    m_scaleSchedule->setChecked(true);
    m_scaleSchedule->setToolTip(tr("When the epochs change, keep the DRW epoch and the learning-rate decays at the same "
                                   "fraction of the run (paper: DRW and x0.01 at 80%, x0.0001 at 90%)."));
    m_batch = new QSpinBox(this);
    m_batch->setObjectName(QStringLiteral("batchSize"));
    m_batch->setRange(1, 65536);
    m_batch->setKeyboardTracking(false);
    m_batch->setToolTip(tr("Minibatch size B (paper: 128)."));
    m_lr = new QDoubleSpinBox(this);
    m_lr->setObjectName(QStringLiteral("learningRate"));
    m_lr->setRange(1e-6, 10);
    m_lr->setDecimals(5);
    m_lr->setSingleStep(0.01);
    m_lr->setKeyboardTracking(false);
    m_lr->setToolTip(tr("Peak learning rate of SGD with Nesterov momentum 0.9 (paper: 0.1)."));
    m_weightDecay = new QDoubleSpinBox(this);
    m_weightDecay->setObjectName(QStringLiteral("weightDecay"));
    m_weightDecay->setRange(0, 1);
    m_weightDecay->setDecimals(6);
    m_weightDecay->setSingleStep(1e-4);
    m_weightDecay->setKeyboardTracking(false);
    m_weightDecay->setToolTip(tr("lambda: weight decay of the optimiser, the Gaussian prior on the weights (paper: 5e-4)."));
    m_warmup = new QSpinBox(this);
    m_warmup->setObjectName(QStringLiteral("warmupEpochs"));
    m_warmup->setRange(0, 100000);
    m_warmup->setToolTip(tr("Linear learning-rate warm-up over this many epochs (paper: 5)."));
    m_schedule = new QLabel(this);
    m_schedule->setObjectName(QStringLiteral("lrSchedule"));
    m_schedule->setToolTip(tr("Learning-rate decays: from these epochs on the rate is multiplied by these factors."));
    m_evalEvery = new QSpinBox(this);
    m_evalEvery->setObjectName(QStringLiteral("evalEvery"));
    m_evalEvery->setRange(1, 100000);
    m_evalEvery->setToolTip(tr("Evaluate on the (balanced) test set every K epochs and after the last one: accuracy, "
                               "FHR, calibration."));
    m_augment = new QCheckBox(this);
    m_augment->setObjectName(QStringLiteral("augment"));
    describeAugmentation(AugmentSpec{});
    m_device = new QComboBox(this);
    m_device->setObjectName(QStringLiteral("device"));
    m_device->setToolTip(tr("Where to train: the CPU, one CUDA GPU (mixed precision and a CUDA graph on GPUs) or, with "
                            "several GPUs, all of them data-parallel (one process per GPU)."));
    fillDevices();
    m_seed = new QSpinBox(this);
    m_seed->setObjectName(QStringLiteral("seed"));
    m_seed->setRange(0, 1000000);
    m_seed->setToolTip(tr("Seed of the model initialisation, batch order and augmentation."));
    m_precision = new QComboBox(this);
    m_precision->setObjectName(QStringLiteral("precision"));
    m_precision->addItem(tr("fp16 (loss scaling)"), static_cast<int>(lbd::Precision::Fp16));
    m_precision->addItem(tr("bf16"), static_cast<int>(lbd::Precision::Bf16));
    m_precision->addItem(tr("fp32"), static_cast<int>(lbd::Precision::Fp32));
    m_precision->setToolTip(tr("Arithmetic of the forward pass on CUDA (ignored on the CPU): fp16 autocast with dynamic "
                               "loss scaling is the fastest on tensor-core GPUs; bf16 needs no scaling; fp32 is the "
                               "slowest and the reference."));
    m_cudaGraph = new QCheckBox(tr("CUDA graph"), this);
    m_cudaGraph->setToolTip(tr("Capture the training step in a CUDA graph (CUDA only): several times faster."));
    m_precision->setObjectName(QStringLiteral("precision"));
    m_cudaGraph->setObjectName(QStringLiteral("cudaGraph"));
    m_precisionToolTip = m_precision->toolTip();
    m_cudaGraphToolTip = m_cudaGraph->toolTip();

    auto* epochsRow = new QHBoxLayout;
    epochsRow->addWidget(m_epochs, 1);
    epochsRow->addWidget(m_scaleSchedule);
    auto* cudaRow = new QHBoxLayout;
    cudaRow->addWidget(m_precision);
    cudaRow->addWidget(m_cudaGraph);
    cudaRow->addStretch();

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Epochs"), epochsRow);
    form->addRow(tr("Batch size"), m_batch);
    form->addRow(tr("Learning rate"), m_lr);
    form->addRow(tr("Weight decay lambda"), m_weightDecay);
    form->addRow(tr("Warm-up epochs"), m_warmup);
    form->addRow(tr("LR decays"), m_schedule);
    form->addRow(tr("Evaluate every"), m_evalEvery);
    form->addRow(m_augment);
    form->addRow(tr("Device"), m_device);
    form->addRow(tr("GPU options"), cudaRow);
    form->addRow(tr("Seed"), m_seed);

    const auto edited = [this] {
        if (!m_loading) {
            emit changed();
        }
    };
    connect(m_epochs, &QSpinBox::valueChanged, this, [this](int epochs) {
        if (m_loading) {
            return;
        }
        emit epochsChanged(epochs);
        emit changed();
    });
    for (QSpinBox* box : {m_batch, m_warmup, m_evalEvery, m_seed}) {
        connect(box, &QSpinBox::valueChanged, this, edited);
    }
    for (QDoubleSpinBox* box : {m_lr, m_weightDecay}) {
        connect(box, &QDoubleSpinBox::valueChanged, this, edited);
    }
    connect(m_precision, &QComboBox::currentIndexChanged, this, edited);
    for (QCheckBox* box : {m_augment, m_cudaGraph, m_scaleSchedule}) {
        connect(box, &QCheckBox::toggled, this, edited);
    }
    connect(m_device, &QComboBox::currentIndexChanged, this, edited);
    connect(m_device, &QComboBox::currentIndexChanged, this, &RunSection::updateGpuOptions);
    connect(this, &RunSection::changed, this, [this] {
        lbd::TrainConfig config;
        apply(config);
        QStringList parts;
        for (size_t i = 0; i < config.optimizer.decayEpochs.size(); ++i) {
            parts << tr("x%1 from epoch %2").arg(config.optimizer.decayFactors[i]).arg(config.optimizer.decayEpochs[i]);
        }
        m_schedule->setText(parts.isEmpty() ? tr("none") : parts.join(QStringLiteral(", ")));
    });
    load(lbd::TrainConfig{});
    updateGpuOptions();
}

void RunSection::updateGpuOptions()
{
    // Precision and the CUDA graph only exist on a GPU: greyed on the CPU, with the reason.
    const bool gpu = m_device->currentData().toString() != QLatin1String("cpu");
    m_precision->setEnabled(gpu);
    m_cudaGraph->setEnabled(gpu);
    const QString why = tr("Disabled: the device is the CPU, which trains in fp32 without CUDA graphs.");
    m_precision->setToolTip(gpu ? m_precisionToolTip : why);
    m_cudaGraph->setToolTip(gpu ? m_cudaGraphToolTip : why);
    if (dataParallelRanks() > 1) { // the engine captures no graph when the ranks all-reduce each step
        m_cudaGraph->setEnabled(false);
        m_cudaGraph->setToolTip(tr("Disabled: a data-parallel run is not captured in a CUDA graph (the gradients' "
                                   "all-reduce between the GPUs is not part of the graph)."));
    }
}

void RunSection::fillDevices()
{
    m_device->addItem(tr("CPU"), QStringLiteral("cpu"));
    const QStringList gpus = visibleGpus();
    m_gpuCount = int(gpus.size());
    for (const QString& text : gpus) {
        // "cuda:0 NVIDIA H100 80GB HBM3": the first word is the device name the engine parses.
        m_device->addItem(text, text.section(QLatin1Char(' '), 0, 0));
    }
    if (gpus.size() > 1) {
        m_device->addItem(tr("All %1 GPUs (data-parallel)").arg(gpus.size()), QString::fromLatin1(kAllGpus));
        m_device->setItemData(
            m_device->count() - 1,
            tr("Trains one run on all %1 GPUs: Start runs `lbd train --gpus %1`, one process per GPU, and follows its run "
               "folder live. Each GPU trains 1/%1 of every batch (the batch size stays the global batch, so each GPU "
               "sees batch/%1 images); the gradients are averaged over the GPUs (NCCL all-reduce) after every step, so "
               "the steps are those of one device on the whole batch, except batch norm: its statistics are each "
               "GPU's own share unless the config sets train.sync_bn. Limits: no Pause (Stop stops every process "
               "after the same batch and keeps the checkpoint); no CUDA graph (the all-reduce is not captured); the "
               "pages fill once per epoch (no batch progress); the batch size must be at least 2 per GPU.")
                .arg(gpus.size()),
            Qt::ToolTipRole);
    }
    if (m_device->count() > 1) {
        m_device->setCurrentIndex(1);
    }
}

void RunSection::load(const lbd::TrainConfig& config)
{
    m_loading = true;
    m_baseOptimizer = config.optimizer;
    m_baseAugment = config.augment;
    m_baseTrain = config.train;
    m_loadedEpochs = config.train.epochs;
    m_epochs->setValue(config.train.epochs);
    m_batch->setValue(int(config.train.batchSize));
    m_lr->setValue(config.optimizer.learningRate);
    m_weightDecay->setValue(config.optimizer.weightDecay);
    m_warmup->setValue(config.optimizer.warmupEpochs);
    m_evalEvery->setValue(config.train.evalEvery);
    m_augment->setChecked(config.augment.enabled);
    describeAugmentation(config.augment);
    m_seed->setValue(int(config.train.seed));
    m_precision->setCurrentIndex(std::max(0, m_precision->findData(static_cast<int>(config.train.precision))));
    m_cudaGraph->setChecked(config.train.cudaGraph);
    const QString device = QString::fromStdString(config.train.device);
    const int index = m_device->findData(device);
    if (index >= 0) {
        m_device->setCurrentIndex(index);
    } else if (device == QLatin1String("auto") || device == QLatin1String("cuda")) {
        m_device->setCurrentIndex(m_device->count() > 1 ? 1 : 0);
    } else {
        m_device->setCurrentIndex(0); // a GPU this machine does not have
    }
    m_loading = false;
    emit changed();
}

void RunSection::setEpochs(int epochs)
{
    m_epochs->setValue(epochs);
}

void RunSection::apply(lbd::TrainConfig& config) const
{
    config.optimizer = m_baseOptimizer;
    config.augment = m_baseAugment;
    config.train.epochs = m_epochs->value();
    config.train.batchSize = m_batch->value();
    config.train.evalEvery = m_evalEvery->value();
    config.train.checkpointEvery = m_baseTrain.checkpointEvery;
    config.train.threads = m_baseTrain.threads;
    config.train.channelsLast = m_baseTrain.channelsLast;
    config.train.seed = static_cast<uint64_t>(m_seed->value());
    const QString device = m_device->currentData().toString();
    config.train.device = device == QLatin1String(kAllGpus) ? "cuda" : device.toStdString(); // rank r on cuda:r
    config.train.precision = static_cast<lbd::Precision>(m_precision->currentData().toInt());
    config.train.cudaGraph = m_cudaGraph->isChecked();
    config.optimizer.learningRate = m_lr->value();
    config.optimizer.weightDecay = m_weightDecay->value();
    config.optimizer.warmupEpochs = m_warmup->value();
    config.augment.enabled = m_augment->isChecked();
    if (m_scaleSchedule->isChecked() && m_loadedEpochs > 0 && config.train.epochs != m_loadedEpochs) {
        for (int& epoch : config.optimizer.decayEpochs) {
            epoch = int(std::lround(double(epoch) * config.train.epochs / m_loadedEpochs));
        }
    }
}

int RunSection::epochs() const { return m_epochs->value(); }

int RunSection::dataParallelRanks() const
{
    return m_device->currentData().toString() == QLatin1String(kAllGpus) ? m_gpuCount : 1;
}
bool RunSection::scalesSchedule() const { return m_scaleSchedule->isChecked(); }

// The check box names the training augmentation the loaded config has (the CIFAR recipe's padded
// crop and rotation, or ImageNet's resized crop and colour jitter), not one fixed recipe.
void RunSection::describeAugmentation(const AugmentSpec& spec)
{
    QStringList parts, details;
    if (spec.randomResizedCrop) {
        parts << tr("resized crop");
        details << tr("a random box of %1 to 100 % of the image's area, aspect ratio 3/4 to 4/3, resized to %2 pixels "
                      "(ImageNet's RandomResizedCrop)")
                       .arg(spec.cropScaleMin * 100, 0, 'g', 3)
                       .arg(spec.outputSize);
    } else {
        parts << tr("crop");
        details << tr("a random crop of %1 pixels with %2-pixel zero padding").arg(spec.outputSize).arg(spec.padding);
    }
    if (spec.horizontalFlip) {
        parts << tr("flip");
        details << tr("horizontal flip");
    }
    if (spec.maxRotationDegrees > 0) {
        parts << tr("rotation");
        details << tr("rotation in [-%1, %1] degrees").arg(spec.maxRotationDegrees);
    }
    if (spec.brightness > 0 || spec.contrast > 0 || spec.saturation > 0) {
        parts << tr("colour jitter");
        details << tr("colour jitter (brightness %1, contrast %2, saturation %3)")
                       .arg(spec.brightness)
                       .arg(spec.contrast)
                       .arg(spec.saturation);
    }
    m_augment->setText(tr("Augmentation (%1)").arg(parts.join(QStringLiteral(", "))));
    m_augment->setToolTip(tr("The training batches are augmented on the device: %1. Evaluation sees the centre of each "
                             "image, unaugmented. (Set in the preset or config file.)")
                              .arg(details.join(QStringLiteral(", "))));
}

} // namespace lbd::ui
