#pragma once
// Which data set to read and how: the settings every reader is given (core's DataSpec adds the
// long-tail settings on top). A value type without torch or Qt: the GUI edits it directly.
#include <cstdint>
#include <string>

#include "datasets/common/datareport.h"
#include "datasets/common/decoderules.h"
#include "datasets/common/readlimits.h"
#include "datasets/synthetic/syntheticspec.h"

namespace lbd {

struct DatasetOptions {
    std::string dataset = "fashion-mnist"; // a catalogue name (datasets/catalogue.h)
    std::string directory;      // empty: the entry's default location (Fashion-MNIST: /usr/share/datasets/fashion-mnist)
    std::string trainList;      // list files: relative to `directory` or absolute
    std::string testList;
    std::string classNamesFile; // list files: optional class names, one per line
    std::string validationList; // list files: optional validation list (instead of a held-out fraction)
    int64_t channels = 0;       // image folders / list files are converted to this (0: from the images,
                                // 1 when every image is grey, else 3) ...
    int64_t imageSize = 32;     // ... and resized to imageSize x imageSize
    double heldOutFraction = 0.2; // image folders without train/ and test/
    // Image folders and list files: what transparent pixels are composited on, and what an
    // unreadable, empty or non-image file does (datasets/common/decoderules.h, datareport.h).
    AlphaBackground alphaBackground = kWhiteBackground;
    BadFilePolicy onBadFile = BadFilePolicy::Skip;
    SyntheticSpec synthetic;
    ReadLimits limits;          // the memory budget, and every other limit on what a reader takes
};

} // namespace lbd
