#pragma once
// The out-of-distribution caution of a run folder (core/eval/oodscore.h) fitted and measured
// afterwards: runs trained elsewhere (a GPU machine) or before the caution existed get their
// ood.json here, and `lbd ood RUN --measure` reports how well the score separates the run's
// test set from a folder of foreign images and from uniform noise.
#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/eval/oodscore.h"

namespace lbd {

// Re-reads the run's data (its saved split), scores its validation split (or its training images
// when it has none) with the checkpoint's model and writes RUN/ood.json. InputError naming what is
// wrong when the run or its data cannot be read.
OodFit fitRunOod(const std::string& runDirectory, const std::string& device = "cpu");

struct OodMeasureOptions {
    std::string oodFolder;   // image files (searched recursively); empty: none
    int64_t noiseImages = 0; // uniform-noise images in the run's format
    uint64_t seed = 0;       // of the noise
    std::string device = "cpu";
};

// AUROC of both scores, in-distribution = the run's test set, against the folder's images and
// against noise, with the share of each set the caution flags. Needs the run's ood.json.
nlohmann::json measureRunOod(const std::string& runDirectory, const OodMeasureOptions& options);

} // namespace lbd
