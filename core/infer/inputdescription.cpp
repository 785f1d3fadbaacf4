#include "core/infer/inputdescription.h"

#include <algorithm>

namespace lbd {
namespace {

std::string sizeText(int64_t width, int64_t height) { return std::to_string(width) + "x" + std::to_string(height); }

// The stored kind where it says more than colour or grey: alpha, a palette, CMYK, 16 bits.
std::string storedKind(const ImageFacts& facts, bool colour)
{
    const std::string& kind = facts.kind;
    std::string text = kind.empty() || kind == "RGB" || kind == "colour" || kind == "grey" ? (colour ? "colour" : "grey") : kind;
    if (facts.bitDepth == 16) {
        text = "16-bit " + text;
    }
    return text;
}

} // namespace

std::string describeInput(const DecodedImageInfo& decoded, bool colour, const ImageFormat& format, int64_t inputSize)
{
    std::string text = storedKind(decoded.facts, colour);
    text += decoded.format.empty() ? std::string(" image") : " " + decoded.format;
    // The size as a person sees it: a quarter turn swaps the stored sides.
    const bool turned = decoded.applied.orientation >= 5;
    const int64_t width = turned ? decoded.height : decoded.width;
    const int64_t height = turned ? decoded.width : decoded.height;
    const bool sized = width > 0 && height > 0;
    text += sized ? " " + sizeText(decoded.width, decoded.height) : std::string(" (size not read)");
    if (decoded.applied.scaledFrom16Bit) {
        text += ", scaled to 8 bits";
    }
    if (decoded.applied.cmykConverted) {
        text += ", CMYK converted to RGB";
    }
    if (decoded.applied.orientation != 1) {
        text += ", turned upright (EXIF orientation " + std::to_string(decoded.applied.orientation) + ")";
    }
    if (decoded.applied.composited) {
        text += ", composited on " + alphaBackgroundName(format.background);
    }
    const int64_t w = format.width;
    const int64_t h = format.height;
    if (sized && width == w && height == h) {
        text += ", kept at ";
    } else if (sized && width >= w && height >= h) {
        text += ", reduced to ";
    } else if (sized && width <= w && height <= h) {
        text += ", enlarged to ";
    } else {
        text += ", resized to ";
    }
    text += sizeText(w, h);
    if (format.channels == 1) {
        text += " grey";
    } else {
        text += colour ? " colour" : " colour (the grey copied to 3 channels)";
    }
    if (sized && width * h != height * w) {
        text += " (stretched: the aspect ratio is not kept)";
    }
    if (inputSize > std::max(w, h)) {
        text += ", padded to " + sizeText(inputSize, inputSize);
    } else if (inputSize < std::max(w, h)) {
        text += ", centre-cropped to " + sizeText(inputSize, inputSize);
    }
    return text;
}

} // namespace lbd
