#include "core/data/datasetcachestore.h"
#include "core/data/datasetcacheformat.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>

namespace lbd {

std::string datasetCacheDirectoryBeside(const std::string& runsRoot)
{
    std::filesystem::path root(runsRoot);
    if (!root.has_filename()) {
        root = root.parent_path(); // "runs/" -> "runs"
    }
    return (root.parent_path() / "cache").string();
}

std::string datasetCachePath(const std::string& directory, const std::string& datasetName, const std::string& role,
                             const CacheSettings& settings)
{
    const bool jpeg = settings.format == CacheImageFormat::Jpeg;
    // Another JPEG quality is another cache (its pixels differ); raw caches have none. So is another
    // alpha background; white keeps the key (and the file) that caches had before it was a setting.
    const bool white = settings.background == kWhiteBackground;
    std::string background = white ? std::string() : alphaBackgroundName(settings.background);
    background.erase(std::remove(background.begin(), background.end(), '#'), background.end());
    const std::string key = datasetName + '\n' + role + '\n' + std::to_string(settings.maxSide) + '\n'
                            + std::to_string(settings.channels) + '\n' + std::to_string(int(settings.format))
                            + (jpeg ? '\n' + std::to_string(settings.jpegQuality) : std::string())
                            + (white ? std::string() : "\nbackground " + background);
    char hex[17];
    std::snprintf(hex, sizeof(hex), "%016llx",
                  static_cast<unsigned long long>(cacheformat::fnv1a(reinterpret_cast<const uint8_t*>(key.data()), key.size())));
    const std::string format = jpeg ? "jpeg" + std::to_string(settings.jpegQuality) : "raw";
    const std::string on = white ? std::string() : "-on-" + background;
    return (std::filesystem::path(directory)
            / (role + "-" + std::to_string(settings.maxSide) + "-" + format + on + "-" + hex + ".lbdcache"))
        .string();
}

CacheStatus datasetCacheStatus(const std::string& cachePath, const CacheSource& source)
{
    CacheStatus status;
    std::error_code ec;
    if (!std::filesystem::exists(cachePath, ec)) {
        status.reason = "no cache yet";
        return status;
    }
    status.exists = true;
    status.bytes = static_cast<int64_t>(std::filesystem::file_size(cachePath, ec));
    try {
        const DatasetCache cache(cachePath);
        status.reason = cache.differenceFrom(source.paths, stampSourceFiles(source.paths));
        status.current = status.reason.empty();
    } catch (const InputError& error) {
        status.reason = error.what();
    }
    return status;
}

namespace {

// An exclusive flock on "<cache>.lock" for as long as it lives.
class CacheLock {
public:
    explicit CacheLock(const std::string& cachePath)
    {
        const std::string path = cachePath + ".lock";
        m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (m_fd < 0) {
            throw RunError(fileErrorMessage(path, errno));
        }
        while (::flock(m_fd, LOCK_EX) != 0) {
            if (errno != EINTR) {
                const int error = errno;
                ::close(m_fd);
                throw RunError(fileErrorMessage(path, error));
            }
        }
    }
    ~CacheLock() { ::close(m_fd); } // closing releases the lock; the lock file stays (removing it would race)
    CacheLock(const CacheLock&) = delete;
    CacheLock& operator=(const CacheLock&) = delete;

private:
    int m_fd = -1;
};

} // namespace

std::shared_ptr<const DatasetCache> openOrBuildDatasetCache(const std::string& cachePath, const CacheSource& source,
                                                            const CacheSettings& settings,
                                                            const std::function<void(const std::string&)>& log,
                                                            const CacheProgress& progress, const std::atomic_bool* cancel)
{
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(cachePath).parent_path(), ec);
    const CacheLock lock(cachePath);
    const std::vector<SourceFileStamp> stamps = stampSourceFiles(source.paths, settings.threads);
    if (std::filesystem::exists(cachePath, ec)) {
        auto cache = std::make_shared<const DatasetCache>(cachePath); // InputError when damaged
        std::string difference = cache->differenceFrom(source.paths, stamps);
        if (difference.empty() && cache->background() != settings.background) {
            difference = "its images were composited on " + alphaBackgroundName(cache->background()) + ", the run's "
                         "data.alpha_background is " + alphaBackgroundName(settings.background);
        }
        if (difference.empty()) {
            log("dataset cache " + cachePath + ": " + std::to_string(cache->size()) + " images, "
                + std::to_string(cache->fileBytes() >> 20) + " MiB, read through a memory map");
            return cache;
        }
        log("dataset cache " + cachePath + " is out of date (" + difference + "): rebuilding it");
    } else {
        log("dataset cache " + cachePath + ": none yet, building it from " + std::to_string(source.paths.size()) + " files"
            + (settings.background == kWhiteBackground
                   ? std::string()
                   : ", transparent pixels composited on " + alphaBackgroundName(settings.background)));
    }
    const auto start = std::chrono::steady_clock::now();
    buildDatasetCache(cachePath, source.paths, source.labels, source.classNames, settings, progress, cancel);
    auto cache = std::make_shared<const DatasetCache>(cachePath);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char line[160];
    std::snprintf(line, sizeof(line), ": built in %.1f s (%lld images, %lld MiB)", seconds,
                  static_cast<long long>(cache->size()), static_cast<long long>(cache->fileBytes() >> 20));
    log("dataset cache " + cachePath + line);
    return cache;
}

} // namespace lbd
