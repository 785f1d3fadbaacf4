#pragma once
// The one place where LibTorch version differences live (Debian's 1.13 CPU build and
// the 2.x CUDA builds). Everything else in core calls these helpers.
#include <torch/torch.h>
#include <torch/version.h>
#include <ATen/autocast_mode.h>

#ifdef LBD_HAVE_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

#include <optional>

#include <cstdint>
#include <string>

namespace lbd::compat {

constexpr bool kTorch2 = TORCH_VERSION_MAJOR >= 2;

inline std::string torchVersion()
{
    return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "."
        + std::to_string(TORCH_VERSION_PATCH);
}

// Autocast on/off for the device type of `device` (CUDA bf16 is the only use).
inline void setAutocast(const torch::Device& device, bool enabled)
{
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
    at::autocast::set_autocast_enabled(device.type(), enabled);
    if (enabled) {
        at::autocast::set_autocast_dtype(device.type(), at::kBFloat16);
    }
#else
    if (device.is_cuda()) {
        at::autocast::set_enabled(enabled);
        if (enabled) {
            at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
        }
    }
#endif
}

inline void setAutocastCacheEnabled(bool enabled)
{
    at::autocast::set_autocast_cache_enabled(enabled);
}

inline void clearAutocastCache()
{
    at::autocast::clear_cache();
}

// Waits for queued device work; a no-op on the CPU.
inline void synchronize(const torch::Device& device)
{
#if TORCH_VERSION_MAJOR >= 2
    if (device.is_cuda()) {
        torch::cuda::synchronize(device.index() < 0 ? -1 : device.index());
    }
#else
    if (device.is_cuda()) {
        // 1.13 has no torch::cuda::synchronize; a blocking copy of a scalar waits for the stream.
        (void)torch::zeros({1}, torch::TensorOptions().device(device)).cpu();
    }
#endif
}

template <typename Optimizer>
inline void zeroGrad(Optimizer& optimizer)
{
#if TORCH_VERSION_MAJOR >= 2
    optimizer.zero_grad(/*set_to_none=*/true);
#else
    optimizer.zero_grad();
#endif
}

inline std::string cudaDeviceName(int index)
{
#ifdef LBD_HAVE_CUDA
    return at::cuda::getDeviceProperties(index)->name;
#else
    (void)index;
    return "CUDA device";
#endif
}

// Makes a non-default CUDA stream current for its lifetime. CUDA-graph capture must not touch
// the legacy default stream, so warm-up, capture and replay all run on this one stream.
class ScopedSideStream {
public:
    ScopedSideStream(const torch::Device& device, bool enabled)
    {
#ifdef LBD_HAVE_CUDA
        if (enabled && device.is_cuda()) {
            m_guard.emplace(c10::cuda::getStreamFromPool(false, device.index() < 0 ? 0 : device.index()));
        }
#else
        (void)device;
        (void)enabled;
#endif
    }

private:
#ifdef LBD_HAVE_CUDA
    std::optional<c10::cuda::CUDAStreamGuard> m_guard;
#endif
};

} // namespace lbd::compat
