#ifdef LBD_HAVE_CUDA
#include "core/compat/leasedstream.h"

#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda_runtime_api.h>

#include <map>
#include <mutex>
#include <vector>

namespace lbd::compat {
namespace {

std::mutex g_mutex;
// Streams given back, per device. Never destroyed: a stream outlives every tensor the caching
// allocator has tagged with it only if it lives as long as the process.
std::map<c10::DeviceIndex, std::vector<cudaStream_t>> g_returned;

c10::cuda::CUDAStream lease(c10::DeviceIndex device)
{
    if (device < 0) {
        device = c10::cuda::current_device();
    }
    cudaStream_t raw = nullptr;
    {
        const std::lock_guard<std::mutex> lock(g_mutex);
        std::vector<cudaStream_t>& returned = g_returned[device];
        if (!returned.empty()) {
            raw = returned.back();
            returned.pop_back();
        }
    }
    if (raw == nullptr) {
        const c10::cuda::CUDAGuard onDevice(device);
        // Non-blocking like the pool's streams: no implicit ordering with the legacy default stream.
        C10_CUDA_CHECK(cudaStreamCreateWithFlags(&raw, cudaStreamNonBlocking));
    }
    return c10::cuda::getStreamFromExternal(raw, device);
}

} // namespace

LeasedStream::LeasedStream(c10::DeviceIndex device) : m_stream(lease(device)) {}

LeasedStream::~LeasedStream()
{
    // Work still queued on it stays ordered before the next holder's: it is the same stream.
    const std::lock_guard<std::mutex> lock(g_mutex);
    g_returned[m_stream.device_index()].push_back(m_stream.stream());
}

} // namespace lbd::compat
#endif
