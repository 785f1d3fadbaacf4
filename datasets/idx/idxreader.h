#pragma once
// IDX files (MNIST, Fashion-MNIST), gzip-compressed or raw.
#include <cstdint>
#include <string>
#include <vector>

#include "datasets/common/rawdataset.h"

namespace lbd {

// The unsigned-byte array stored in an IDX file (magic 0x0000080N, N dimensions, big-endian sizes).
struct IdxArray {
    std::vector<int64_t> shape;
    std::vector<uint8_t> values; // row-major, shape's product bytes
};

IdxArray readIdxFile(const std::string& path);

// A directory with train-images-idx3-ubyte[.gz], train-labels-idx1-ubyte[.gz], t10k-images-...,
// t10k-labels-... Images come back as N x 1 x 28 x 28.
RawDataset readIdxDirectory(const std::string& directory, const std::string& name,
                            const std::vector<std::string>& classNames);

// The descriptors' class names (and the readers'): one list each.
const std::vector<std::string>& fashionMnistClassNames();
const std::vector<std::string>& mnistClassNames();

} // namespace lbd
