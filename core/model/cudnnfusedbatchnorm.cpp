#include "core/model/cudnnfusedbatchnorm.h"

#include <stdexcept>
#include <string>

#ifdef LBD_HAVE_CUDNN
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cudnn/Handle.h>
#include <cudnn.h>
#endif

namespace lbd {

#ifndef LBD_HAVE_CUDNN

bool cudnnFusedBatchNormCompiled() { return false; }

torch::Tensor cudnnBatchNormAddRelu(const torch::Tensor&, const torch::Tensor&, const torch::Tensor&,
                                    const torch::Tensor&, const torch::Tensor&, const torch::Tensor&,
                                    double, double)
{
    throw std::logic_error("cudnnBatchNormAddRelu: this build has no cuDNN headers");
}

#else

bool cudnnFusedBatchNormCompiled() { return true; }

namespace {

void check(cudnnStatus_t status, const char* call)
{
    if (status == CUDNN_STATUS_NOT_SUPPORTED) {
        throw CudnnFusionUnsupported(std::string("cuDNN ") + call + ": " + cudnnGetErrorString(status));
    }
    if (status != CUDNN_STATUS_SUCCESS) {
        throw std::runtime_error(std::string("cuDNN ") + call + " failed: " + cudnnGetErrorString(status));
    }
}

// The persistent spatial mode is the one cuDNN implements the fused ops for (NHWC, fp16).
constexpr cudnnBatchNormMode_t kMode = CUDNN_BATCHNORM_SPATIAL_PERSISTENT;

// Owns one cuDNN descriptor (created and destroyed by the given cuDNN functions).
template <typename Descriptor, cudnnStatus_t (*Create)(Descriptor*), cudnnStatus_t (*Destroy)(Descriptor)>
class Owned {
public:
    Owned() { check(Create(&m_desc), "create descriptor"); }
    ~Owned() { Destroy(m_desc); }
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;
    Descriptor get() const { return m_desc; }

private:
    Descriptor m_desc{};
};

using TensorDescriptor = Owned<cudnnTensorDescriptor_t, cudnnCreateTensorDescriptor, cudnnDestroyTensorDescriptor>;

class ReluDescriptor : public Owned<cudnnActivationDescriptor_t, cudnnCreateActivationDescriptor,
                                    cudnnDestroyActivationDescriptor> {
public:
    ReluDescriptor()
    {
        check(cudnnSetActivationDescriptor(get(), CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0),
              "cudnnSetActivationDescriptor");
    }
};

// Descriptors of one call: the activations (NHWC fp16) and the derived per-channel fp32 one.
struct Descriptors {
    TensorDescriptor data;
    TensorDescriptor channel;
    ReluDescriptor relu;

    explicit Descriptors(const torch::Tensor& x)
    {
        check(cudnnSetTensor4dDescriptor(data.get(), CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF,
                                         static_cast<int>(x.size(0)), static_cast<int>(x.size(1)),
                                         static_cast<int>(x.size(2)), static_cast<int>(x.size(3))),
              "cudnnSetTensor4dDescriptor");
        check(cudnnDeriveBNTensorDescriptor(channel.get(), data.get(), kMode), "cudnnDeriveBNTensorDescriptor");
    }
};

cudnnHandle_t handleOnCurrentStream()
{
    cudnnHandle_t handle = at::native::getCudnnHandle();
    // The trainer captures its step on a side stream (CUDA graph): work must go there.
    check(cudnnSetStream(handle, at::cuda::getCurrentCUDAStream()), "cudnnSetStream");
    return handle;
}

torch::Tensor bytes(size_t size, const torch::Tensor& like)
{
    return torch::empty({static_cast<int64_t>(size)}, like.options().dtype(torch::kUInt8));
}

// Shared by the two autograd functions below (with and without the residual input).
torch::Tensor forwardImpl(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                          const torch::Tensor& residual, const torch::Tensor& weight,
                          const torch::Tensor& bias, const torch::Tensor& runningMean,
                          const torch::Tensor& runningVar, double momentum, double eps)
{
    const bool add = residual.defined();
    const cudnnBatchNormOps_t ops = add ? CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION : CUDNN_BATCHNORM_OPS_BN_ACTIVATION;
    const Descriptors d(x);
    const cudnnHandle_t handle = handleOnCurrentStream();
    size_t workspaceSize = 0, reserveSize = 0;
    check(cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(
              handle, kMode, ops, d.data.get(), add ? d.data.get() : nullptr, d.data.get(), d.channel.get(),
              d.relu.get(), &workspaceSize),
          "cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize");
    check(cudnnGetBatchNormalizationTrainingExReserveSpaceSize(handle, kMode, ops, d.relu.get(), d.data.get(),
                                                               &reserveSize),
          "cudnnGetBatchNormalizationTrainingExReserveSpaceSize");
    auto y = torch::empty_like(x, torch::MemoryFormat::ChannelsLast);
    auto savedMean = torch::empty({x.size(1)}, weight.options().dtype(torch::kFloat));
    auto savedInvStd = torch::empty_like(savedMean);
    auto workspace = bytes(workspaceSize, x);
    auto reserve = bytes(reserveSize, x);
    const float one = 1.0f, zero = 0.0f;
    check(cudnnBatchNormalizationForwardTrainingEx(
              handle, kMode, ops, &one, &zero, d.data.get(), x.data_ptr(), add ? d.data.get() : nullptr,
              add ? residual.data_ptr() : nullptr, d.data.get(), y.data_ptr(), d.channel.get(), weight.data_ptr(),
              bias.data_ptr(), momentum, runningMean.data_ptr(), runningVar.data_ptr(), eps, savedMean.data_ptr(),
              savedInvStd.data_ptr(), d.relu.get(), workspace.data_ptr(), workspaceSize, reserve.data_ptr(),
              reserveSize),
          "cudnnBatchNormalizationForwardTrainingEx");
    // y is this function's output: saving it does not create a reference cycle.
    ctx->save_for_backward({x, y, weight, bias, savedMean, savedInvStd, reserve});
    ctx->saved_data["eps"] = eps;
    ctx->saved_data["add"] = add;
    return y;
}

// Returns {dx, dresidual (undefined without one), dweight, dbias}.
std::vector<torch::Tensor> backwardImpl(torch::autograd::AutogradContext* ctx, const torch::Tensor& gradOutput)
{
    const auto saved = ctx->get_saved_variables();
    const auto& x = saved[0];
    const auto& y = saved[1];
    const auto& weight = saved[2];
    const auto& bias = saved[3];
    const auto& savedMean = saved[4];
    const auto& savedInvStd = saved[5];
    auto reserve = saved[6];
    const double eps = ctx->saved_data["eps"].toDouble();
    const bool add = ctx->saved_data["add"].toBool();
    const cudnnBatchNormOps_t ops = add ? CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION : CUDNN_BATCHNORM_OPS_BN_ACTIVATION;

    const auto dy = gradOutput.to(torch::kHalf).contiguous(torch::MemoryFormat::ChannelsLast);
    auto dx = torch::empty_like(x, torch::MemoryFormat::ChannelsLast);
    torch::Tensor dz = add ? torch::empty_like(x, torch::MemoryFormat::ChannelsLast) : torch::Tensor();
    auto dWeight = torch::empty_like(weight);
    auto dBias = torch::empty_like(bias);
    const Descriptors d(x);
    const cudnnHandle_t handle = handleOnCurrentStream();
    size_t workspaceSize = 0;
    check(cudnnGetBatchNormalizationBackwardExWorkspaceSize(handle, kMode, ops, d.data.get(), d.data.get(),
                                                            d.data.get(), add ? d.data.get() : nullptr,
                                                            d.data.get(), d.channel.get(), d.relu.get(),
                                                            &workspaceSize),
          "cudnnGetBatchNormalizationBackwardExWorkspaceSize");
    auto workspace = bytes(workspaceSize, x);
    const float one = 1.0f, zero = 0.0f;
    check(cudnnBatchNormalizationBackwardEx(
              handle, kMode, ops, &one, &zero, &one, &zero, d.data.get(), x.data_ptr(), d.data.get(), y.data_ptr(),
              d.data.get(), dy.data_ptr(), add ? d.data.get() : nullptr, add ? dz.data_ptr() : nullptr, d.data.get(),
              dx.data_ptr(), d.channel.get(), weight.data_ptr(), bias.data_ptr(), dWeight.data_ptr(),
              dBias.data_ptr(), eps, savedMean.data_ptr(), savedInvStd.data_ptr(), d.relu.get(),
              workspace.data_ptr(), workspaceSize, reserve.data_ptr(), reserve.numel()),
          "cudnnBatchNormalizationBackwardEx");
    return {dx, dz, dWeight, dBias};
}

class BatchNormReluFunction : public torch::autograd::Function<BatchNormReluFunction> {
public:
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                                 const torch::Tensor& weight, const torch::Tensor& bias,
                                 const torch::Tensor& runningMean, const torch::Tensor& runningVar,
                                 double momentum, double eps)
    {
        return forwardImpl(ctx, x, torch::Tensor(), weight, bias, runningMean, runningVar, momentum, eps);
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list grads)
    {
        auto g = backwardImpl(ctx, grads[0]);
        // One entry per forward argument: x, weight, bias, running mean/var, momentum, eps.
        return {g[0], g[2], g[3], torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor()};
    }
};

class BatchNormAddReluFunction : public torch::autograd::Function<BatchNormAddReluFunction> {
public:
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                                 const torch::Tensor& residual, const torch::Tensor& weight,
                                 const torch::Tensor& bias, const torch::Tensor& runningMean,
                                 const torch::Tensor& runningVar, double momentum, double eps)
    {
        return forwardImpl(ctx, x, residual, weight, bias, runningMean, runningVar, momentum, eps);
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list grads)
    {
        auto g = backwardImpl(ctx, grads[0]);
        return {g[0], g[1], g[2], g[3], torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor()};
    }
};

} // namespace

torch::Tensor cudnnBatchNormAddRelu(const torch::Tensor& x, const torch::Tensor& residual,
                                    const torch::Tensor& weight, const torch::Tensor& bias,
                                    const torch::Tensor& runningMean, const torch::Tensor& runningVar,
                                    double momentum, double eps)
{
    const auto layout = torch::MemoryFormat::ChannelsLast;
    if (residual.defined()) {
        return BatchNormAddReluFunction::apply(x.contiguous(layout), residual.to(torch::kHalf).contiguous(layout),
                                               weight, bias, runningMean, runningVar, momentum, eps);
    }
    return BatchNormReluFunction::apply(x.contiguous(layout), weight, bias, runningMean, runningVar, momentum, eps);
}

#endif

} // namespace lbd
