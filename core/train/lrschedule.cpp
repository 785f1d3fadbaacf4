#include "core/train/lrschedule.h"

namespace lbd {

double learningRateForEpoch(const OptimizerSpec& optimizer, int epoch)
{
    // As the published code: lr * epoch / warmup during the first `warmup` epochs.
    if (optimizer.warmupEpochs > 0 && epoch <= optimizer.warmupEpochs) {
        return optimizer.learningRate * static_cast<double>(epoch) / static_cast<double>(optimizer.warmupEpochs);
    }
    double factor = 1.0;
    for (size_t i = 0; i < optimizer.decayEpochs.size(); ++i) {
        // "lr x0.01 from epoch 160": decayEpochs are the first epochs (1-based) of each step.
        if (epoch >= optimizer.decayEpochs[i]) {
            factor = optimizer.decayFactors[i];
        }
    }
    return optimizer.learningRate * factor;
}

} // namespace lbd
