#include "datasets/common/decoderules.h"

#include "datasets/common/error.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

namespace lbd {
namespace {

// The sample of channel `c` of pixel `x` in `row`, 8-bit (16-bit samples scaled by the rule).
uint8_t sampleAt(const StoredPixels& stored, const uint8_t* row, int x, int c)
{
    const size_t index = static_cast<size_t>(x) * stored.channels + c;
    if (stored.sixteenBit) {
        uint16_t value = 0;
        std::memcpy(&value, row + 2 * index, sizeof value);
        return eightBitSample(value);
    }
    return row[index];
}

// Where output pixel (x, y) of an image shown upright comes from in the stored one (width w,
// height h), for EXIF orientation 1..8 (TIFF 6.0 tag 274: the 0th row / column it names).
void storedPosition(int orientation, int x, int y, int w, int h, int& sx, int& sy)
{
    switch (orientation) {
    case 2: sx = w - 1 - x; sy = y; break;         // mirrored left-right
    case 3: sx = w - 1 - x; sy = h - 1 - y; break; // upside down
    case 4: sx = x; sy = h - 1 - y; break;         // mirrored top-bottom
    case 5: sx = y; sy = x; break;                 // transposed
    case 6: sx = y; sy = h - 1 - x; break;         // turned 90 degrees clockwise to be upright
    case 7: sx = w - 1 - y; sy = h - 1 - x; break; // transversed
    case 8: sx = w - 1 - y; sy = x; break;         // turned 90 degrees anticlockwise to be upright
    default: sx = x; sy = y; break;
    }
}

} // namespace

AlphaBackground parseAlphaBackground(const std::string& text)
{
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower == "white") {
        return kWhiteBackground;
    }
    if (lower == "black") {
        return {0, 0, 0};
    }
    if (lower == "grey" || lower == "gray") {
        return {128, 128, 128};
    }
    const auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    if (lower.size() == 7 && lower[0] == '#' && std::all_of(lower.begin() + 1, lower.end(), hex)) {
        AlphaBackground colour{};
        for (int i = 0; i < 3; ++i) {
            colour[static_cast<size_t>(i)] = static_cast<uint8_t>(std::stoi(lower.substr(1 + 2 * i, 2), nullptr, 16));
        }
        return colour;
    }
    throw InputError("data.alpha_background: '" + text + "' is not a colour (white, black, grey or #rrggbb)");
}

std::string alphaBackgroundName(const AlphaBackground& background)
{
    if (background == kWhiteBackground) {
        return "white";
    }
    if (background == AlphaBackground{0, 0, 0}) {
        return "black";
    }
    if (background == AlphaBackground{128, 128, 128}) {
        return "grey";
    }
    char text[8];
    std::snprintf(text, sizeof text, "#%02x%02x%02x", background[0], background[1], background[2]);
    return text;
}

UprightPixels applyDecodeRules(const StoredPixels& stored, int orientation, const AlphaBackground& background)
{
    if (orientation < 1 || orientation > 8) {
        orientation = 1;
    }
    const int w = stored.width;
    const int h = stored.height;
    const bool cmyk = stored.cmyk != CmykStorage::None && stored.channels == 4;
    const bool alpha = !cmyk && (stored.channels == 2 || stored.channels == 4);
    const bool greyBackground = background[0] == background[1] && background[1] == background[2];
    const bool greySource = stored.channels == 1 || stored.channels == 2;
    UprightPixels image;
    image.channels = greySource && (!alpha || greyBackground) ? 1 : 3;
    const bool turned = orientation >= 5;
    image.width = turned ? h : w;
    image.height = turned ? w : h;
    image.applied.composited = alpha;
    image.applied.scaledFrom16Bit = stored.sixteenBit;
    image.applied.cmykConverted = cmyk;
    image.applied.orientation = orientation;

    // Each stored pixel once, in stored order, to 8-bit grey or RGB; then placed upright.
    std::vector<uint8_t> flat(static_cast<size_t>(w) * h * image.channels);
    for (int y = 0; y < h; ++y) {
        const uint8_t* row = stored.data + static_cast<size_t>(y) * stored.rowBytes;
        uint8_t* out = flat.data() + static_cast<size_t>(y) * w * image.channels;
        for (int x = 0; x < w; ++x) {
            uint8_t rgb[3];
            if (cmyk) {
                const int c = sampleAt(stored, row, x, 0), m = sampleAt(stored, row, x, 1);
                const int yellow = sampleAt(stored, row, x, 2), k = sampleAt(stored, row, x, 3);
                const bool inverted = stored.cmyk == CmykStorage::AdobeInverted;
                const auto ink = [&](int v) {
                    return static_cast<uint8_t>(inverted ? (v * k + 127) / 255 : ((255 - v) * (255 - k) + 127) / 255);
                };
                rgb[0] = ink(c);
                rgb[1] = ink(m);
                rgb[2] = ink(yellow);
            } else if (greySource) {
                rgb[0] = rgb[1] = rgb[2] = sampleAt(stored, row, x, 0);
            } else {
                const uint8_t first = sampleAt(stored, row, x, 0), third = sampleAt(stored, row, x, 2);
                rgb[0] = stored.bgrOrder ? third : first;
                rgb[1] = sampleAt(stored, row, x, 1);
                rgb[2] = stored.bgrOrder ? first : third;
            }
            if (alpha) {
                const uint8_t a = sampleAt(stored, row, x, stored.channels - 1);
                for (int c = 0; c < 3; ++c) {
                    rgb[c] = compositedSample(rgb[c], a, background[static_cast<size_t>(c)]);
                }
            }
            if (image.channels == 1) {
                out[x] = rgb[0];
            } else {
                std::memcpy(out + 3 * static_cast<size_t>(x), rgb, 3);
            }
        }
    }
    if (orientation == 1) {
        image.pixels = std::move(flat);
        return image;
    }
    image.pixels.resize(flat.size());
    const size_t channels = static_cast<size_t>(image.channels);
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            int sx = 0, sy = 0;
            storedPosition(orientation, x, y, w, h, sx, sy);
            std::memcpy(image.pixels.data() + (static_cast<size_t>(y) * image.width + x) * channels,
                        flat.data() + (static_cast<size_t>(sy) * w + sx) * channels, channels);
        }
    }
    return image;
}

void convertChannels(UprightPixels& image, int channels)
{
    if (channels == image.channels) {
        return;
    }
    const size_t count = static_cast<size_t>(image.height) * image.width;
    std::vector<uint8_t> converted(count * static_cast<size_t>(channels));
    for (size_t i = 0; i < count; ++i) {
        if (channels == 1) {
            const uint8_t* p = image.pixels.data() + 3 * i;
            converted[i] = greyOf(p[0], p[1], p[2]);
        } else {
            converted[3 * i] = converted[3 * i + 1] = converted[3 * i + 2] = image.pixels[i];
        }
    }
    image.pixels = std::move(converted);
    image.channels = channels;
}

} // namespace lbd
