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
    ImageFormat format;   // channels and size after decoding, and the background alpha is composited on
    ReadLimits limits;    // a split larger than limits.maxInMemoryBytes is streamed from disk
    int decodeThreads = 0; // 0 = hardware concurrency
    BadFilePolicy onBadFile = BadFilePolicy::Skip; // data.on_bad_file
};

// A split where more than this share of the files cannot be read is refused even under
// data.on_bad_file skip: that is the wrong folder or a broken copy, not a few bad files.
inline constexpr double kMostFilesBad = 0.5;

// The channels of image files converted "from the images" (channels 0): 1 when every image of a
// sample of `paths` (up to 256, spread over the list, first and last included) is grey (its red,
// green and blue are equal everywhere, transparency composited on `background`), else 3. Files
// that cannot be decoded are passed over (makeImageFileSplit reports them).
int64_t channelsOfImages(const std::vector<std::string>& paths, const ReadLimits& limits,
                         const AlphaBackground& background = kWhiteBackground);

// `format` with its channels taken from the images when they are 0 (channelsOfImages).
ImageFormat resolvedImageFormat(ImageFormat format, const std::vector<std::string>& paths, const ReadLimits& limits);

// Decodes the split into memory (or keeps the paths when it is over the memory budget). A file that
// cannot be read (empty, corrupt, not an image; for a streamed split: empty or not an image by its
// first bytes) is left out and listed in report.skipped under data.on_bad_file skip, and refused
// (InputError naming it) under refuse; `splitName` ("training", "test") names the split when most
// of its files fail. Counts of composited and turned images go to `report` too.
RawSplit makeImageFileSplit(std::vector<std::string> paths, std::vector<int64_t> labels, const ImageFileOptions& options,
                            DataReport& report, const std::string& splitName);

// Reorders classes by training count, descending (ties by name), relabelling every split:
// lbd-math.md section 1 requires index 0 to be the most frequent class.
void orderClassesByTrainCount(RawDataset& dataset);

// What image folders and list files do once their splits are read: refuse a class that kept no
// training image (all of its files were bad), order classes head to tail, and run the data check
// (datacheck.h) into dataset.report, which names `background`.
void finishImageFileDataset(RawDataset& dataset, const AlphaBackground& background);

bool hasImageExtension(const std::string& path);

} // namespace lbd
