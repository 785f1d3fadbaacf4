#pragma once
// A CUDA stream that belongs to one holder for as long as it holds it. LibTorch's stream pool
// hands out its 32 streams per device round-robin, so after 32 requests two holders share one:
// with several runs training as threads of one process (`lbd study --parallel`), one run's work
// then lands on the stream another run is capturing into a CUDA graph, and both fail ("operation
// not permitted when stream is capturing": seen on 4 H100s with 9 runs at once, after the first
// runs had finished and new ones had taken streams again). Leased streams are created on demand
// and handed to another holder only after theirs gave them back; they live until the process ends.
#ifdef LBD_HAVE_CUDA
#include <c10/cuda/CUDAStream.h>

namespace lbd::compat {

class LeasedStream {
public:
    explicit LeasedStream(c10::DeviceIndex device);
    ~LeasedStream();
    LeasedStream(const LeasedStream&) = delete;
    LeasedStream& operator=(const LeasedStream&) = delete;

    c10::cuda::CUDAStream stream() const { return m_stream; }

private:
    c10::cuda::CUDAStream m_stream;
};

} // namespace lbd::compat
#endif
