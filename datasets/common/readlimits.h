#pragma once
// What a reader may take from the machine, in one place: every reader is given these with its
// options (DatasetOptions::limits), so a new limit is one field here and one check in the shared
// reading code of datasets/common/ (whole files, image files), not a change to every format.
#include <cstdint>

namespace lbd {

struct ReadLimits {
    // Decoded pixels a split of image files may hold in memory; a larger split is streamed from
    // disk (its file paths are kept and decoded batch by batch).
    int64_t maxInMemoryBytes = int64_t(4) << 30;
};

} // namespace lbd
