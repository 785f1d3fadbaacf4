#include "core/dist/syncbatchnorm.h"

#include "core/dist/communicator.h"

namespace lbd {
namespace {

thread_local Communicator* t_communicator = nullptr;

// [C] -> [1, C, 1, 1], to broadcast over NCHW (any memory format).
torch::Tensor perChannel(const torch::Tensor& values)
{
    return values.view({1, -1, 1, 1});
}

struct GlobalSums {
    torch::Tensor first;  // [C]
    torch::Tensor second; // [C]
    torch::Tensor count;  // 0-dim: elements per channel over every rank
};

// Per-channel sums of `first` and `second` and the element count per channel, summed over the
// ranks in one collective, summed and reduced in float64 on this rank's device (the results come
// back as float32, as the layer computes), with no host round trip. Removing that round trip did
// not change the speed: --sync-bn stays about 3x slower than per-rank batch norm on 2 H100s
// (docs/results/scaling.md, 2026-11-27); the collectives and these unfused kernels remain.
// The ranks' counts may differ (an epoch's last batches).
GlobalSums globalSums(const torch::Tensor& first, const torch::Tensor& second, int64_t countPerChannel,
                      Communicator& communicator)
{
    const std::vector<int64_t> dims = {0, 2, 3};
    const int64_t channels = first.size(1);
    torch::Tensor packed = torch::cat({first.sum(dims, false, torch::kDouble), second.sum(dims, false, torch::kDouble),
                                       torch::full({1}, static_cast<double>(countPerChannel),
                                                   first.options().dtype(torch::kDouble))});
    communicator.allReduceSum(packed);
    packed = packed.to(torch::kFloat);
    return {packed.narrow(0, 0, channels), packed.narrow(0, channels, channels), packed[2 * channels]};
}

class SyncBatchNormFunction : public torch::autograd::Function<SyncBatchNormFunction> {
public:
    static torch::Tensor forward(torch::autograd::AutogradContext* context, torch::Tensor x, torch::Tensor weight,
                                 torch::Tensor bias, torch::Tensor runningMean, torch::Tensor runningVar, double momentum,
                                 double eps, int64_t communicatorAddress)
    {
        auto& communicator = *reinterpret_cast<Communicator*>(communicatorAddress);
        const torch::Tensor input = x.to(torch::kFloat);
        const int64_t count = input.numel() / input.size(1);
        const GlobalSums sums = globalSums(input, input * input, count, communicator);
        const torch::Tensor& total = sums.count;
        const torch::Tensor mean = sums.first / total;
        const torch::Tensor variance = (sums.second / total - mean * mean).clamp_min(0);
        const torch::Tensor invStd = torch::rsqrt(variance + eps);
        const torch::Tensor normalised = (input - perChannel(mean)) * perChannel(invStd);
        {
            torch::NoGradGuard noGrad;
            runningMean.mul_(1 - momentum).add_(mean.to(runningMean.dtype()), momentum);
            const torch::Tensor unbiased = total / (total - 1).clamp_min(1); // n / (n - 1), 1 for n = 1
            runningVar.mul_(1 - momentum).add_((variance * unbiased).to(runningVar.dtype()), momentum);
        }
        context->save_for_backward({normalised, weight, invStd});
        context->saved_data["communicator"] = communicatorAddress;
        context->saved_data["dtype"] = static_cast<int64_t>(x.scalar_type());
        return (normalised * perChannel(weight.to(torch::kFloat)) + perChannel(bias.to(torch::kFloat))).to(x.scalar_type());
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context,
                                                   torch::autograd::variable_list gradients)
    {
        auto& communicator = *reinterpret_cast<Communicator*>(context->saved_data["communicator"].toInt());
        const auto dtype = static_cast<torch::ScalarType>(context->saved_data["dtype"].toInt());
        const auto saved = context->get_saved_variables();
        const torch::Tensor& normalised = saved[0];
        const torch::Tensor& weight = saved[1];
        const torch::Tensor& invStd = saved[2];
        const torch::Tensor dy = gradients[0].to(torch::kFloat);
        const std::vector<int64_t> dims = {0, 2, 3};
        // This rank's share of the parameters' gradients; the data-parallel step averages them.
        const torch::Tensor gradBias = dy.sum(dims);
        const torch::Tensor gradWeight = (dy * normalised).sum(dims);
        const int64_t count = dy.numel() / dy.size(1);
        const GlobalSums sums = globalSums(dy, dy * normalised, count, communicator);
        const torch::Tensor gradInput =
            (dy - perChannel(sums.first / sums.count) - normalised * perChannel(sums.second / sums.count))
            * perChannel(weight.to(torch::kFloat) * invStd);
        return {gradInput.to(dtype), gradWeight.to(weight.scalar_type()), gradBias.to(weight.scalar_type()),
                torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor()};
    }
};

} // namespace

SyncBatchNormScope::SyncBatchNormScope(Communicator* communicator) : m_previous(t_communicator)
{
    t_communicator = communicator;
}

SyncBatchNormScope::~SyncBatchNormScope()
{
    t_communicator = m_previous;
}

Communicator* syncBatchNormCommunicator()
{
    return t_communicator;
}

torch::Tensor syncBatchNorm(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                            torch::Tensor& runningMean, torch::Tensor& runningVar, double momentum, double eps,
                            Communicator& communicator)
{
    return SyncBatchNormFunction::apply(x, weight, bias, runningMean, runningVar, momentum, eps,
                                        reinterpret_cast<int64_t>(&communicator));
}

} // namespace lbd
