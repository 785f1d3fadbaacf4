#pragma once
// IDX files (MNIST, Fashion-MNIST), gzip-compressed or raw.
#include <cstdint>
#include <string>
#include <vector>

#include "datasets/common/rawdataset.h"
#include "datasets/common/readlimits.h"

namespace lbd {

// The unsigned-byte array stored in an IDX file (magic 0x0000080N, N dimensions, big-endian sizes).
struct IdxArray {
    std::vector<int64_t> shape;
    std::vector<uint8_t> values; // row-major, shape's product bytes
};

// Refused (InputError naming the file and the budget) when its header claims, or its data holds,
// more than what is left of limits.maxInMemoryBytes after `alreadyRead` bytes: the claim is
// checked before the data is read, so a small gzip file claiming 10 GB is refused at once.
IdxArray readIdxFile(const std::string& path, const ReadLimits& limits = {}, int64_t alreadyRead = 0);

// A directory with train-images-idx3-ubyte[.gz], train-labels-idx1-ubyte[.gz], t10k-images-...,
// t10k-labels-... Images come back as N x 1 x 28 x 28. The four files share limits.maxInMemoryBytes.
RawDataset readIdxDirectory(const std::string& directory, const std::string& name,
                            const std::vector<std::string>& classNames, const ReadLimits& limits = {});

// The descriptors' class names (and the readers'): one list each.
const std::vector<std::string>& fashionMnistClassNames();
const std::vector<std::string>& mnistClassNames();

} // namespace lbd
