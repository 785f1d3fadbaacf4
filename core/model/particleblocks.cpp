#include "core/model/particleblocks.h"

#include "core/model/batchnormrelu.h"

#include <stdexcept>

namespace lbd {

namespace F = torch::nn::functional;

void initParticleConvWeight(torch::Tensor& weight, int64_t particles, ConvInit init)
{
    torch::NoGradGuard noGrad;
    const int64_t perParticle = weight.size(0) / particles;
    for (int64_t j = 0; j < particles; ++j) {
        auto slice = weight.narrow(0, j * perParticle, perParticle);
        if (init == ConvInit::KaimingFanOut) {
            torch::nn::init::kaiming_normal_(slice, 0.0, torch::kFanOut, torch::kReLU);
        } else {
            torch::nn::init::kaiming_normal_(slice, 0.0, torch::kFanIn, torch::kReLU);
        }
    }
}

torch::Tensor optionAShortcut(const torch::Tensor& x, int64_t particles, int64_t stride,
                              int64_t padPerSide)
{
    torch::Tensor y = x;
    if (stride != 1) {
        y = y.slice(2, 0, c10::nullopt, stride).slice(3, 0, c10::nullopt, stride);
    }
    if (padPerSide == 0) {
        return y;
    }
    // Splitting the channel dimension into [M, c] is a view for any memory format; the pad
    // then works on each particle's block.
    const auto sizes = y.sizes();
    const int64_t perParticle = sizes[1] / particles;
    auto blocks = y.view({sizes[0], particles, perParticle, sizes[2], sizes[3]});
    blocks = F::pad(blocks, F::PadFuncOptions({0, 0, 0, 0, padPerSide, padPerSide}));
    return blocks.reshape({sizes[0], particles * (perParticle + 2 * padPerSide), sizes[2], sizes[3]})
        .contiguous(x.suggest_memory_format());
}

torch::Tensor tileParticles(const torch::Tensor& x, int64_t particles)
{
    return particles == 1 ? x : x.repeat({1, particles, 1, 1});
}

torch::Tensor poolParticleFeatures(const torch::Tensor& x, int64_t particles)
{
    const auto pooled = x.mean({2, 3});  // [B, M*D]
    return pooled.view({pooled.size(0), particles, pooled.size(1) / particles}).transpose(0, 1);
}

// ---------------------------------------------------------------------------------------------

ParticleConvBnImpl::ParticleConvBnImpl(const ParticleConvOptions& options) : m_options(options)
{
    const int64_t m = options.particles;
    const int64_t in = options.sharedInput ? options.inChannels : m * options.inChannels;
    m_conv = register_module(
        "conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, m * options.outChannels,
                                                           options.kernel)
                                      .stride(options.stride)
                                      .padding(options.kernel / 2)
                                      .groups(options.sharedInput ? 1 : m)
                                      .bias(false)));
    m_bn = register_module("bn", torch::nn::BatchNorm2d(m * options.outChannels));
    initParticleConvWeight(m_conv->weight, m, options.init);
}

torch::Tensor ParticleConvBnImpl::forward(const torch::Tensor& x)
{
    return batchNorm(m_conv->forward(x), *m_bn);
}

torch::Tensor ParticleConvBnImpl::forwardRelu(const torch::Tensor& x, const torch::Tensor& residual)
{
    return batchNormAddRelu(m_conv->forward(x), *m_bn, residual);
}

torch::Tensor ParticleConvBnImpl::forwardParticle(const torch::Tensor& x, int64_t particle)
{
    const int64_t out = m_options.outChannels;
    const int64_t begin = particle * out;
    const auto weight = m_conv->weight.narrow(0, begin, out);
    const auto y = F::conv2d(x, weight,
                             F::Conv2dFuncOptions()
                                 .stride(m_options.stride)
                                 .padding(m_options.kernel / 2));
    // The running-statistic slices are views of the fused buffers, so training mode updates
    // exactly the entries the fused BatchNorm would (num_batches_tracked is left alone: it only
    // matters with momentum = None, which we never use).
    const auto& bn = *m_bn;
    return torch::batch_norm(y, bn.weight.narrow(0, begin, out), bn.bias.narrow(0, begin, out),
                             bn.running_mean.narrow(0, begin, out),
                             bn.running_var.narrow(0, begin, out), is_training(),
                             bn.options.momentum().value_or(0.1), bn.options.eps(),
                             /*cudnn_enabled=*/true);
}

// ---------------------------------------------------------------------------------------------

ParticleBasicBlockImpl::ParticleBasicBlockImpl(int64_t particles, int64_t inPlanes,
                                               int64_t planes, int64_t stride, bool sharedInput)
    : m_particles(particles), m_stride(stride), m_sharedInput(sharedInput)
{
    if (planes < inPlanes || (planes - inPlanes) % 2 != 0) {
        throw std::invalid_argument("ParticleBasicBlock: option-A shortcut needs planes >= "
                                    "inPlanes with an even difference");
    }
    m_padPerSide = (planes - inPlanes) / 2;
    ParticleConvOptions o;
    o.particles = particles;
    o.inChannels = inPlanes;
    o.outChannels = planes;
    o.stride = stride;
    o.sharedInput = sharedInput;
    m_conv1 = register_module("conv1", ParticleConvBn(o));
    o.inChannels = planes;
    o.stride = 1;
    o.sharedInput = false;
    m_conv2 = register_module("conv2", ParticleConvBn(o));
}

torch::Tensor ParticleBasicBlockImpl::forward(const torch::Tensor& x)
{
    const auto out = m_conv1->forwardRelu(x);
    const auto shortcut = m_sharedInput
        ? tileParticles(optionAShortcut(x, 1, m_stride, m_padPerSide), m_particles)
        : optionAShortcut(x, m_particles, m_stride, m_padPerSide);
    return m_conv2->forwardRelu(out, shortcut);
}

torch::Tensor ParticleBasicBlockImpl::forwardParticle(const torch::Tensor& x, int64_t particle)
{
    auto out = torch::relu(m_conv1->forwardParticle(x, particle));
    out = m_conv2->forwardParticle(out, particle);
    return torch::relu(out + optionAShortcut(x, 1, m_stride, m_padPerSide));
}

// ---------------------------------------------------------------------------------------------

ParticleBottleneckImpl::ParticleBottleneckImpl(int64_t particles, int64_t inPlanes,
                                               int64_t planes, int64_t stride, bool sharedInput)
    : m_particles(particles), m_sharedInput(sharedInput)
{
    ParticleConvOptions o;
    o.particles = particles;
    o.init = ConvInit::KaimingFanOut;
    o.inChannels = inPlanes;
    o.outChannels = planes;
    o.kernel = 1;
    o.sharedInput = sharedInput;
    m_conv1 = register_module("conv1", ParticleConvBn(o));
    o.inChannels = planes;
    o.kernel = 3;
    o.stride = stride;
    o.sharedInput = false;
    m_conv2 = register_module("conv2", ParticleConvBn(o));
    o.outChannels = planes * kExpansion;
    o.kernel = 1;
    o.stride = 1;
    m_conv3 = register_module("conv3", ParticleConvBn(o));
    if (stride != 1 || inPlanes != planes * kExpansion) {
        o.inChannels = inPlanes;
        o.stride = stride;
        o.sharedInput = sharedInput;
        m_downsample = register_module("downsample", ParticleConvBn(o));
    }
}

torch::Tensor ParticleBottleneckImpl::forward(const torch::Tensor& x)
{
    auto out = m_conv1->forwardRelu(x);
    out = m_conv2->forwardRelu(out);
    const auto shortcut = m_downsample ? m_downsample->forward(x)
                                       : (m_sharedInput ? tileParticles(x, m_particles) : x);
    return m_conv3->forwardRelu(out, shortcut);
}

torch::Tensor ParticleBottleneckImpl::forwardParticle(const torch::Tensor& x, int64_t particle)
{
    auto out = torch::relu(m_conv1->forwardParticle(x, particle));
    out = torch::relu(m_conv2->forwardParticle(out, particle));
    out = m_conv3->forwardParticle(out, particle);
    const auto shortcut = m_downsample ? m_downsample->forwardParticle(x, particle) : x;
    return torch::relu(out + shortcut);
}

} // namespace lbd
