#pragma once
// IDX files (MNIST, Fashion-MNIST), gzip-compressed or raw.
#include <torch/torch.h>

#include <string>
#include <vector>

#include "core/data/dataset.h"

namespace lbd {

// The uint8 tensor stored in an IDX file (magic 0x0000080N, N dimensions, big-endian sizes).
torch::Tensor readIdxFile(const std::string& path);

// A directory with train-images-idx3-ubyte[.gz], train-labels-idx1-ubyte[.gz], t10k-images-...,
// t10k-labels-... Images come back as [N, 1, 28, 28].
Dataset loadIdxDirectory(const std::string& directory, const std::string& name,
                         const std::vector<std::string>& classNames);

const std::vector<std::string>& fashionMnistClassNames();
const std::vector<std::string>& mnistClassNames();
std::string defaultFashionMnistDirectory();

} // namespace lbd
