#pragma once
// What was done to an image before the model saw it, in words, for `lbd predict` ("input") and the
// Classify page: "RGBA PNG 64x64, composited on white, reduced to 32x32 colour". Torch-free.
#include <cstdint>
#include <string>

#include "datasets/common/imagedecoder.h"

namespace lbd {

// `decoded`: what decoding found and did (the rules of datasets/common/decoderules.h); `colour`:
// whether the decoded image has colour (its channels differ), which names plain RGB files that
// hold a grey picture "grey"; `format`: the run's image format; `inputSize`: the model's input side.
std::string describeInput(const DecodedImageInfo& decoded, bool colour, const ImageFormat& format, int64_t inputSize);

} // namespace lbd
