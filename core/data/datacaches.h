#pragma once
// The dataset caches of a data spec, for the GUI's dataset section (and any caller without a loaded
// Dataset): whether a run on it streams images (only then is a cache read), whether its caches
// exist and are current, their size; and building them. The same files, keys and checks as a run's
// (runcaches.h, datasetcachestore.h). No torch here: the reader's RawDataset is enough, and the
// file lists are read without decoding a pixel.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "core/data/datasetcache.h"
#include "core/data/dataspec.h"

namespace lbd {

struct DataCacheReport {
    bool streamed = false; // some split is over data.max_in_memory_mb: a run streams it, and reads a cache
    int splits = 0;        // streamed splits, each with its own cache file
    int existing = 0;
    int current = 0;       // existing and matching the source files
    int64_t bytes = 0;     // of the existing cache files
    std::string directory;
    std::string reason;    // why a cache is not current (the first one), empty when all are
};

// InputError when the data cannot be read (the reader's message).
DataCacheReport dataCacheReport(const DataSpec& spec, const std::string& directory);

// What `lbd data cache` may choose instead of a run's settings (0 / Raw: the run's: max side = the
// image size, raw pixels, which is what a run looks for).
struct DataCacheChoice {
    int64_t maxSide = 0;
    CacheImageFormat format = CacheImageFormat::Raw;
    int jpegQuality = 95; // JPEG caches only
};

// Builds (or rebuilds where out of date) the caches of the streamed splits; progress(split, done,
// total). Returns the bytes of the caches.
int64_t buildDataCaches(const DataSpec& spec, const std::string& directory,
                        const std::function<void(const std::string&, int64_t, int64_t)>& progress,
                        const std::atomic_bool* cancel, const std::function<void(const std::string&)>& log,
                        const DataCacheChoice& choice = {});

} // namespace lbd
