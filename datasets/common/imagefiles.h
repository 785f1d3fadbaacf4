#pragma once
// What image folders and list files share: turning (path, label) lists into a RawSplit, decoded
// into memory when it fits the budget and streamed otherwise, and ordering user classes head to tail.
#include <cstdint>
#include <string>
#include <vector>

#include "datasets/common/rawdataset.h"
#include "datasets/common/readlimits.h"

namespace lbd {

struct ImageFileOptions {
    ImageFormat format;   // channels and size after decoding
    ReadLimits limits;    // a split larger than limits.maxInMemoryBytes is streamed from disk
    int decodeThreads = 0; // 0 = hardware concurrency
};

// The channels of image files converted "from the images" (channels 0): 1 when every image of a
// sample of `paths` (up to 256, spread over the list, first and last included) is grey (its red,
// green and blue are equal everywhere), else 3. Throws InputError naming a file that cannot be
// decoded.
int64_t channelsOfImages(const std::vector<std::string>& paths, const ReadLimits& limits);

// `format` with its channels taken from the images when they are 0 (channelsOfImages).
ImageFormat resolvedImageFormat(ImageFormat format, const std::vector<std::string>& paths, const ReadLimits& limits);

RawSplit makeImageFileSplit(std::vector<std::string> paths, std::vector<int64_t> labels, const ImageFileOptions& options);

// Reorders classes by training count, descending (ties by name), relabelling every split:
// lbd-math.md section 1 requires index 0 to be the most frequent class.
void orderClassesByTrainCount(RawDataset& dataset);

bool hasImageExtension(const std::string& path);

} // namespace lbd
