#pragma once
// A finished (or stopped) run opened for use: its config, manifest, utility matrix, decision
// rule and the particle model restored from the last checkpoint, in evaluation mode.
#include <string>

#include "core/eval/decisionrule.h"
#include "core/infer/rundecisions.h"
#include "core/lbd/utilitymatrix.h"
#include "core/model/particlemodel.h"
#include "core/train/runmanifest.h"
#include "core/train/trainconfig.h"

namespace lbd {

struct LoadedRun {
    std::string directory;
    TrainConfig config;
    RunManifest manifest;
    ModelSpec modelSpec;
    RunDecisions decisions; // the run's decision matrix, rule and defer utility (and notes)
    ParticleModel model{nullptr};
    int epoch = 0; // of the checkpoint
};

// Throws InputError naming the file when the folder is not a run or a file is damaged.
LoadedRun loadRun(const std::string& directory, const torch::Device& device);

} // namespace lbd
