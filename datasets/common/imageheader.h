#pragma once
// The size an image file claims, read from its first bytes without decoding it: lets the decoder
// refuse a huge image before OpenCV allocates for it. Plain byte parsing (no OpenCV, no torch), so
// it is fuzzed on its own (tools/fuzz/).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "datasets/common/readlimits.h"

namespace lbd {

struct ImageHeader {
    std::string format; // "PNG", "JPEG", "BMP", "WebP", "PNM", "TIFF", "GIF"
    int64_t width = -1; // -1: the format was recognised but its size could not be read
    int64_t height = -1;

    bool sizeKnown() const { return width >= 0 && height >= 0; }
};

// The header of PNG, JPEG, BMP, WebP (VP8, VP8L, VP8X), PNM (P1-P7), TIFF (both byte orders) and
// GIF data; nullopt for anything else (OpenCV may still decode it).
std::optional<ImageHeader> parseImageHeader(const uint8_t* data, size_t size);

// Throws InputError naming `label` when the header refuses the image: a GIF (Debian's OpenCV
// cannot decode it), or more pixels than limits.maxImagePixels. Unknown or unreadable headers pass:
// OpenCV decides, under its own cap of 2^30 pixels (OPENCV_IO_MAX_IMAGE_PIXELS).
void checkImageHeader(const uint8_t* data, size_t size, const std::string& label, const ReadLimits& limits);

// The first `count` bytes of `path` (fewer when it is shorter). Throws InputError naming it when
// it cannot be read.
std::vector<uint8_t> readFileHead(const std::string& path, size_t count);

} // namespace lbd
