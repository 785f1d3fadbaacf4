#pragma once
// The dataset caches of a data set's streamed splits (train before the long tail, test, a list's
// own validation split), opened or built as datasetcachestore.h says: what `lbd train --cache`,
// the Studies runner and `lbd data cache` share.
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/data/datasetcachestore.h"
#include "core/data/dataset.h"

namespace lbd {

struct CacheSplit {
    std::string role; // "train", "test", "validation"
    const DataSplit* split = nullptr;
};

// The streamed splits to cache: `sourceTrain` (the training split before the long tail, or the
// dataset's own when not resampled), the test split, and a validation split of the data set's own.
std::vector<CacheSplit> streamedSplits(const Dataset& dataset, const DataSplit& sourceTrain, bool ownValidation);

// The cache settings of a run: max side = the side the run decodes images to, so that a cache of
// square images gives exactly the decoded pixels.
CacheSettings runCacheSettings(const Dataset& dataset, int decodeThreads);

CacheSource cacheSourceOf(const Dataset& dataset, const DataSplit& split);

// Opens (building where needed) the cache of each split; progress(role, done, total).
std::vector<std::shared_ptr<const DatasetCache>>
openRunCaches(const Dataset& dataset, const std::vector<CacheSplit>& splits, const CacheSettings& settings,
              const std::string& directory, const std::function<void(const std::string&)>& log,
              const std::function<void(const std::string&, int64_t, int64_t)>& progress = {},
              const std::atomic_bool* cancel = nullptr);

} // namespace lbd
