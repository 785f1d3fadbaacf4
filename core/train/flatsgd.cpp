#include "core/train/flatsgd.h"

#include "core/compat/torchcompat.h"

namespace lbd {

FlatSgd::FlatSgd(std::vector<torch::Tensor> parameters, double momentum, bool nesterov, double weightDecay, bool channelsLast)
    : m_momentumFactor(momentum), m_nesterov(nesterov), m_weightDecay(weightDecay)
{
    TORCH_CHECK(!parameters.empty(), "FlatSgd needs parameters");
    int64_t total = 0;
    for (const auto& p : parameters) {
        total += p.numel();
    }
    const auto options = parameters.front().options().dtype(torch::kFloat32);
    m_parameters = torch::empty({total}, options);
    m_gradients = torch::zeros({total}, options);
    m_momentum = torch::zeros({total}, options);
    m_update = torch::empty({total}, options);
    m_learningRate = torch::zeros({}, options);
    torch::NoGradGuard noGrad;
    int64_t offset = 0;
    for (auto& p : parameters) {
        const int64_t n = p.numel();
        const auto viewOf = [&](const torch::Tensor& flat) {
            const auto slice = flat.narrow(0, offset, n);
            if (channelsLast && p.dim() == 4) {
                // [O, H, W, I] storage seen as [O, I, H, W]: channels-last strides.
                return slice.view({p.size(0), p.size(2), p.size(3), p.size(1)}).permute({0, 3, 1, 2});
            }
            return slice.view(p.sizes());
        };
        auto view = viewOf(m_parameters);
        view.copy_(p.detach());
        p.set_data(view);
        // Autograd accumulates into an existing gradient in place (same strides as the
        // parameter), so it lands in the flat buffer.
        p.mutable_grad() = viewOf(m_gradients);
        offset += n;
    }
    m_parameterList = std::move(parameters);
}

void FlatSgd::zeroGrad()
{
    m_gradients.zero_();
}

void FlatSgd::setLearningRate(double learningRate)
{
    m_learningRateValue = learningRate;
    m_learningRate.fill_(learningRate);
}

void FlatSgd::step()
{
    torch::NoGradGuard noGrad;
    // d = g + wd * p; buf = mu * buf + d; update = d + mu * buf (Nesterov) or buf; p -= lr * update.
    torch::add_out(m_update, m_gradients, m_parameters, m_weightDecay);
    m_momentum.mul_(m_momentumFactor).add_(m_update);
    if (m_nesterov) {
        m_update.add_(m_momentum, m_momentumFactor);
    } else {
        m_update.copy_(m_momentum);
    }
    m_parameters.addcmul_(m_update, m_learningRate, -1.0);
}

void FlatSgd::stepUnscaled(torch::Tensor& scale, torch::Tensor& growthTracker, torch::Tensor& foundInf)
{
    torch::NoGradGuard noGrad;
    foundInf.zero_();
    // One fused kernel: multiply by 1/scale and flag any inf / NaN.
    at::_amp_foreach_non_finite_check_and_unscale_({m_gradients}, foundInf, scale.reciprocal());
    torch::add_out(m_update, m_gradients, m_parameters, m_weightDecay);
    const auto momentum = torch::add(m_update, m_momentum, m_momentumFactor);
    if (m_nesterov) {
        m_update.add_(momentum, m_momentumFactor);
    } else {
        m_update.copy_(momentum);
    }
    // Selecting (not multiplying by 0/1) so that an inf or NaN update cannot leak in.
    const auto applied = foundInf.eq(0);
    compat::keepUnless(applied, momentum, m_momentum);
    compat::keepUnless(applied, m_parameters.addcmul(m_update, m_learningRate, -1.0), m_parameters);
    at::_amp_update_scale_(scale, growthTracker, foundInf, 2.0, 0.5, 2000);
}

} // namespace lbd
