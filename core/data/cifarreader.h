#pragma once
// CIFAR-10 and CIFAR-100 in their binary versions.
#include <string>

#include "core/data/dataset.h"

namespace lbd {

// data_batch_1..5.bin + test_batch.bin (label byte + 3072 pixel bytes per record); class names
// from batches.meta.txt when present. `directory` may also be the parent of cifar-10-batches-bin.
Dataset loadCifar10(const std::string& directory);

// train.bin + test.bin (coarse byte, fine byte, 3072 pixel bytes); the fine labels are used and
// named from fine_label_names.txt when present. `directory` may be the parent of cifar-100-binary.
Dataset loadCifar100(const std::string& directory);

} // namespace lbd
