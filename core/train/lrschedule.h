#pragma once
// The learning rate of an epoch (1-based): linear warm-up, then step decay (lbd-math.md 4).
#include "core/train/trainconfig.h"

namespace lbd {

double learningRateForEpoch(const OptimizerSpec& optimizer, int epoch);

} // namespace lbd
