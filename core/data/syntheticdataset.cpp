#include "core/data/syntheticdataset.h"

#include "datasets/synthetic/syntheticdataset.h"

namespace lbd {

Dataset makeSyntheticDataset(const SyntheticSpec& spec)
{
    return toDataset(generateSyntheticDataset(spec));
}

} // namespace lbd
