#pragma once
// CMYK JPEGs for the OpenCV decoder (imagedecoder_opencv.cpp). OpenCV converts every 4-component
// JPEG to B, G, R itself, reading its inks as stored inverted (Adobe's form, which Photoshop and
// PIL write): a plain CMYK JPEG (no Adobe marker, inks stored as they are, as some scanners and
// print tools write) came out dark and wrong, and cannot be recovered from OpenCV's result (where
// K = 0 every pixel is 0). So where libjpeg-turbo's headers were found beside OpenCV (Debian's
// libopencv-dev brings them; datasets/CMakeLists.txt), the OpenCV decoder reads a CMYK JPEG's
// samples with libjpeg itself and converts them by the table of decoderules.h, Adobe-marked or
// not, exactly as the libjpeg decoder of the headless build does. No OpenCV here.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

// A CMYK JPEG's samples as stored: C, M, Y, K interleaved, no conversion.
struct CmykJpegSamples {
    int height = 0;
    int width = 0;
    bool adobeMarker = false; // stored inverted (decoderules.h: CmykStorage::AdobeInverted)
    std::vector<uint8_t> samples;
};

// True where this build reads CMYK JPEG samples through libjpeg (LBD_OPENCV_CMYK_LIBJPEG).
bool cmykJpegSamplesAvailable();

// The samples of the 4-component JPEG in `data`. InputError naming `label` when libjpeg cannot
// decode it, it is not a 4-component JPEG, its frame is over `maxPixels`, or this build has no
// libjpeg (cmykJpegSamplesAvailable() false).
CmykJpegSamples decodeCmykJpegSamples(const uint8_t* data, size_t size, const std::string& label, int64_t maxPixels);

} // namespace lbd
