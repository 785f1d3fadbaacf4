#pragma once
// Small data files the tests write: IDX (raw or gzip), CIFAR binaries, image folders.
#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

namespace lbd::test {

std::vector<uint8_t> idxBytes(const torch::Tensor& uint8Data); // magic 0x0000080N + sizes + data
void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes);
void writeGzip(const std::string& path, const std::vector<uint8_t>& bytes);

// A 4-file IDX directory: `trainCount` / `testCount` 28x28 images with labels i % 10.
void writeIdxDirectory(const std::string& directory, int64_t trainCount, int64_t testCount, bool gzip);

} // namespace lbd::test
