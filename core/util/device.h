#pragma once
// Choosing where to compute: "cpu", "cuda", "cuda:N", or "auto" (the first GPU if any).
#include <torch/torch.h>

#include <string>

namespace lbd {

// Throws InputError naming the device if it is malformed or not present in this build/machine.
torch::Device parseDevice(const std::string& text);

std::string deviceDescription(const torch::Device& device); // "cpu (2 threads)", "cuda:0 NVIDIA H100 ..."

// LibTorch (Debian's 1.13 in particular) may default to one intra-op thread: use every core.
void useAllCpuCores();

// cuDNN autotuning for the fixed shapes of training (a no-op on the CPU).
void configureDevice(const torch::Device& device);

} // namespace lbd
