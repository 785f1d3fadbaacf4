#include "core/model/particleresnet32.h"

namespace lbd {
namespace {

ResNetLayout resnet32()
{
    ResNetLayout layout;
    layout.stemWidth = 16;
    layout.blocks = {5, 5, 5}; // 6n + 2 layers with n = 5
    layout.planes = {16, 32, 64};
    layout.strides = {1, 2, 2};
    layout.firstParticleStage = 0; // the published code shares only the stem
    return layout;
}

} // namespace

ParticleResNet32Impl::ParticleResNet32Impl(const ModelSpec& spec) : ParticleResNetImpl(spec, resnet32()) {}

} // namespace lbd
