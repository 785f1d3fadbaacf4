#pragma once
// Building blocks of the fused particle networks. The M particles' channels are concatenated
// (particle j owns channels [j*c, (j+1)*c)) and every convolution is grouped with groups = M,
// so one kernel launch serves all particles; BatchNorm over M*c channels is per channel and
// hence naturally per particle. Each block can also run a single particle on plain slices of
// its parameters (forwardParticle), which is the unfused reference path.
//
// "Shared input" marks the first particle-specific layer behind a shared trunk: its input has
// c channels for everyone, so its convolution is dense (groups = 1, c -> M*c'), which is the
// same arithmetic as tiling the input M times and using a grouped convolution, minus the copy.
// These three classes are small and only make sense together, hence one file.
#include <torch/torch.h>

namespace lbd {

// How convolution weights are drawn: He et al.'s CIFAR code (fan_in, used by LDAM/LBD) or
// torchvision's ImageNet ResNets (fan_out). Always per particle slice, so that fans are those
// of one particle's convolution, not of the fused tensor.
enum class ConvInit { KaimingFanIn, KaimingFanOut };

struct ParticleConvOptions {
    int64_t particles = 1;
    int64_t inChannels = 0;   // per particle (or of the shared input)
    int64_t outChannels = 0;  // per particle
    int64_t kernel = 3;
    int64_t stride = 1;
    bool sharedInput = false;
    ConvInit init = ConvInit::KaimingFanIn;
};

// Fills each particle's slice [j*out, (j+1)*out) of a fused conv weight with Kaiming normal.
void initParticleConvWeight(torch::Tensor& weight, int64_t particles, ConvInit init);

// Option-A shortcut of He et al.: spatial subsampling by `stride` and `padPerSide` zero
// channels on both sides of every particle's channel block (not at the end of the
// concatenation, which would shift channels between particles).
torch::Tensor optionAShortcut(const torch::Tensor& x, int64_t particles, int64_t stride,
                              int64_t padPerSide);

// [B, c, H, W] -> [B, M*c, H, W], the shared input seen by every particle (identity shortcuts
// behind a shared trunk need it).
torch::Tensor tileParticles(const torch::Tensor& x, int64_t particles);

// [B, M*D, H, W] -> [M, B, D] by global average pooling.
torch::Tensor poolParticleFeatures(const torch::Tensor& x, int64_t particles);

// Convolution (no bias, padding kernel/2) followed by BatchNorm, fused over particles.
class ParticleConvBnImpl : public torch::nn::Module {
public:
    explicit ParticleConvBnImpl(const ParticleConvOptions& options);

    // [B, (shared ? in : M*in), H, W] -> [B, M*out, H/stride, W/stride]
    torch::Tensor forward(const torch::Tensor& x);
    // relu(forward(x) + residual) (residual optional), fused into the batch norm where the
    // device allows (batchnormrelu.h).
    torch::Tensor forwardRelu(const torch::Tensor& x, const torch::Tensor& residual = {});
    // Particle j alone: [B, in, H, W] -> [B, out, H/stride, W/stride]
    torch::Tensor forwardParticle(const torch::Tensor& x, int64_t particle);

    const ParticleConvOptions& options() const { return m_options; }

private:
    ParticleConvOptions m_options;
    torch::nn::Conv2d m_conv{nullptr};
    torch::nn::BatchNorm2d m_bn{nullptr};
};
TORCH_MODULE(ParticleConvBn);

// CIFAR ResNet BasicBlock (two 3x3 convolutions) with the option-A shortcut.
class ParticleBasicBlockImpl : public torch::nn::Module {
public:
    static constexpr int64_t kExpansion = 1;

    ParticleBasicBlockImpl(int64_t particles, int64_t inPlanes, int64_t planes, int64_t stride,
                           bool sharedInput);

    torch::Tensor forward(const torch::Tensor& x);
    torch::Tensor forwardParticle(const torch::Tensor& x, int64_t particle);

private:
    int64_t m_particles = 1;
    int64_t m_stride = 1;
    int64_t m_padPerSide = 0;
    bool m_sharedInput = false;
    ParticleConvBn m_conv1{nullptr};
    ParticleConvBn m_conv2{nullptr};
};
TORCH_MODULE(ParticleBasicBlock);

// ImageNet ResNet Bottleneck (1x1, 3x3 with the stride, 1x1 to 4*planes; torchvision's v1.5)
// with a 1x1 convolution + BN projection shortcut where shapes change.
class ParticleBottleneckImpl : public torch::nn::Module {
public:
    static constexpr int64_t kExpansion = 4;

    ParticleBottleneckImpl(int64_t particles, int64_t inPlanes, int64_t planes, int64_t stride,
                           bool sharedInput);

    torch::Tensor forward(const torch::Tensor& x);
    torch::Tensor forwardParticle(const torch::Tensor& x, int64_t particle);

private:
    int64_t m_particles = 1;
    bool m_sharedInput = false;
    ParticleConvBn m_conv1{nullptr};
    ParticleConvBn m_conv2{nullptr};
    ParticleConvBn m_conv3{nullptr};
    ParticleConvBn m_downsample{nullptr};  // empty where the identity fits
};
TORCH_MODULE(ParticleBottleneck);

} // namespace lbd
