#pragma once
// Runs that differ only in their seed are one experiment repeated: the Runs page shows them as
// one group with mean ± sample std per metric, computed by summarizeSample so that the numbers
// are the ones a study's table prints. Torch-free: it reads config.json files only.
#include "core/train/runsummary.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

// A config without what only names or seeds a repeat: "name", "train.seed", "data.seed" and
// "data.synthetic.seed" (written into every run's config.json: it follows data.seed unless a
// config names it, so keeping it would split `lbd train --seed N` repeats of synthetic data).
nlohmann::json seedFreeConfig(nlohmann::json config);

struct RunGroup {
    std::string name;               // the first member's config name (or folder name)
    std::vector<size_t> members;    // indices into the runs given, in their order
    std::vector<int64_t> seeds;     // train.seed of each member (same order; 0 when unreadable)
};

// Groups `runs` by seedFreeConfig(config.json). A run whose config.json cannot be read is a
// group of its own. Groups are in the order of their first member.
std::vector<RunGroup> groupRunsBySeed(const std::vector<RunSummary>& runs);

} // namespace lbd
