#pragma once
// run.json: what a run's model needs to be used later (class names and order, counts, image
// format, normalisation), and where it was trained.
#include <string>
#include <vector>

#include "core/data/augmentation.h"
#include "core/data/dataset.h"
#include "core/train/runfolder.h"

namespace lbd {

struct RunManifest {
    std::vector<std::string> classNames;
    std::vector<int64_t> trainCounts;
    std::vector<int64_t> testCounts;
    // Per class, when the run has a validation split; empty for none and for runs written before
    // they were recorded (then split.json's held-out counts, which a val_list run lacks).
    std::vector<int64_t> validationCounts;
    ImageFormat imageFormat;     // of the data set's images
    int64_t inputSize = 32;      // the model's input side (images are padded to it)
    Normalization normalization;
    std::string device;
    std::string lbdVersion;
    std::string torchVersion;
    std::string created;
};

void writeRunManifest(const RunFolder& folder, const Dataset& dataset, const std::vector<int64_t>& trainCounts,
                      const std::vector<int64_t>& testCounts, const Normalization& normalization, int64_t inputSize,
                      const std::string& device);
// InputError naming run.json and the field: a wrong type, or a value outside what
// writeRunManifest writes (checkManifest in runmanifest.cpp: 2..kMaxClasses class names, one
// non-negative count per class, 1 or 3 channels, sides and input_size within kMaxInputSize, one
// mean in [0, 1] and one std in [1e-3, 0.5] per channel).
RunManifest readRunManifest(const RunFolder& folder);

} // namespace lbd
