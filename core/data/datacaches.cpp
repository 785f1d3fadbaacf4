#include "core/data/datacaches.h"

#include "core/data/datasetcachestore.h"
#include "datasets/catalogue.h"
#include "datasets/datasetentry.h"

#include <algorithm>

namespace lbd {
namespace {

// A split by role, not by pointer: ListedData is returned by value, which would leave a pointer
// into its own RawDataset dangling.
struct StreamedSplit {
    std::string role;
    const RawSplit& of(const RawDataset& raw) const
    {
        return role == "train" ? raw.train : role == "test" ? raw.test : raw.validation;
    }
};

// The file lists of every split, read without decoding (the budget set to nothing: every split
// comes back as paths), and which of them a run would stream under the spec's own budget.
struct ListedData {
    RawDataset raw;
    std::vector<StreamedSplit> streamed;
};

ListedData listData(const DataSpec& spec)
{
    spec.validate();
    if (!datasetEntry(spec.dataset).settings.imageFormat) {
        return {}; // IDX, CIFAR, synthetic: held in memory, never streamed
    }
    DatasetOptions listing = spec;
    listing.limits.maxInMemoryBytes = 0;
    ListedData data{readDataset(listing, spec.longTail.seed), {}};
    const auto add = [&](const std::string& role, const RawSplit& split) {
        if (split.isStreamed() && split.size() * data.raw.format.bytesPerImage() > spec.limits.maxInMemoryBytes) {
            data.streamed.push_back({role});
        }
    };
    add("train", data.raw.train);
    add("test", data.raw.test);
    if (!spec.validationList.empty()) {
        add("validation", data.raw.validation);
    }
    return data;
}

CacheSettings settingsOf(const RawDataset& raw, int threads)
{
    CacheSettings settings;
    settings.maxSide = std::max(raw.format.height, raw.format.width); // as runCacheSettings
    settings.channels = raw.format.channels;
    settings.background = raw.format.background; // data.alpha_background
    settings.threads = threads;
    return settings;
}

CacheSource sourceOf(const RawDataset& raw, const RawSplit& split)
{
    return {split.files, split.labels, raw.classNames};
}

} // namespace

DataCacheReport dataCacheReport(const DataSpec& spec, const std::string& directory)
{
    const ListedData data = listData(spec);
    DataCacheReport report;
    report.directory = directory;
    report.streamed = !data.streamed.empty();
    const CacheSettings settings = settingsOf(data.raw, static_cast<int>(spec.decodeThreads));
    for (const StreamedSplit& s : data.streamed) {
        ++report.splits;
        const CacheStatus status =
            datasetCacheStatus(datasetCachePath(directory, data.raw.name, s.role, settings), sourceOf(data.raw, s.of(data.raw)));
        report.existing += status.exists ? 1 : 0;
        report.current += status.current ? 1 : 0;
        report.bytes += status.bytes;
        if (!status.current && report.reason.empty()) {
            report.reason = s.role + ": " + status.reason;
        }
    }
    return report;
}

int64_t buildDataCaches(const DataSpec& spec, const std::string& directory,
                        const std::function<void(const std::string&, int64_t, int64_t)>& progress,
                        const std::atomic_bool* cancel, const std::function<void(const std::string&)>& log,
                        const DataCacheChoice& choice)
{
    const ListedData data = listData(spec);
    CacheSettings settings = settingsOf(data.raw, static_cast<int>(spec.decodeThreads));
    if (choice.maxSide > 0) {
        settings.maxSide = choice.maxSide;
    }
    settings.format = choice.format;
    settings.jpegQuality = choice.jpegQuality;
    if (data.streamed.empty()) {
        log(data.raw.name.empty() ? std::string("nothing to cache: the data set is held in memory")
                                  : data.raw.name + ": nothing to cache: its images are held in memory (under "
                                                    "data.max_in_memory_mb), not streamed");
    }
    int64_t bytes = 0;
    for (const StreamedSplit& s : data.streamed) {
        const CacheProgress splitProgress = [&](int64_t done, int64_t total) {
            if (progress) {
                progress(s.role, done, total);
            }
        };
        bytes += openOrBuildDatasetCache(datasetCachePath(directory, data.raw.name, s.role, settings),
                                         sourceOf(data.raw, s.of(data.raw)), settings, log, splitProgress, cancel)
                     ->fileBytes();
    }
    return bytes;
}

} // namespace lbd
