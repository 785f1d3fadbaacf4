#pragma once
// Which of a study's runs train fused (`lbd study --fuse G`, core/train/fusedrungroup.h), and the
// threads that train one fused group. Runs are fused only where their steps can be one step:
// the same model (architecture, particles, cosine scale), the same data and image size (so the
// same training-set size: the long-tail and split seeds may differ), the same batch size, device
// and precision. The seeds of one cell fuse, and so do cells that differ only in the objective or
// the optimiser (each run keeps its own). Every other run trains alone, with the reason said.
#include "core/train/trainconfig.h"

#include <functional>
#include <string>
#include <vector>

namespace lbd {

class FusedMember;

struct FusedGroupPlan {
    std::vector<std::vector<int>> groups; // run indices; a group of one trains as usual
    std::vector<std::string> notes;       // why runs were not fused, one line each
};

// Groups `runs` (indices, in order) of at most `maxGroup` runs; configOf(index) is the run's config.
FusedGroupPlan planFusedGroups(const std::vector<int>& runs, const std::function<TrainConfig(int)>& configOf, int maxGroup);

// Why a run with this config is never fused; nothing when it may be.
std::optional<std::string> fusionRefusal(const TrainConfig& config);

// --fuse auto: on a CUDA device, as many runs as its memory holds at a rule-of-thumb share per run
// (kAutoFuseBytesPerRun; not measured), at most kAutoFuseMax; 1 on the CPU, where fusing gains
// nothing (the cores, not kernel launches, bound a step).
inline constexpr int kAutoFuseMax = 8;
int automaticFuseCount(const std::string& device);

// Trains `runs` as one fused group: trainRun(index, member) on a thread per run, the run leaving
// the group when its call returns or throws (the exception is the caller's to catch inside).
void trainFusedGroup(const std::vector<int>& runs, const std::function<void(int index, FusedMember* member)>& trainRun);

} // namespace lbd
