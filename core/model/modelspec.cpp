#include "core/model/modelspec.h"

#include "core/util/error.h"

#include <cmath>

namespace lbd {

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& what)
{
    throw InputError("model." + field + " " + what);
}

} // namespace

std::vector<std::string> ModelSpec::knownArchitectures()
{
    return {"resnet32", "smallcnn", "resnet50"};
}

int64_t ModelSpec::minimumInputSize(const std::string& arch)
{
    // Below these sizes a stride-2 stage would receive a 1x1 (or empty) map: the subsampling
    // and pooling of the architectures stop making sense even if the shapes still work out.
    // resnet50 downsamples by 32, smallcnn by 16 and resnet32 by 4.
    if (arch == "resnet50") {
        return 32;
    }
    return arch == "smallcnn" ? 16 : 8;
}

void ModelSpec::validate() const
{
    const auto archs = knownArchitectures();
    bool known = false;
    std::string list;
    for (const auto& a : archs) {
        known = known || a == arch;
        list += (list.empty() ? "" : ", ") + a;
    }
    if (!known) {
        fail("arch", "must be one of " + list + ", got '" + arch + "'");
    }
    if (particles < 1 || particles > kMaxParticles) {
        fail("particles", "must be in 1.." + std::to_string(kMaxParticles) + ", got " + std::to_string(particles));
    }
    if (inputChannels < 1 || inputChannels > 4) {
        fail("inputChannels", "must be in 1..4, got " + std::to_string(inputChannels));
    }
    if (numClasses < 2 || numClasses > kMaxClasses) {
        fail("numClasses", "must be in 2.." + std::to_string(kMaxClasses) + ", got " + std::to_string(numClasses));
    }
    if (!std::isfinite(cosineScale) || cosineScale <= 0.0 || cosineScale > 1000.0) {
        fail("cosineScale", "must be a finite number in (0, 1000], got " + std::to_string(cosineScale));
    }
    const int64_t minSize = minimumInputSize(arch);
    if (inputSize < minSize || inputSize > kMaxInputSize) {
        fail("inputSize", "must be in " + std::to_string(minSize) + ".." + std::to_string(kMaxInputSize) + " for " + arch
                              + ", got " + std::to_string(inputSize));
    }
}

} // namespace lbd
