#pragma once
// Long-tailed training sets (lbd-math.md section 1). The split is a pure function of
// (dataset, profile, ratio, seed), saved with every run so it can be reproduced.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/data/dataset.h"

namespace lbd {

enum class LongTailProfile { Exponential, Step };

struct LongTailSpec {
    LongTailProfile profile = LongTailProfile::Exponential;
    double imbalanceRatio = 100.0; // n_max / n_min; 1 keeps the data set as it is
    uint64_t seed = 0;

    void validate() const; // throws InputError naming imbalance_ratio
};

std::string profileName(LongTailProfile profile); // "exp", "step"
LongTailProfile parseProfile(const std::string& text);

// Target images per class for `classCount` classes and n_max: exponential
// n_c = int(n_max * (1/rho)^(c/(C-1))); step: the first floor(C/2) keep n_max, the rest n_max/rho.
std::vector<int64_t> longTailCounts(int64_t maxCount, int64_t classCount, const LongTailSpec& spec);

struct LongTailSplit {
    std::string dataset;
    LongTailSpec spec;
    std::vector<int64_t> classCounts;  // kept training images per class
    std::vector<int64_t> trainIndices; // rows of the full training split, ascending
};

// Seeded subset of each class (min(available, target) images).
LongTailSplit makeLongTailSplit(const Dataset& dataset, const LongTailSpec& spec);

// The training split restricted to `split` (checks that it belongs to this dataset).
DataSplit applyLongTailSplit(const Dataset& dataset, const LongTailSplit& split);

nlohmann::json toJson(const LongTailSplit& split);
LongTailSplit longTailSplitFromJson(const nlohmann::json& json, const std::string& source);
void saveLongTailSplit(const LongTailSplit& split, const std::string& path);   // atomic
LongTailSplit loadLongTailSplit(const std::string& path);

} // namespace lbd
