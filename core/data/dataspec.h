#pragma once
// Which data set to train on and how to make it long-tailed: the data part of a run's config.
// No torch here: the GUI's experiment panel edits this value type.
#include <cstdint>
#include <string>

#include "core/data/longtailspec.h"
#include "core/data/syntheticspec.h"

namespace lbd {

enum class DatasetKind { FashionMnist, Mnist, Cifar10, Cifar100, Folder, List, Synthetic };

std::string datasetKindName(DatasetKind kind); // "fashion-mnist", "mnist", "cifar10", "cifar100", "folder", "list", "synthetic"
DatasetKind parseDatasetKind(const std::string& text);

struct DataSpec {
    DatasetKind kind = DatasetKind::FashionMnist;
    std::string directory;      // empty: the kind's default (Fashion-MNIST: /usr/share/datasets/fashion-mnist)
    std::string trainList;      // list files (kind List): relative to `directory` or absolute
    std::string testList;
    std::string classNamesFile; // list files: optional class names, one per line
    std::string validationList; // list files: optional validation list (instead of longTail.validationFraction)
    int64_t channels = 3;       // image folders / list files are converted to this ...
    int64_t imageSize = 32;     // ... and resized to imageSize x imageSize
    double heldOutFraction = 0.2;       // image folders without train/ and test/
    int64_t maxInMemoryBytes = int64_t(4) << 30; // larger user data sets are streamed from disk
    SyntheticSpec synthetic;
    LongTailSpec longTail;

    void validate() const; // throws InputError naming the field
};

} // namespace lbd
