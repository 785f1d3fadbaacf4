#pragma once
// PNG data without its ancillary chunks that say nothing about the pixels a decoder returns
// (iCCP, sRGB, gAMA, cHRM, text, time, EXIF, ...). libpng reports a damaged one of these as a
// warning printed straight to stderr ("libpng warning: iCCP: known incorrect sRGB profile")
// when the reader installs no warning handler, as OpenCV's does not; the app's own message then
// came after a line the user could not place. The decoders neither apply colour profiles nor
// gamma, so the pixels are the same without these chunks. Plain byte parsing: no libpng.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lbd {

bool isPngData(const uint8_t* data, size_t size);

// The PNG's critical chunks (IHDR, PLTE, IDAT, IEND) and tRNS (transparency: part of the pixels)
// in their order, bytes and CRCs unchanged; every other chunk dropped. Data that is not a PNG, or
// whose chunks do not parse, comes back unchanged: the decoder then reports what is wrong with it.
std::vector<uint8_t> withoutAncillaryPngChunks(const uint8_t* data, size_t size);

} // namespace lbd
