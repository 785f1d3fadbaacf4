// Image headers (PNG, JPEG, BMP, WebP, PNM, TIFF, GIF): bytes in memory, no file, no OpenCV.
#include "datasets/common/error.h"
#include "datasets/common/imageheader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const auto header = lbd::parseImageHeader(data, size);
    if (header && header->sizeKnown() && (header->width > (int64_t(1) << 40) || header->height > (int64_t(1) << 40))) {
        __builtin_trap(); // sizes stay in range, so their checks cannot overflow
    }
    try {
        lbd::checkImageHeader(data, size, "input", lbd::ReadLimits{});
    } catch (const lbd::InputError&) {
    }
    return 0;
}
