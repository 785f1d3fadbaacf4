#include "core/data/runcaches.h"

#include <algorithm>

namespace lbd {

std::vector<CacheSplit> streamedSplits(const Dataset& dataset, const DataSplit& sourceTrain, bool ownValidation)
{
    std::vector<CacheSplit> splits;
    const DataSplit& train = sourceTrain.isStreamed() ? sourceTrain : dataset.train;
    if (train.isStreamed()) {
        splits.push_back({"train", &train});
    }
    if (dataset.test.isStreamed()) {
        splits.push_back({"test", &dataset.test});
    }
    if (ownValidation && dataset.validation.isStreamed()) {
        splits.push_back({"validation", &dataset.validation});
    }
    return splits;
}

CacheSettings runCacheSettings(const Dataset& dataset, int decodeThreads)
{
    CacheSettings settings;
    settings.maxSide = std::max(dataset.format.height, dataset.format.width);
    settings.channels = dataset.format.channels;
    settings.background = dataset.format.background; // data.alpha_background
    settings.threads = decodeThreads;
    return settings;
}

CacheSource cacheSourceOf(const Dataset& dataset, const DataSplit& split)
{
    CacheSource source;
    source.paths = split.files;
    const auto labels = split.labels.to(torch::kInt64).contiguous();
    source.labels.assign(labels.data_ptr<int64_t>(), labels.data_ptr<int64_t>() + labels.numel());
    source.classNames = dataset.classNames;
    return source;
}

std::vector<std::shared_ptr<const DatasetCache>>
openRunCaches(const Dataset& dataset, const std::vector<CacheSplit>& splits, const CacheSettings& settings,
              const std::string& directory, const std::function<void(const std::string&)>& log,
              const std::function<void(const std::string&, int64_t, int64_t)>& progress, const std::atomic_bool* cancel)
{
    std::vector<std::shared_ptr<const DatasetCache>> caches;
    for (const CacheSplit& split : splits) {
        const std::string path = datasetCachePath(directory, dataset.name, split.role, settings);
        CacheProgress splitProgress;
        if (progress) {
            splitProgress = [&](int64_t done, int64_t total) { progress(split.role, done, total); };
        }
        caches.push_back(openOrBuildDatasetCache(path, cacheSourceOf(dataset, *split.split), settings, log, splitProgress, cancel));
    }
    return caches;
}

} // namespace lbd
