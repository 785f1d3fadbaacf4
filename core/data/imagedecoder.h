#pragma once
// The tensor forms of the image decoder (datasets/common/imagedecoder.h, behind which OpenCV
// stays): a batch of files as one uint8 tensor, for the streaming batcher, the normalisation
// sample and the predictor.
#include <torch/torch.h>

#include <string>
#include <vector>

#include "datasets/common/imagedecoder.h"

namespace lbd {

// Decodes many files on `threads` worker threads into uint8 [N, C, H, W].
torch::Tensor decodeImageFiles(const std::vector<std::string>& paths, const ImageFormat& format, int threads);

// Writes uint8 [C, H, W] as an image file (PNG/JPEG by extension); used by tests and demos.
void writeImageFile(const std::string& path, const torch::Tensor& image);

} // namespace lbd
