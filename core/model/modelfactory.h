#pragma once
// The one place that maps a ModelSpec to a concrete particle architecture.
#include "core/model/modelspec.h"
#include "core/model/particlemodel.h"

namespace lbd {

// Validates the spec (InputError naming the bad field) and builds the model on the CPU in fp32
// and training mode; move it with model->to(device).
ParticleModel makeParticleModel(const ModelSpec& spec);

} // namespace lbd
