#pragma once
// Settings of the seeded procedural dataset (syntheticdataset.h). Torch-free, so that DataSpec
// (and with it TrainConfig) can be edited by the GUI without torch headers.
#include <cstdint>

namespace lbd {

struct SyntheticSpec {
    int64_t classes = 10;
    int64_t trainPerClass = 500;
    int64_t testPerClass = 100;
    int64_t channels = 3;
    int64_t size = 32;
    uint64_t seed = 0;
};

} // namespace lbd
