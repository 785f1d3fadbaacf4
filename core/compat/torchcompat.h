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
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <ATen/cuda/CUDAGraph.h>
#include "core/compat/leasedstream.h"
#endif

#include <optional>

#include <cstdint>
#include <string>

namespace lbd::compat {

constexpr bool kTorch2 = TORCH_VERSION_MAJOR >= 2;

// For code that must choose at preprocessing time (an API that older versions lack).
#define LBD_TORCH_AT_LEAST(major, minor)                                                                   \
    (TORCH_VERSION_MAJOR > (major) || (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

inline std::string torchVersion()
{
    return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "."
        + std::to_string(TORCH_VERSION_PATCH);
}

// Autocast on/off for the device type of `device`, computing in `dtype` (bf16 or fp16 on CUDA).
inline void setAutocast(const torch::Device& device, bool enabled, at::ScalarType dtype = at::kBFloat16)
{
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
    at::autocast::set_autocast_enabled(device.type(), enabled);
    if (enabled) {
        at::autocast::set_autocast_dtype(device.type(), dtype);
    }
#else
    if (device.is_cuda()) {
        at::autocast::set_enabled(enabled);
        if (enabled) {
            at::autocast::set_autocast_gpu_dtype(dtype);
        }
    }
#endif
}

// out = where(condition, value, out), written into `out` (one kernel where the version has
// where's out= form).
inline void keepUnless(const torch::Tensor& condition, const torch::Tensor& value, torch::Tensor& out)
{
#if TORCH_VERSION_MAJOR >= 2
    at::where_out(out, condition, value, out);
#else
    out.copy_(torch::where(condition, value, out));
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

// Makes `device` this thread's current GPU (NCCL and the CUDA context follow it); a no-op on the CPU.
inline void setCurrentDevice(const torch::Device& device)
{
#ifdef LBD_HAVE_CUDA
    if (device.is_cuda() && device.index() >= 0) {
        c10::cuda::set_device(device.index());
    }
#else
    (void)device;
#endif
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
            m_lease.emplace(device.index() < 0 ? 0 : device.index());
            m_guard.emplace(m_lease->stream());
        }
#else
        (void)device;
        (void)enabled;
#endif
    }

private:
#ifdef LBD_HAVE_CUDA
    std::optional<LeasedStream> m_lease; // this stream is no other run's (leasedstream.h)
    std::optional<c10::cuda::CUDAStreamGuard> m_guard;
#endif
};

#ifdef LBD_HAVE_CUDA
// The id of a capture's private memory pool in LibTorch's caching allocator.
using GraphPoolId = decltype(at::cuda::graph_pool_handle());

// A pool id made by the caller rather than by capture_begin, so that the caller still knows it
// when a capture fails part-way (abandonGraphCapture closes it).
inline GraphPoolId newGraphPool()
{
    return at::cuda::graph_pool_handle();
}

// Starts recording into `pool` in thread-local capture mode: the capturing thread alone is kept
// from unsafe calls. That does not make other threads' device-wide calls safe (a synchronisation
// of the device fails them and invalidates this capture), which is why captures take the
// process's capture gate exclusively (capturegate.h).
inline void beginGraphCapture(at::cuda::CUDAGraph& graph, GraphPoolId pool)
{
#if TORCH_VERSION_MAJOR >= 2
    graph.capture_begin(pool, cudaStreamCaptureModeThreadLocal);
#else
    graph.capture_begin(pool);
#endif
}

// After a capture failed part-way (anything between capture_begin and the end of capture_end
// threw). An invalidated capture stays open until it is ended: every later launch on the stream
// would fail with "operation failed due to a previous error during capture", the eager redo's
// included. And when capture_end throws, LibTorch leaves the capture's pool open in the caching
// allocator, which then keeps routing allocations through the dead capture's filter and never
// reclaims memory used across streams (it believes a capture is under way). Ends the one and
// closes the other; returns what it did, for the run's log.
inline std::string abandonGraphCapture(at::cuda::CUDAGraph& graph, GraphPoolId pool, const torch::Device& device)
{
    std::string done;
    const c10::cuda::CUDAStream stream = c10::cuda::getCurrentCUDAStream(device.index());
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream.stream(), &status) == cudaSuccess && status != cudaStreamCaptureStatusNone) {
        cudaGraph_t partial = nullptr;
        (void)cudaStreamEndCapture(stream.stream(), &partial); // ends even an invalidated capture
        if (partial != nullptr) {
            (void)cudaGraphDestroy(partial);
        }
        done += "; the stream's capture was ended";
    }
    (void)cudaGetLastError(); // capture errors are not sticky: the eager step starts clean
    bool poolClosed = false;
    try {
        (void)graph.pool(); // succeeds only when capture_end got as far as closing the pool
        poolClosed = true;
    } catch (const c10::Error&) {
    }
    if (!poolClosed) {
        try {
            c10::cuda::CUDACachingAllocator::endAllocateToPool(stream.device_index(), pool);
        } catch (const c10::Error&) {
            // capture_end closed it before failing
        }
        try {
            c10::cuda::CUDACachingAllocator::releasePool(stream.device_index(), pool);
        } catch (const c10::Error&) {
        }
        done += "; its memory pool was closed";
    }
    return done;
}
#endif

// A second CUDA stream on which the next batch is prepared while the current stream trains on
// this one. Work queued by run() is ordered before whatever the current stream queues after
// waitOnCurrent(); handOver() tells the caching allocator that the current stream uses a tensor
// made on the producer stream, so its memory is not reused before that use is done. Without
// CUDA (or when disabled) run() simply calls its argument and the rest are no-ops.
class ProducerStream {
public:
    ProducerStream(const torch::Device& device, bool enabled)
    {
#ifdef LBD_HAVE_CUDA
        if (enabled && device.is_cuda()) {
            m_lease.emplace(device.index() < 0 ? 0 : device.index());
            m_stream.emplace(m_lease->stream());
            m_event.emplace();
        }
#else
        (void)device;
        (void)enabled;
#endif
    }

    bool active() const
    {
#ifdef LBD_HAVE_CUDA
        return m_stream.has_value();
#else
        return false;
#endif
    }

    template <typename Work>
    void run(Work&& work)
    {
#ifdef LBD_HAVE_CUDA
        if (m_stream) {
            // The producer must not start before the current stream's earlier work that it
            // depends on (the data set upload, the epoch order), so it waits for it first.
            at::cuda::CUDAEvent ready;
            ready.record(c10::cuda::getCurrentCUDAStream(m_stream->device_index()));
            ready.block(*m_stream);
            c10::cuda::CUDAStreamGuard guard(*m_stream);
            work();
            m_event->record(*m_stream);
            return;
        }
#endif
        work();
    }

    void waitOnCurrent()
    {
#ifdef LBD_HAVE_CUDA
        if (m_stream) {
            m_event->block(c10::cuda::getCurrentCUDAStream(m_stream->device_index()));
        }
#endif
    }

    void handOver(const torch::Tensor& tensor) const
    {
#ifdef LBD_HAVE_CUDA
        if (m_stream && tensor.defined() && tensor.is_cuda()) {
            c10::cuda::CUDACachingAllocator::recordStream(tensor.storage().data_ptr(),
                                                          c10::cuda::getCurrentCUDAStream(m_stream->device_index()));
        }
#else
        (void)tensor;
#endif
    }

private:
#ifdef LBD_HAVE_CUDA
    std::optional<LeasedStream> m_lease; // this stream is no other run's (leasedstream.h)
    std::optional<c10::cuda::CUDAStream> m_stream;
    std::optional<at::cuda::CUDAEvent> m_event;
#endif
};

} // namespace lbd::compat
