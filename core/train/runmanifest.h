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
RunManifest readRunManifest(const RunFolder& folder); // InputError naming run.json

} // namespace lbd
