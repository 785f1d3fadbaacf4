#pragma once
// List files in the ImageNet-LT format: one "relative/path label" per line, paths relative to
// an image root. Class names come from an optional names file (one per line, in label order).
#include <string>

#include "datasets/common/imagefiles.h"
#include "datasets/common/rawdataset.h"

namespace lbd {

struct ListFileOptions {
    ImageFileOptions files;
    std::string classNamesFile; // optional
    std::string validationList; // optional: a validation split shipped with the data (ImageNet-LT's val list)
};

RawDataset readListFiles(const std::string& imageRoot, const std::string& trainList, const std::string& testList,
                         const ListFileOptions& options);

} // namespace lbd
