#pragma once
// A seeded procedural dataset for tests and demos: each class is a shape (disc, square, diamond,
// ring, cross, triangle) filled with a striped texture of a class-specific orientation, frequency
// and colour, at a random position and scale over a noisy background. Learnable, and generated
// in milliseconds.
#include <cstdint>

#include "core/data/dataset.h"

namespace lbd {

struct SyntheticSpec {
    int64_t classes = 10;
    int64_t trainPerClass = 500;
    int64_t testPerClass = 100;
    int64_t channels = 3;
    int64_t size = 32;
    uint64_t seed = 0;
};

Dataset makeSyntheticDataset(const SyntheticSpec& spec);

} // namespace lbd
