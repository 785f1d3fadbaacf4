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
    std::vector<int64_t> classCounts;       // training images per class (after the validation hold-out)
    std::vector<int64_t> trainIndices;      // rows of the full training split, ascending
    std::vector<int64_t> validationCounts;  // held-out images per class (empty without a hold-out)
    std::vector<int64_t> validationIndices; // rows of the full training split, ascending
    // Held out for the out-of-distribution caution (LongTailSpec::cautionHoldout), never trained
    // on; empty when none is held out (a validation split or a left-out pool serves instead).
    std::vector<int64_t> cautionCounts;  // per class
    std::vector<int64_t> cautionIndices; // rows of the full training split, ascending
};

// Seeded subset of each class (min(available, target) images), then the seeded validation
// hold-out of spec.validationFraction of each class. Without a hold-out the split is exactly the
// one earlier versions drew for the same seed. With no validation split (neither val_fraction nor
// the data set's own) and fewer than kMinCautionHoldoutImages images left out by the long tail,
// spec.cautionHoldout of each class's kept images is held out for the caution instead (seeded,
// its own stream: the kept images are those of a split without it).
LongTailSplit makeLongTailSplit(const Dataset& dataset, const LongTailSpec& spec);

// The training split restricted to `split` (checks that it belongs to this dataset).
DataSplit applyLongTailSplit(const Dataset& dataset, const LongTailSplit& split);
// The held-out validation rows of the training split (empty without a hold-out).
DataSplit validationSplit(const Dataset& dataset, const LongTailSplit& split);
// The rows held out for the caution (empty without them).
DataSplit cautionHoldoutSplit(const Dataset& dataset, const LongTailSplit& split);

nlohmann::json toJson(const LongTailSplit& split);
LongTailSplit longTailSplitFromJson(const nlohmann::json& json, const std::string& source);
void saveLongTailSplit(const LongTailSplit& split, const std::string& path);   // atomic
LongTailSplit loadLongTailSplit(const std::string& path);

} // namespace lbd
