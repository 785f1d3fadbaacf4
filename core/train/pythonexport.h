#pragma once
// Files for Python users, in the layout of Python's torch.save with plain pickles
// (core/util/torchsavearchive.h), so that the default `torch.load(path)` reads them, also under
// PyTorch 2.6+'s weights_only=True. python/lbd_studio.py builds the model from weights.pt.
#include <torch/torch.h>

#include <string>
#include <vector>

#include "core/data/augmentation.h"
#include "core/model/modelspec.h"
#include "core/util/torchsavearchive.h"

namespace lbd {

// {"probabilities": float [M, N, C], "labels": int64 [N], "class_names": [...]}.
void saveTestProbabilities(const std::string& path, const torch::Tensor& probabilities, const torch::Tensor& labels,
                           const std::vector<std::string>& classNames);

struct TestProbabilities {
    torch::Tensor probabilities;
    torch::Tensor labels;
    std::vector<std::string> classNames;
};
// Reads files of saveTestProbabilities, also those of older versions (torch::pickle_save).
// InputError naming the file when it is larger than maxBytes (checked before a byte is read), is
// not such a file, or holds values its writer cannot produce: a probability outside [0, 1] or
// not finite, or a particle's row that does not sum to 1.
TestProbabilities loadTestProbabilities(const std::string& path, int64_t maxBytes = kMaxTensorFileBytes);

// The most bytes saveTestProbabilities writes for `particles` x `images` x `classNames`: the
// tensors, the names, and a bounded allowance for the zip's headers and the pickle. A run's file
// larger than this is not its own (a 2 GiB file behind an intact start cost 1 GB to refuse).
inline constexpr int64_t kProbabilityFileAllowance = int64_t(1) << 20; // zip headers, alignment, the pickle: ~1 KB
int64_t probabilityFileLimit(int64_t particles, int64_t images, const std::vector<std::string>& classNames);
// loadTestProbabilities held to probabilityFileLimit, from the run's config (particles) and
// run.json (images, class names); the size is checked before the file is opened.
TestProbabilities loadRunProbabilities(const std::string& path, int64_t particles, int64_t images,
                                       const std::vector<std::string>& classNames);

// {"state_dict": {name: tensor}, "class_names": [...], "arch": str, "particles": int,
//  "input_channels": int, "input_size": int, "cosine_scale": float64 0-d tensor,
//  "normalization_mean": float [C], "normalization_std": float [C]}.
// The cosine scale is a tensor because PyTorch 1.13's weights_only unpickler reads no floats.
void exportPythonWeights(const std::string& path, torch::nn::Module& model, const std::vector<std::string>& classNames,
                         const ModelSpec& spec, const Normalization& normalization);

} // namespace lbd
