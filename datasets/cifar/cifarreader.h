#pragma once
// CIFAR-10 and CIFAR-100 in their binary versions.
#include <string>
#include <vector>

#include "datasets/common/rawdataset.h"
#include "datasets/common/readlimits.h"

namespace lbd {

// data_batch_1..5.bin + test_batch.bin (label byte + 3072 pixel bytes per record); class names
// from batches.meta.txt when present. `directory` may also be the parent of cifar-10-batches-bin.
// The files together must fit limits.maxInMemoryBytes (InputError naming the file that does not).
RawDataset readCifar10(const std::string& directory, const ReadLimits& limits = {});

// train.bin + test.bin (coarse byte, fine byte, 3072 pixel bytes); the fine labels are used and
// named from fine_label_names.txt when present. `directory` may be the parent of cifar-100-binary.
RawDataset readCifar100(const std::string& directory, const ReadLimits& limits = {});

// The class names the readers give for `directory` (batches.meta.txt / fine_label_names.txt when
// the data folder has them, else the published names / "class i"): one function for the reader
// and the GUI's instant preview, which calls it before reading any image. Never throws.
std::vector<std::string> cifar10ClassNames(const std::string& directory);
std::vector<std::string> cifar100ClassNames(const std::string& directory);

} // namespace lbd
