#pragma once
// Files for Python users, written with torch::pickle_save so that `torch.load` reads them
// (torch::save would write a TorchScript archive instead).
#include <torch/torch.h>

#include <string>
#include <vector>

#include "core/data/augmentation.h"
#include "core/model/modelspec.h"

namespace lbd {

// {"probabilities": float [M, N, C], "labels": int64 [N], "class_names": [...]}.
void saveTestProbabilities(const std::string& path, const torch::Tensor& probabilities, const torch::Tensor& labels,
                           const std::vector<std::string>& classNames);

struct TestProbabilities {
    torch::Tensor probabilities;
    torch::Tensor labels;
    std::vector<std::string> classNames;
};
TestProbabilities loadTestProbabilities(const std::string& path); // InputError naming the file

// {"state_dict": {name: tensor}, "class_names": [...], "arch", "particles", "normalization_mean", ...}.
void exportPythonWeights(const std::string& path, torch::nn::Module& model, const std::vector<std::string>& classNames,
                         const ModelSpec& spec, const Normalization& normalization);

} // namespace lbd
