#pragma once
// Synchronised batch norm for data-parallel training (`train.sync_bn`, `lbd train --sync-bn`):
// while a SyncBatchNormScope is alive on a thread, every training-mode batch norm of the particle
// networks (batchnormrelu.h) normalises with the mean and variance of the whole global batch,
// summed over the ranks, and its backward pass sums the two per-channel gradient statistics over
// the ranks the same way. The ranks then compute exactly what one process would on the whole
// batch. Without a scope (the default: batch norm per rank) nothing changes.
#include <torch/torch.h>

namespace lbd {

class Communicator;

class SyncBatchNormScope {
public:
    explicit SyncBatchNormScope(Communicator* communicator); // nullptr: no synchronisation
    ~SyncBatchNormScope();
    SyncBatchNormScope(const SyncBatchNormScope&) = delete;
    SyncBatchNormScope& operator=(const SyncBatchNormScope&) = delete;

private:
    Communicator* m_previous;
};

// The communicator of this thread's scope, or nullptr.
Communicator* syncBatchNormCommunicator();

// Training-mode batch norm over every rank's images: y = (x - mean) / sqrt(var + eps) * weight +
// bias per channel (dims 0, 2, 3), with the biased variance, and the running statistics updated
// with the unbiased one, as torch::batch_norm does for one process. Computed in float32.
torch::Tensor syncBatchNorm(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                            torch::Tensor& runningMean, torch::Tensor& runningVar, double momentum, double eps,
                            Communicator& communicator);

} // namespace lbd
