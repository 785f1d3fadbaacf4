#pragma once
// The collectives of data-parallel training, on LibTorch's own c10d process groups: one process
// per rank, found through a TCPStore at MASTER_ADDR:MASTER_PORT (the rendezvous that torchrun and
// cluster schedulers set up; `lbd train --gpus N` sets it up itself). NCCL carries CUDA tensors
// between GPUs where the build has it (CUDA builds with nccl.h); Gloo carries CPU tensors, and CUDA
// tensors through host copies where there is no NCCL. A collective that waits
// longer than the timeout fails on every rank that is still alive, with a message that says so,
// instead of hanging when one rank died.
#include "core/dist/distributedspec.h"

#include <torch/torch.h>

#include <functional>
#include <memory>
#include <string>

namespace lbd {

// Whether this build has c10d with Gloo (Debian's LibTorch and pip's PyTorch both do).
bool distributedAvailable();
// Whether ranks can exchange CPU tensors (c10d with Gloo): pip's PyTorch 2.11 ships no Gloo
// headers, so a build against it trains data-parallel on CUDA (NCCL) only.
bool cpuCollectivesAvailable();

// A collective started without waiting for it (Communicator::allReduceSumAsync). Its tensor
// must not be read or written until wait() has returned; on CUDA, wait() orders the calling
// thread's current stream after the collective instead of blocking the host.
class PendingCollective {
public:
    void wait(); // RunError as the blocking collectives; waiting again does nothing
    bool pending() const { return static_cast<bool>(m_wait); }

private:
    friend class Communicator;
    std::function<void()> m_wait;
};

class Communicator {
public:
    // Joins the group (rank 0 hosts the store). The tensors of the collectives live on `device`:
    // a CUDA device takes NCCL where the build has it. RunError when the other ranks do not all
    // arrive within the timeout, or when this build has no c10d.
    explicit Communicator(const DistributedSpec& spec, const torch::Device& device = torch::kCPU);
    ~Communicator();
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;

    int rank() const { return m_spec.rank; }
    int worldSize() const { return m_spec.worldSize; }
    std::string backendName() const; // "nccl" or "gloo"

    // In place: every rank ends with the element-wise sum over ranks (same shape and dtype on all).
    void allReduceSum(torch::Tensor& tensor);
    // The same, started and left to run (a contiguous tensor, a view included): the gradient
    // buckets' all-reduces run while the backward pass computes the next ones (gradientreducer.h).
    PendingCollective allReduceSumAsync(const torch::Tensor& tensor);
    // In place: every rank ends with `root`'s tensor.
    void broadcast(torch::Tensor& tensor, int root = 0);
    void barrier();

private:
    DistributedSpec m_spec;
    struct Group;
    std::unique_ptr<Group> m_group;
};

} // namespace lbd
