#include "core/model/particleresnet50.h"

namespace lbd {
namespace {

ResNetLayout resnet50()
{
    ResNetLayout layout;
    layout.stemWidth = 64;
    layout.stemKernel = 7;
    layout.stemStride = 2;
    layout.stemMaxPool = true;
    layout.stemInit = ConvInit::KaimingFanOut;
    layout.blocks = {3, 4, 6, 3};
    layout.planes = {64, 128, 256, 512};
    layout.strides = {1, 2, 2, 2};
    layout.firstParticleStage = 2; // layer3 and layer4 per particle, as the published code splits
    return layout;
}

} // namespace

ParticleResNet50Impl::ParticleResNet50Impl(const ModelSpec& spec) : ParticleResNetImpl(spec, resnet50()) {}

} // namespace lbd
