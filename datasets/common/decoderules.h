#pragma once
// How a stored image becomes the pixels a person sees: the one table of rules that every decoder
// (imagedecoder_opencv.cpp, imagedecoder_libjpeg.cpp) applies to what its library returned, before
// converting to the data set's channels and resizing. Without it an alpha-only icon (RGB all 0, the
// shape in alpha: most icon sets) reached the model as a black square, a phone photo lay on its side
// and a CMYK JPEG came out in negative.
//
//   stored                                  rule
//   --------------------------------------  -------------------------------------------------------
//   16 bits per sample                      v8 = round(v16 * 255 / 65535)   (not truncated)
//   alpha: RGBA, grey+alpha, palette or     composited on the background, after the 16 -> 8-bit step:
//     colour with tRNS                        c = round((c * a + b * (255 - a)) / 255)
//                                             b: data.alpha_background, white by default
//   JPEG with EXIF orientation 2..8         mirrored / rotated upright before resizing
//   CMYK JPEG with Adobe's marker           stored inverted (255 - ink): r = round(C * K / 255)
//   CMYK JPEG without it                    r = round((255 - C) * (255 - K) / 255)
//   grey, grey+alpha on a grey background   stays grey (one channel, or three equal ones)
//   colour -> grey (data.channels 1)        y = (299 r + 587 g + 114 b) / 1000 (ITU-R BT.601, as
//                                             OpenCV's cvtColor; libjpeg's own Y for YCbCr JPEGs)
//
// Plain C++: no OpenCV, no libjpeg, no torch.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

// The colour transparent pixels are composited on (data.alpha_background), red, green, blue.
using AlphaBackground = std::array<uint8_t, 3>;
inline constexpr AlphaBackground kWhiteBackground{255, 255, 255};

// "white", "black", "grey" / "gray" (128) or "#rrggbb"; throws InputError naming the value otherwise.
AlphaBackground parseAlphaBackground(const std::string& text);
// The inverse: "white", "black", "grey" or "#rrggbb".
std::string alphaBackgroundName(const AlphaBackground& background);

enum class CmykStorage { None, Plain, AdobeInverted };

// Interleaved samples as a decoding library returned them.
struct StoredPixels {
    const uint8_t* data = nullptr; // `height` rows of `rowBytes`; 16-bit samples in native byte order
    size_t rowBytes = 0;
    int height = 0;
    int width = 0;
    int channels = 0;        // 1 grey, 2 grey+alpha, 3 colour, 4 colour+alpha (or C, M, Y, K)
    bool sixteenBit = false;
    bool bgrOrder = false;   // OpenCV's B, G, R[, A]
    CmykStorage cmyk = CmykStorage::None;
};

// What the rules did, for the `input` description (lbd predict, Classify) and the data report.
struct AppliedRules {
    bool composited = false; // there was alpha (it was composited on the background)
    bool scaledFrom16Bit = false;
    bool cmykConverted = false;
    int orientation = 1;     // the EXIF orientation applied (1: none)
};

// 8-bit interleaved pixels, upright: grey (1 channel) or R, G, B (3).
struct UprightPixels {
    int height = 0;
    int width = 0;
    int channels = 0;
    std::vector<uint8_t> pixels;
    AppliedRules applied;
};

// Applies the table above: 16 -> 8 bits, CMYK -> RGB, alpha composited on `background`, EXIF
// `orientation` (1..8; anything else is taken as 1). Grey stays grey where the background is grey.
UprightPixels applyDecodeRules(const StoredPixels& stored, int orientation, const AlphaBackground& background);

// One 8-bit sample from a 16-bit one: round(v * 255 / 65535).
inline uint8_t eightBitSample(uint16_t value)
{
    return static_cast<uint8_t>((uint32_t(value) * 255u + 32767u) / 65535u);
}

// A colour sample composited on a background sample with alpha `a`: round((c a + b (255 - a)) / 255).
inline uint8_t compositedSample(uint8_t colour, uint8_t alpha, uint8_t background)
{
    return static_cast<uint8_t>((uint32_t(colour) * alpha + uint32_t(background) * (255u - alpha) + 127u) / 255u);
}

// ITU-R BT.601 luma, rounded.
inline uint8_t greyOf(uint8_t red, uint8_t green, uint8_t blue)
{
    return static_cast<uint8_t>((299u * red + 587u * green + 114u * blue + 500u) / 1000u);
}

// Upright pixels converted to `channels` (1 or 3) in place: colour -> grey by greyOf, grey copied.
void convertChannels(UprightPixels& image, int channels);

} // namespace lbd
