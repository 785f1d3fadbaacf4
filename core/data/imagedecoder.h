#pragma once
// Image-file decoding: the only part of core that needs OpenCV. A build without OpenCV still
// trains on IDX and CIFAR files; these functions then throw InputError saying so.
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset.h"

namespace lbd {

bool imageDecodingAvailable();

// Decodes `path`, converts it to `format.channels` (1 = grey, 3 = RGB) and resizes it to
// format.height x format.width, writing C*H*W bytes (channel-major) to `out`.
// Throws InputError naming the file when it is missing or cannot be decoded.
void decodeImageFile(const std::string& path, const ImageFormat& format, uint8_t* out);

// The same for encoded bytes in memory (a pasted or dropped image); `label` names it in errors.
void decodeImageBytes(const std::vector<uint8_t>& bytes, const std::string& label, const ImageFormat& format, uint8_t* out);

// Decodes many files on `threads` worker threads into uint8 [N, C, H, W].
torch::Tensor decodeImageFiles(const std::vector<std::string>& paths, const ImageFormat& format, int threads);

// Writes uint8 [C, H, W] as an image file (PNG/JPEG by extension); used by tests and demos.
void writeImageFile(const std::string& path, const torch::Tensor& image);

} // namespace lbd
