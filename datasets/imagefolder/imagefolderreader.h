#pragma once
// Image folders: root/<class>/*.png|jpg|..., either with train/ and test/ subfolders or with a
// seeded held-out test fraction per class.
#include <cstdint>
#include <string>

#include "datasets/common/imagefiles.h"
#include "datasets/common/rawdataset.h"

namespace lbd {

struct ImageFolderOptions {
    ImageFileOptions files;
    double heldOutFraction = 0.2; // used when root has no train/ and test/ subfolders
    uint64_t seed = 0;            // for the held-out draw
};

RawDataset readImageFolder(const std::string& root, const ImageFolderOptions& options);

} // namespace lbd
