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
        // The published LambdaLR counts epochs from 0 and decays when that count reaches
        // stage1 = 160: the first decayed epoch is the 161st. decayEpochs are the last epochs
        // (1-based) at the previous rate.
        if (epoch > optimizer.decayEpochs[i]) {
            factor = optimizer.decayFactors[i];
        }
    }
    return optimizer.learningRate * factor;
}

} // namespace lbd
