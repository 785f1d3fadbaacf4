#include "core/train/schedulefit.h"

#include <algorithm>
#include <cmath>

namespace lbd {

int epochsForSmallData(int epochs, int64_t trainImages, int64_t batchSize)
{
    if (trainImages <= 0 || batchSize <= 0 || epochs <= 0) {
        return epochs;
    }
    const int64_t stepsPerEpoch = (trainImages + batchSize - 1) / batchSize; // the last, smaller batch is a step too
    const int64_t needed = (kMinTrainingSteps + stepsPerEpoch - 1) / stepsPerEpoch;
    return static_cast<int>(std::max<int64_t>(epochs, std::min<int64_t>(needed, kMaxStretchedEpochs)));
}

void stretchSchedule(TrainConfig& config, int epochs)
{
    const int old = config.train.epochs;
    if (epochs == old || old <= 0) {
        return;
    }
    const double factor = double(epochs) / double(old);
    const auto scaled = [&](int epoch) { return int(std::lround(epoch * factor)); };
    config.train.epochs = epochs;
    config.objective.drwEpoch = std::min(epochs, scaled(config.objective.drwEpoch));
    for (int& epoch : config.optimizer.decayEpochs) {
        epoch = std::min(epochs, scaled(epoch));
    }
    config.optimizer.warmupEpochs = scaled(config.optimizer.warmupEpochs);
    config.objective.tau *= factor;
}

} // namespace lbd
