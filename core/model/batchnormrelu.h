#pragma once
// Batch norm, optionally followed by "+ residual" and a ReLU, for the particle networks.
// In fp16 training on CUDA (channels-last, channels divisible by 4) this runs cuDNN's fused
// kernels (cudnnfusedbatchnorm.h); otherwise the same arithmetic with ATen ops. Both paths
// update the module's running statistics the same way.
#include <torch/torch.h>

namespace lbd {

// bn(x), using cuDNN's NHWC batch norm for fp16 training, which ATen's dispatcher does not
// pick for channels-last data on its own (measurably faster, speed.md).
torch::Tensor batchNorm(const torch::Tensor& x, torch::nn::BatchNorm2dImpl& bn);

// relu(bn(x) + residual); `residual` may be undefined, then relu(bn(x)).
torch::Tensor batchNormAddRelu(const torch::Tensor& x, torch::nn::BatchNorm2dImpl& bn,
                               const torch::Tensor& residual = {});

// Whether batchNormAddRelu may use the fused cuDNN kernels: the build has them and they have
// not been switched off (setFusedBatchNormEnabled(false), or LBD_FUSED_BN=0 in the
// environment, e.g. to measure what the fusion gains).
bool fusedBatchNormEnabled();
void setFusedBatchNormEnabled(bool enabled);

// How far the fused kernels are from the ATen composition relu(bn(x) + residual) on random
// fp16 data of the given shape (ATen in fp32 from the same fp16 inputs), each as
// max |fused - reference| / max |reference|; recorded by `lbd bench`, checked by a test.
struct FusedBatchNormDeviation {
    bool ran = false;          // false where the fused path is unavailable (no cuDNN, CPU)
    double output = 0;
    double gradInput = 0;
    double gradResidual = 0;
    double gradWeight = 0;
    double gradBias = 0;
    double runningMean = 0;    // after one update
    double runningVar = 0;

    double largest() const;
};
FusedBatchNormDeviation measureFusedBatchNormDeviation(const torch::Device& device, int64_t batch,
                                                       int64_t channels, int64_t size);

} // namespace lbd
