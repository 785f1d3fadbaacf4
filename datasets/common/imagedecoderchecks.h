#pragma once
// What every image decoder (imagedecoder_opencv.cpp, imagedecoder_libjpeg.cpp) checks before it
// decodes, so that each limit is one check in one place. imagedecoder.cpp implements these and the
// decoder-independent decodeImageFiles.
#include <cstdint>
#include <string>

#include "datasets/common/readlimits.h"

namespace lbd {

// Throws InputError naming `label` when `size` bytes is over limits.maxImageFileBytes.
void checkImageFileSize(int64_t size, const std::string& label, const ReadLimits& limits);

// Checks that `path` is a regular file within limits.maxImageFileBytes and returns its size in
// bytes; throws InputError naming it when it is missing, not a file or too large.
int64_t checkImageFile(const std::string& path, const ReadLimits& limits);

} // namespace lbd
