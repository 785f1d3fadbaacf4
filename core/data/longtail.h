#pragma once
// Long-tailed training sets (lbd-math.md section 1). The split is a pure function of
// (dataset, profile, ratio, seed), saved with every run so it can be reproduced.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/data/dataset.h"
#include "core/data/longtailspec.h"

namespace lbd {

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
