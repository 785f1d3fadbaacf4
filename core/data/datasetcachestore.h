#pragma once
// Where a split's dataset cache lives and when it may be used: the cache of a data set's split is
// one file named by a key of (data set, split, max side, channels, format), so that every run of a
// study (and every long-tailed subset of one data set) finds the same file; inside it, the source
// fingerprint (paths, sizes, modification times) decides whether it is still the source's. A
// changed source is rebuilt, never reused, and the log says which file changed. Builders take an
// exclusive lock on "<cache>.lock" (flock, released when the process dies), so that the runs of a
// study started together build the cache once and the others wait for it. No torch here.
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/data/datasetcache.h"

namespace lbd {

// "<runs root's parent>/cache": beside the runs folder (~/LBDStudio/cache for ~/LBDStudio/runs).
std::string datasetCacheDirectoryBeside(const std::string& runsRoot);

// The cache file of split `role` ("train", "test", "validation") of data set `datasetName`
// ("list:/data/train.txt", "folder:/photos") under `directory`.
std::string datasetCachePath(const std::string& directory, const std::string& datasetName, const std::string& role,
                             const CacheSettings& settings);

struct CacheSource {
    std::vector<std::string> paths;
    std::vector<int64_t> labels;
    std::vector<std::string> classNames;
};

// The status of a cache for the GUI and `lbd data cache`: whether it exists, is current, its size.
struct CacheStatus {
    bool exists = false;
    bool current = false;   // exists, opens, and matches the source's fingerprint
    int64_t bytes = 0;
    std::string reason;     // why it is not current ("missing", "x.jpg changed", the InputError)
};
CacheStatus datasetCacheStatus(const std::string& cachePath, const CacheSource& source);

// Opens the cache at `cachePath` when it is the source's, else builds it (saying why through
// `log`) and opens that. A cache that exists but is damaged is an InputError naming it (never
// rebuilt behind the user's back: the damage may be the disk's).
std::shared_ptr<const DatasetCache> openOrBuildDatasetCache(const std::string& cachePath, const CacheSource& source,
                                                            const CacheSettings& settings,
                                                            const std::function<void(const std::string&)>& log,
                                                            const CacheProgress& progress = {},
                                                            const std::atomic_bool* cancel = nullptr);

} // namespace lbd
