#pragma once
// A seeded procedural dataset for tests and demos: each class is a shape (disc, square, diamond,
// ring, cross, triangle) filled with a striped texture of a class-specific orientation, frequency
// and colour, at a random position and scale over a noisy background. Learnable, and generated
// in milliseconds.
#include <cstdint>

#include "core/data/dataset.h"
#include "core/data/syntheticspec.h"

namespace lbd {

Dataset makeSyntheticDataset(const SyntheticSpec& spec);

} // namespace lbd
