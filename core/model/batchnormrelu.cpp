#include "core/model/batchnormrelu.h"

#include "core/dist/syncbatchnorm.h"

#include "core/model/cudnnfusedbatchnorm.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace lbd {

namespace {

std::atomic<bool>& fusedSwitch()
{
    static std::atomic<bool> enabled{[] {
        const char* value = std::getenv("LBD_FUSED_BN");
        return !(value && std::strcmp(value, "0") == 0);
    }()};
    return enabled;
}

double momentumOf(const torch::nn::BatchNorm2dImpl& bn) { return bn.options.momentum().value_or(0.1); }

bool cudnnHalfTraining(const torch::Tensor& x, const torch::nn::BatchNorm2dImpl& bn)
{
    // cuDNN's tensor descriptors count elements in 32 bits: larger batches stay with ATen
    // (found with a 14,000-image batch of 24 particles, which cuDNN refused).
    return x.is_cuda() && x.scalar_type() == torch::kHalf && bn.is_training() && x.dim() == 4
        && bn.weight.defined() && bn.running_mean.defined()
        && x.numel() <= std::numeric_limits<int32_t>::max();
}

// cuDNN's fused ops want NHWC fp16 with C % 4 == 0; the residual must match x exactly.
bool qualifiesForFusion(const torch::Tensor& x, const torch::nn::BatchNorm2dImpl& bn, const torch::Tensor& residual)
{
    return fusedBatchNormEnabled() && cudnnHalfTraining(x, bn) && x.size(1) % 4 == 0
        && x.is_contiguous(torch::MemoryFormat::ChannelsLast)
        && (!residual.defined() || residual.sizes() == x.sizes());
}

// max |a - reference| / max |reference|
double relativeDifference(const torch::Tensor& a, const torch::Tensor& reference)
{
    const auto r = reference.to(torch::kFloat);
    const double scale = std::max(r.abs().max().item<double>(), 1e-12);
    return (a.to(torch::kFloat) - r).abs().max().item<double>() / scale;
}

} // namespace

bool fusedBatchNormEnabled() { return cudnnFusedBatchNormCompiled() && fusedSwitch().load(); }

void setFusedBatchNormEnabled(bool enabled) { fusedSwitch().store(enabled); }

torch::Tensor batchNorm(const torch::Tensor& x, torch::nn::BatchNorm2dImpl& bn)
{
    if (Communicator* communicator = syncBatchNormCommunicator(); communicator != nullptr && bn.is_training()) {
        return syncBatchNorm(x, bn.weight, bn.bias, bn.running_mean, bn.running_var, momentumOf(bn), bn.options.eps(),
                             *communicator); // data-parallel with train.sync_bn: the global batch's statistics
    }
    if (cudnnHalfTraining(x, bn)) {
        return std::get<0>(at::cudnn_batch_norm(x, bn.weight, bn.bias, bn.running_mean, bn.running_var, true,
                                                momentumOf(bn), bn.options.eps()));
    }
    return bn.forward(x);
}

torch::Tensor batchNormAddRelu(const torch::Tensor& x, torch::nn::BatchNorm2dImpl& bn, const torch::Tensor& residual)
{
    if (qualifiesForFusion(x, bn, residual) && syncBatchNormCommunicator() == nullptr) {
        try {
            return cudnnBatchNormAddRelu(x, residual, bn.weight, bn.bias, bn.running_mean, bn.running_var,
                                         momentumOf(bn), bn.options.eps());
        } catch (const CudnnFusionUnsupported&) {
            // Refused before anything ran (running statistics untouched): same arithmetic unfused.
        }
    }
    const auto normalised = batchNorm(x, bn);
    return torch::relu(residual.defined() ? normalised + residual : normalised);
}

double FusedBatchNormDeviation::largest() const
{
    return std::max({output, gradInput, gradResidual, gradWeight, gradBias, runningMean, runningVar});
}

FusedBatchNormDeviation measureFusedBatchNormDeviation(const torch::Device& device, int64_t batch,
                                                       int64_t channels, int64_t size)
{
    FusedBatchNormDeviation deviation;
    if (!device.is_cuda() || !fusedBatchNormEnabled()) {
        return deviation;
    }
    torch::nn::BatchNorm2d fused(channels);
    fused->to(device);
    {
        torch::NoGradGuard noGrad;
        fused->weight.uniform_(0.5, 1.5);
        fused->bias.uniform_(-0.5, 0.5);
    }
    const auto options = torch::TensorOptions().device(device).dtype(torch::kHalf);
    const auto layout = torch::MemoryFormat::ChannelsLast;
    const auto x = (torch::randn({batch, channels, size, size}, options) * 2 + 0.5).contiguous(layout);
    const auto residual = torch::randn({batch, channels, size, size}, options).contiguous(layout);
    const auto gradOutput = torch::randn({batch, channels, size, size}, options).contiguous(layout);
    if (!qualifiesForFusion(x, *fused, residual)) {
        return deviation;
    }
    deviation.ran = true;

    // Reference: ATen in fp32 on copies of the same inputs and parameters.
    torch::nn::BatchNorm2d reference(channels);
    reference->to(device);
    {
        torch::NoGradGuard noGrad;
        reference->weight.copy_(fused->weight);
        reference->bias.copy_(fused->bias);
    }
    const auto xRef = x.to(torch::kFloat).detach().requires_grad_(true);
    const auto residualRef = residual.to(torch::kFloat).detach().requires_grad_(true);
    const auto yRef = torch::relu(reference->forward(xRef) + residualRef);
    yRef.backward(gradOutput.to(torch::kFloat));

    const auto xFused = x.detach().requires_grad_(true);
    const auto residualFused = residual.detach().requires_grad_(true);
    const auto yFused = batchNormAddRelu(xFused, *fused, residualFused);
    yFused.backward(gradOutput);

    deviation.output = relativeDifference(yFused, yRef);
    deviation.gradInput = relativeDifference(xFused.grad(), xRef.grad());
    deviation.gradResidual = relativeDifference(residualFused.grad(), residualRef.grad());
    deviation.gradWeight = relativeDifference(fused->weight.grad(), reference->weight.grad());
    deviation.gradBias = relativeDifference(fused->bias.grad(), reference->bias.grad());
    deviation.runningMean = relativeDifference(fused->running_mean, reference->running_mean);
    deviation.runningVar = relativeDifference(fused->running_var, reference->running_var);
    return deviation;
}

} // namespace lbd
