#pragma once
// relu(BatchNorm(x) + z) in training mode as one cuDNN kernel each way
// (cudnnBatchNormalizationForwardTrainingEx / BackwardEx with BN_ACTIVATION or
// BN_ADD_ACTIVATION), for fp16 NHWC data on CUDA. Unfused, the same thing is a batch-norm
// kernel, an add and a ReLU forward and their three backward passes, each a full sweep over
// the activations: at CIFAR sizes those sweeps are a tenth of a ResNet-32 step (speed.md).
//
// Only compiled with cuDNN's headers (LBD_HAVE_CUDNN); callers go through batchnormrelu.h,
// which checks that the inputs qualify and falls back to ATen otherwise.
#include <torch/torch.h>

#include <stdexcept>

namespace lbd {

// True when this build has the cuDNN path.
bool cudnnFusedBatchNormCompiled();

// cuDNN refused the shape or layout (CUDNN_STATUS_NOT_SUPPORTED) before computing anything: the
// caller can use the unfused ops instead.
struct CudnnFusionUnsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// x: [N, C, H, W] fp16, channels-last contiguous, CUDA; residual: undefined or like x;
// weight, bias, runningMean, runningVar: fp32 [C]. Updates the running statistics like
// torch::batch_norm in training mode (unbiased running variance, `momentum` as the factor).
// Differentiable in x, residual, weight and bias.
torch::Tensor cudnnBatchNormAddRelu(const torch::Tensor& x, const torch::Tensor& residual,
                                    const torch::Tensor& weight, const torch::Tensor& bias,
                                    const torch::Tensor& runningMean, const torch::Tensor& runningVar,
                                    double momentum, double eps);

} // namespace lbd
