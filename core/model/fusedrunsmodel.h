#pragma once
// Several runs of one architecture as one model (`lbd study --fuse`): G runs x M particles in the
// grouped kernels the particle models already use for their particles. Run g owns channel block g
// of every layer (and particles [g*M, (g+1)*M) of the classifier), so its parameters are slices
// along the first dimension of the fused tensors, under the same names as in its own model. The
// stem, shared by a run's particles, is grouped by run (groups = G): each run sees its own images.
// Input: the runs' batches side by side in the channels, [B, G*Cin, H, W]; output: logits
// [G*M, B, C], run g's being rows [g*M, (g+1)*M).
//
// The arithmetic is each run's own: the first particle layer, dense over the shared stem output in
// a run's model, is here grouped over that output tiled M times per run (the same sums, as
// particleblocks.h says of "shared input"). ResNet-32 (and the ResNets of its template with every
// stage per particle) and the small CNN are fused; ResNet-50 shares stages and is not.
#include "core/model/particlemodel.h"

#include <torch/torch.h>

#include <optional>
#include <string>

namespace lbd {

class FusedRunsModelImpl : public torch::nn::Module {
public:
    // `member`: one of the runs' models (its architecture and layout; its weights are not read).
    FusedRunsModelImpl(const ParticleModelImpl& member, int64_t runs);

    torch::Tensor forward(const torch::Tensor& x);

    int64_t runs() const { return m_runs; }
    int64_t particlesPerRun() const { return m_particles; }

private:
    torch::Tensor tileRuns(const torch::Tensor& h) const; // [B, G*c, ...] -> [B, G*M*c, ...]

    int64_t m_runs = 1;
    int64_t m_particles = 1;
    bool m_resnet = false;
    bool m_stemMaxPool = false;
    torch::nn::Conv2d m_stemConv{nullptr};
    torch::nn::BatchNorm2d m_stemBn{nullptr};
    std::vector<torch::nn::AnyModule> m_blocks; // ResNet: ParticleBasicBlock; small CNN: ParticleConvBn
    CosineClassifier m_head{nullptr};
};
TORCH_MODULE(FusedRunsModel);

// Why runs of this model cannot be fused; nothing when they can.
std::optional<std::string> fusedRunsRefusal(const ParticleModelImpl& member);

} // namespace lbd
