#pragma once
// What an image file's bytes say about how its pixels are stored, read without decoding: the
// colour kind ("RGBA", "grey+alpha", "palette with transparency", "CMYK"), the bit depth, a JPEG's
// EXIF orientation and Adobe marker. The decoders need the orientation and the marker (OpenCV's
// IMREAD_UNCHANGED applies neither); the `input` description names the kind. Plain byte parsing
// (no OpenCV, no libjpeg): damaged or unknown data gives the defaults, never an error.
#include <cstddef>
#include <cstdint>
#include <string>

namespace lbd {

struct ImageFacts {
    std::string kind;       // "grey", "grey+alpha", "RGB", "RGBA", "palette", "palette with transparency",
                            // "RGB with a transparent colour", "grey with a transparent level", "CMYK"; empty: unknown
    int bitDepth = 8;       // bits per sample (PNG: 1, 2, 4, 8, 16)
    bool hasAlpha = false;  // an alpha channel or a tRNS chunk
    int orientation = 1;    // JPEG EXIF orientation (1..8), 1 when absent
    bool adobeMarker = false; // JPEG APP14 "Adobe": CMYK is stored inverted
    int jpegComponents = 0; // 1 grey, 3 colour, 4 CMYK / YCCK; 0: not a JPEG
};

// Reads PNG (IHDR, and tRNS among the chunks before IDAT) and JPEG (markers up to the first scan).
ImageFacts readImageFacts(const uint8_t* data, size_t size);

// The EXIF orientation in an APP1 payload that starts with "Exif\0\0"; 1 when absent or damaged.
int exifOrientation(const uint8_t* payload, size_t size);

} // namespace lbd
