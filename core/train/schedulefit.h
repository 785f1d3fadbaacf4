#pragma once
// A preset's schedule is counted in epochs; on a user's small data set its epochs are too few
// optimizer steps to learn anything (the quick preset's 6 epochs are 30 steps on 517 images: 35 %
// accuracy on a digits folder, 90 % with 20 epochs). These stretch such a schedule to a minimum
// number of steps, keeping every epoch-based setting at its fraction of the run. Torch-free.
#include <cstdint>

#include "core/train/trainconfig.h"

namespace lbd {

inline constexpr int64_t kMinTrainingSteps = 300;
inline constexpr int kMaxStretchedEpochs = 200;

// The epochs that give at least kMinTrainingSteps steps of `batchSize` on `trainImages` images
// (at most kMaxStretchedEpochs), never fewer than `epochs`.
int epochsForSmallData(int epochs, int64_t trainImages, int64_t batchSize);

// The schedule of `config` stretched to `epochs`: the DRW epoch, the learning-rate decays, the
// warm-up and the repulsion's annealing tau keep their fractions of the run.
void stretchSchedule(TrainConfig& config, int epochs);

} // namespace lbd
