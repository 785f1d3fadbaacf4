#include "core/model/modelfactory.h"

#include "core/model/particleresnet32.h"
#include "core/model/particleresnet50.h"
#include "core/model/particlesmallcnn.h"

namespace lbd {

ParticleModel makeParticleModel(const ModelSpec& spec)
{
    spec.validate();
    std::shared_ptr<ParticleModelImpl> impl;
    if (spec.arch == "resnet32") {
        impl = std::make_shared<ParticleResNet32Impl>(spec);
    } else if (spec.arch == "smallcnn") {
        impl = std::make_shared<ParticleSmallCnnImpl>(spec);
    } else {
        impl = std::make_shared<ParticleResNet50Impl>(spec);
    }
    return ParticleModel(std::move(impl));
}

} // namespace lbd
