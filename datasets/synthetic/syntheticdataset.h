#pragma once
// A seeded procedural data set for tests and demos: each class is a shape (disc, square, diamond,
// ring, cross, triangle) filled with a striped texture of a class-specific orientation, frequency
// and colour, at a random position and scale over a noisy background. Learnable, and generated
// in milliseconds.
#include "datasets/common/rawdataset.h"
#include "datasets/synthetic/syntheticspec.h"

namespace lbd {

// Throws InputError naming the synthetic.* setting that is out of range.
RawDataset generateSyntheticDataset(const SyntheticSpec& spec);

} // namespace lbd
