#pragma once
// Image-file decoding: the only part of LBD Studio's engine that needs OpenCV, behind these few
// functions. imagedecoder_opencv.cpp implements them; a build with LBD_WITH_OPENCV=OFF uses
// imagedecoder_libjpeg.cpp where libjpeg-turbo is found (JPEG only: the headless GPU build, which
// has no OpenCV), else imagedecoder_fallback.cpp, which throws InputError saying why, so such a
// build still trains on IDX, CIFAR and synthetic data. imagedecoder.cpp holds what they share.
// No torch here: core/data/imagedecoder.h adds the tensor forms.
#include <cstdint>
#include <string>
#include <vector>

#include "datasets/common/decoderules.h"
#include "datasets/common/imagefacts.h"
#include "datasets/common/rawdataset.h"
#include "datasets/common/readlimits.h"

namespace lbd {

// True where every format the readers list decodes (PNG, JPEG, BMP, TIFF, WebP, PNM: OpenCV).
bool imageDecodingAvailable();

// True where JPEG files decode: OpenCV, or libjpeg-turbo alone (which decodes and writes JPEG only).
bool jpegDecodingAvailable();

// The decoder this build has, for messages and `lbd --version`: "OpenCV 4.6.0",
// "libjpeg-turbo 2.1.5 (JPEG only)" or "none".
std::string imageDecoderName();

// What decoding one image found and did: the stored kind and size, and which of the rules of
// datasets/common/decoderules.h applied (alpha composited on format.background, EXIF orientation,
// 16-bit scaling, CMYK conversion).
struct DecodedImageInfo {
    std::string format;  // "PNG", "JPEG", ... (empty: not recognised from the header)
    ImageFacts facts;    // kind, bit depth, orientation
    int64_t width = -1;  // as stored (before orientation)
    int64_t height = -1;
    AppliedRules applied;
};

// Decodes `path` as a person sees it (the rules of decoderules.h: alpha composited on
// format.background, EXIF orientation, 16-bit and CMYK converted), converts it to
// `format.channels` (1 = grey, 3 = RGB) and resizes it to format.height x format.width, writing
// C*H*W bytes (channel-major) to `out`; `info`, when given, says what was found and done.
// Throws InputError naming the file when it is missing, empty or cannot be decoded, or when its
// size on disk or the pixel count its header claims is over `limits` (checked before decoding).
void decodeImageFile(const std::string& path, const ImageFormat& format, uint8_t* out, const ReadLimits& limits = {},
                     DecodedImageInfo* info = nullptr);

// The same for encoded bytes in memory (a pasted or dropped image); `label` names it in errors.
void decodeImageBytes(const std::vector<uint8_t>& bytes, const std::string& label, const ImageFormat& format, uint8_t* out,
                      const ReadLimits& limits = {}, DecodedImageInfo* info = nullptr);

// Decodes many files on `threads` worker threads into `out` (N x C x H x W bytes); the first
// failure is rethrown after the workers stop.
void decodeImageFiles(const std::vector<std::string>& paths, const ImageFormat& format, int threads, uint8_t* out,
                      const ReadLimits& limits = {});

// Decodes every file it can, going on past failures: what a folder with bad files needs. A file
// over a read limit is not a failure to go past: its ReadLimitError is rethrown (readlimits.h).
struct DecodeOutcome {
    std::vector<std::string> errors; // per path: empty when it decoded, else the reason (the InputError's text)
    int64_t composited = 0;          // images with alpha (composited on the background)
    int64_t turned = 0;              // images turned upright by their EXIF orientation
};
DecodeOutcome decodeImageFilesKeepingGoing(const std::vector<std::string>& paths, const ImageFormat& format, int threads,
                                           uint8_t* out, const ReadLimits& limits = {});

// Writes C x H x W bytes (channel-major, `format`) as an image file (PNG/JPEG by extension; JPEG
// only where libjpeg-turbo decodes).
void writeImageFile(const std::string& path, const uint8_t* pixels, const ImageFormat& format);

// C x H x W bytes (channel-major, `format`, 1 or 3 channels) as JPEG bytes in memory, at
// `quality` 1..100 (a dataset cache re-encodes with it); `label` names the image in errors.
std::vector<uint8_t> encodeJpeg(const uint8_t* pixels, const ImageFormat& format, int quality, const std::string& label);

} // namespace lbd
