#pragma once
// What image folders and list files share: turning (path, label) lists into a DataSplit, decoded
// into memory when it fits and streamed otherwise, and ordering user classes head to tail.
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset.h"

namespace lbd {

struct ImageFileOptions {
    ImageFormat format;                         // channels and size after decoding
    int64_t maxInMemoryBytes = int64_t(4) << 30; // larger splits are streamed from disk
    int decodeThreads = 0;                      // 0 = hardware concurrency
};

DataSplit makeImageFileSplit(std::vector<std::string> paths, std::vector<int64_t> labels, const ImageFileOptions& options);

// Reorders classes by training count, descending (ties by name), relabelling both splits:
// lbd-math.md section 1 requires index 0 to be the most frequent class.
void orderClassesByTrainCount(Dataset& dataset);

bool hasImageExtension(const std::string& path);

} // namespace lbd
