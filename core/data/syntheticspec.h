#pragma once
// Settings of the seeded procedural dataset (syntheticdataset.h). Torch-free, so that DataSpec
// (and with it TrainConfig) can be edited by the GUI without torch headers.
#include <cstdint>
#include <string>

namespace lbd {

struct SyntheticSpec {
    int64_t classes = 10;
    int64_t trainPerClass = 500;
    int64_t testPerClass = 100;
    int64_t channels = 3;
    int64_t size = 32;
    uint64_t seed = 0;
};

// The name of synthetic class c ("disc-0", "square-0", ..., "disc-1", ...): one definition for
// the data set and for the GUI's preview, so utility files written by the editor match.
inline std::string syntheticClassName(int64_t c)
{
    static const char* const shapes[] = {"disc", "square", "diamond", "ring", "cross", "triangle"};
    return std::string(shapes[c % 6]) + "-" + std::to_string(c / 6);
}

} // namespace lbd
