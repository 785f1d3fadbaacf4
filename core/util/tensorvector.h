#pragma once
// A tensor's values as a std::vector on the host (any device, any dtype converted to T): the
// hand-over from torch code to the torch-free value types of core's public headers.
#include <torch/torch.h>

#include <vector>

namespace lbd {

template <typename T>
std::vector<T> toVector(const torch::Tensor& tensor)
{
    const torch::Tensor cpu = tensor.to(torch::kCPU, c10::CppTypeToScalarType<T>::value).contiguous();
    return std::vector<T>(cpu.data_ptr<T>(), cpu.data_ptr<T>() + cpu.numel());
}

} // namespace lbd
