#pragma once
// Settings of the seeded procedural data set (syntheticdataset.h): part of DatasetOptions, which
// the GUI edits without torch headers.
#include <cstdint>
#include <string>
#include <vector>

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
// the generator and the catalogue entry's preview, so utility files written by the editor match.
inline std::string syntheticClassName(int64_t c)
{
    static const char* const shapes[] = {"disc", "square", "diamond", "ring", "cross", "triangle"};
    return std::string(shapes[c % 6]) + "-" + std::to_string(c / 6);
}

inline std::vector<std::string> syntheticClassNames(int64_t classes)
{
    std::vector<std::string> names;
    for (int64_t c = 0; c < classes; ++c) {
        names.push_back(syntheticClassName(c));
    }
    return names;
}

} // namespace lbd
