#pragma once
// Synthetic images unlike a data set, made from its own images, on which the caution chooses its
// feature spaces (oodscore.h): no foreign data set is looked at, so the AUROC later reported
// against foreign images (digits, noise; docs/results/ood.md) is not the one the choice maximised.
// Each keeps something of the originals and breaks something else:
//   pixels shuffled   - the same intensities, no shape (one fixed permutation of the positions);
//   patches shuffled  - local texture and strokes kept, the layout broken (4 x 4 tiles, permuted);
//   inverted          - the shape kept, the intensities reversed (255 - x);
//   blurred           - the layout kept, the detail gone (5 x 5 box filter).
#include "core/data/dataset.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lbd {

// `images` must hold decoded pixels (not a streamed split); labels are kept (unused by the fit).
std::vector<std::pair<std::string, DataSplit>> oodCorruptions(const DataSplit& images, uint64_t seed);

} // namespace lbd
