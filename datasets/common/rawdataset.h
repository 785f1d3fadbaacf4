#pragma once
// What every reader returns: images and labels in plain vectors, no torch, so that a reader is
// bytes in, images and labels out (cheap to fuzz and to run under sanitizers). core/data turns a
// RawDataset into its tensor Dataset without copying the pixels (core/data/dataset.h).
#include <cstdint>
#include <string>
#include <vector>

#include "datasets/common/datareport.h"
#include "datasets/common/decoderules.h"

namespace lbd {

// Channels and size of every image of a data set (decoded image files are converted to it).
struct ImageFormat {
    int64_t channels = 3;
    int64_t height = 32;
    int64_t width = 32;
    // What transparent pixels of image files are composited on (data.alpha_background): part of
    // the decoded image, so it travels wherever images are decoded (streaming, caches, predictor).
    AlphaBackground background = kWhiteBackground;

    int64_t bytesPerImage() const { return channels * height * width; }
};

struct RawSplit {
    std::vector<uint8_t> pixels;    // N x C x H x W, channel-major; empty when streamed
    std::vector<int64_t> labels;    // N, in 0..classCount-1
    std::vector<std::string> files; // image paths when the split is streamed from disk, else empty

    int64_t size() const { return static_cast<int64_t>(labels.size()); }
    bool isStreamed() const { return !files.empty(); }
};

struct RawDataset {
    std::string name;                    // "fashion-mnist", "cifar10", "folder:/path", "list:/path", ...
    std::vector<std::string> classNames; // index -> name
    ImageFormat format;                  // of every image of every split
    RawSplit train;
    RawSplit test;
    RawSplit validation; // only where the data set ships one (a list file's val_list); else empty
    DataReport report;   // image files and lists: what was left out or ignored, and the data check

    int64_t classCount() const { return static_cast<int64_t>(classNames.size()); }
};

// "class 0", "class 1", ...: the names of classes that the data does not name.
std::vector<std::string> numberedClassNames(int64_t count);

// Images per class in `labels`, for `classCount` classes (labels outside the range are not counted).
std::vector<int64_t> countPerClass(const std::vector<int64_t>& labels, int64_t classCount);

// Throws InputError naming `source` if any label is outside [0, classCount).
void checkLabelRange(const std::vector<int64_t>& labels, int64_t classCount, const std::string& source);

} // namespace lbd
