#pragma once
// The synthetic shapes (datasets/synthetic/) as a tensor Dataset, for benchmarks and tests that
// want images without going through a DataSpec.
#include "core/data/dataset.h"
#include "datasets/synthetic/syntheticspec.h"

namespace lbd {

Dataset makeSyntheticDataset(const SyntheticSpec& spec);

} // namespace lbd
