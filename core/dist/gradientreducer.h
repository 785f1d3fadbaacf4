#pragma once
// Data-parallel gradient averaging overlapped with the backward pass, as PyTorch's
// DistributedDataParallel reducer does it. The flat gradient buffer (flatsgd.h) is cut into
// buckets of whole parameters, the last parameters first (the backward pass produces their
// gradients first). A post-hook on each parameter's gradient accumulator counts the parameters
// whose gradient is complete, and a bucket whose parameters are all done starts its all-reduce
// while autograd goes on computing the earlier layers' gradients.
//
// Buckets start in one fixed order on every rank (a ready bucket waits for the ones before it):
// NCCL needs every rank to issue its collectives in the same order. A bucket with a parameter
// that got no gradient this step (unused in the forward pass) starts when backward has ended.
#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace lbd {

class Communicator;

struct GradientBucketSizes {
    int64_t firstBucketBytes = 1 << 20; // small, so the first all-reduce starts early (as DDP)
    int64_t bucketBytes = 25 << 20;     // DDP's default
};

class GradientReducer {
public:
    // parameters: in the order of the flat buffer `flatGradients` (FlatSgd::parameters()), whose
    // gradients are views into it. The hooks stay on the parameters' gradient accumulators for
    // the reducer's lifetime and do nothing outside beginBackward() .. finish().
    GradientReducer(const std::vector<torch::Tensor>& parameters, torch::Tensor flatGradients,
                    Communicator& communicator, GradientBucketSizes sizes = {});
    ~GradientReducer();
    GradientReducer(const GradientReducer&) = delete;
    GradientReducer& operator=(const GradientReducer&) = delete;

    // Before loss.backward(): arms the hooks for one backward pass.
    void beginBackward();
    // After loss.backward(): starts the buckets not yet started, waits for all of them and divides
    // the buffer by the number of ranks (every rank then holds the mean gradient). RunError when a
    // collective fails or times out.
    void finish();

    int64_t bucketCount() const;
    // Of the last backward pass: how many buckets started from the hooks, i.e. overlapped with the
    // remaining backward computation (the others started in finish()).
    int64_t bucketsStartedDuringBackward() const;

    struct State; // the hooks hold it weakly: they may outlive the reducer on a graph still alive

private:
    std::shared_ptr<State> m_state;
};

} // namespace lbd
