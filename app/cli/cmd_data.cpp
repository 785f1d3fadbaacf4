// `lbd data`: what a long-tailed data set looks like before training on it; `lbd data cache`
// builds the dataset caches of its streamed splits (core/data/datasetcache.h).
#include "app/cli/command.h"
#include "app/cli/configflags.h"

#include "core/data/datapreparation.h"
#include "core/data/datacaches.h"
#include "core/data/datasetcachestore.h"
#include "core/train/runsroot.h"
#include "core/util/error.h"
#include "core/train/configjson.h"
#include "core/data/regions.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <numeric>

#include <unistd.h>

namespace lbd::cli {
namespace {

struct CacheOptions {
    ConfigFlags flags;
    int64_t maxSide = 0;
    std::string format = "raw";
    int quality = 0; // 0: not given (95 for JPEG)
    std::string directory;
    int threads = 0;
};

struct DataOptions {
    ConfigFlags flags;
    bool json = false;
    CLI::App* cacheCommand = nullptr;
    CacheOptions cache;
};

DataSpec dataSpecOf(const ConfigFlags& flags)
{
    nlohmann::json patch = flags.patch();
    return trainConfigFromJson(patch.contains("data") ? nlohmann::json{{"data", patch["data"]}} : nlohmann::json::object(),
                               "data options")
        .data;
}

// A progress bar on stderr: redrawn in place on a terminal, every 10 % otherwise.
void drawProgress(const std::string& role, int64_t done, int64_t total, std::chrono::steady_clock::time_point start)
{
    static int lastTenth = -1;
    const bool terminal = isatty(fileno(stderr));
    const int tenth = total > 0 ? static_cast<int>(10 * done / total) : 10;
    if (!terminal && tenth == lastTenth && done != total) {
        return;
    }
    lastTenth = tenth;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const int width = 30;
    const int filled = total > 0 ? static_cast<int>(width * done / total) : width;
    std::fprintf(stderr, "%s%-10s [%s%s] %lld/%lld images, %.0f images/s%s", terminal ? "\r" : "", role.c_str(),
                 std::string(size_t(filled), '#').c_str(), std::string(size_t(width - filled), '.').c_str(),
                 static_cast<long long>(done), static_cast<long long>(total), seconds > 0 ? double(done) / seconds : 0.0,
                 terminal && done != total ? "" : "\n");
    std::fflush(stderr);
}

int runDataCache(const CacheOptions& o)
{
    DataSpec spec = dataSpecOf(o.flags);
    spec.decodeThreads = o.threads;
    if (!o.flags.given("data.image_size")) {
        spec.imageSize = 256; // the imagenet-lt preset's decode size, so its runs find this cache
    }
    DataCacheChoice choice;
    choice.maxSide = o.maxSide;
    choice.format = o.format == "jpeg" ? CacheImageFormat::Jpeg : CacheImageFormat::Raw;
    if (o.quality != 0 && choice.format != CacheImageFormat::Jpeg) {
        throw InputError("--quality " + std::to_string(o.quality) + " is for --format jpeg: a raw cache stores the pixels as they are");
    }
    if (o.quality != 0) {
        choice.jpegQuality = o.quality;
    }
    if (o.maxSide > 0 && o.maxSide != spec.imageSize) {
        std::printf("note: runs read the cache of max side --image-size (%lld); this one (%lld) is for --image-size %lld\n",
                    static_cast<long long>(spec.imageSize), static_cast<long long>(o.maxSide),
                    static_cast<long long>(o.maxSide));
    }
    const std::string directory = o.directory.empty() ? datasetCacheDirectoryBeside(defaultRunsRoot()) : o.directory;
    auto start = std::chrono::steady_clock::now();
    std::string lastSplit;
    // The file lists are read without decoding a pixel (data.max_in_memory_mb only says which
    // splits a run streams, and so reads from a cache).
    const int64_t bytes = buildDataCaches(
        spec, directory,
        [&](const std::string& split, int64_t done, int64_t total) {
            if (split != lastSplit) {
                lastSplit = split;
                start = std::chrono::steady_clock::now();
            }
            drawProgress(split, done, total, start);
        },
        nullptr, [](const std::string& line) { std::printf("%s\n", line.c_str()); }, choice);
    std::printf("caches in %s: %.1f MiB\n", directory.c_str(), double(bytes) / (1 << 20));
    return 0;
}

int runData(const DataOptions& o)
{
    if (o.cacheCommand->parsed()) {
        return runDataCache(o.cache);
    }
    const bool json = o.json;
    const DataSpec spec = dataSpecOf(o.flags);
    const PreparedData prepared = prepareData(spec);
    const auto& names = prepared.dataset.classNames;
    const auto thirds = classRegions(prepared.trainCounts, RegionScheme::ThirdsByIndex);
    const auto byCount = classRegions(prepared.trainCounts, RegionScheme::ByTrainCount);
    const int64_t trainTotal = std::accumulate(prepared.trainCounts.begin(), prepared.trainCounts.end(), int64_t(0));
    const int64_t testTotal = std::accumulate(prepared.testCounts.begin(), prepared.testCounts.end(), int64_t(0));

    if (json) {
        nlohmann::json out = {{"dataset", prepared.dataset.name},
                              {"profile", profileName(spec.longTail.profile)},
                              {"imbalance_ratio", spec.longTail.imbalanceRatio},
                              {"seed", spec.longTail.seed},
                              {"image", {{"channels", prepared.dataset.format.channels},
                                         {"height", prepared.dataset.format.height},
                                         {"width", prepared.dataset.format.width}}},
                              {"train_total", trainTotal},
                              {"test_total", testTotal},
                              {"classes", nlohmann::json::array()}};
        for (size_t c = 0; c < names.size(); ++c) {
            out["classes"].push_back({{"index", c},
                                      {"name", names[c]},
                                      {"train", prepared.trainCounts[c]},
                                      {"test", prepared.testCounts[c]},
                                      {"region_thirds", regionName(thirds[c], RegionScheme::ThirdsByIndex)},
                                      {"region_counts", regionName(byCount[c], RegionScheme::ByTrainCount)}});
        }
        if (!prepared.split.cautionCounts.empty()) { // not trained on: held out to fit the caution
            out["caution_counts"] = prepared.split.cautionCounts;
        }
        std::cout << out.dump(2) << '\n';
        return 0;
    }
    std::printf("%s: %lld classes, %lldx%lld, %lld channel(s); %s profile, imbalance ratio %g, seed %llu\n",
                prepared.dataset.name.c_str(), static_cast<long long>(names.size()),
                static_cast<long long>(prepared.dataset.format.height), static_cast<long long>(prepared.dataset.format.width),
                static_cast<long long>(prepared.dataset.format.channels), profileName(spec.longTail.profile).c_str(),
                spec.longTail.imbalanceRatio, static_cast<unsigned long long>(spec.longTail.seed));
    std::printf("%5s  %-24s %8s %8s  %-6s %-6s\n", "class", "name", "train", "test", "region", "count");
    for (size_t c = 0; c < names.size(); ++c) {
        std::printf("%5zu  %-24s %8lld %8lld  %-6s %-6s\n", c, names[c].c_str(),
                    static_cast<long long>(prepared.trainCounts[c]), static_cast<long long>(prepared.testCounts[c]),
                    regionName(thirds[c], RegionScheme::ThirdsByIndex).c_str(),
                    regionName(byCount[c], RegionScheme::ByTrainCount).c_str());
    }
    std::printf("%5s  %-24s %8lld %8lld\n", "", "total", static_cast<long long>(trainTotal), static_cast<long long>(testTotal));
    if (const auto& caution = prepared.split.cautionCounts; !caution.empty()) {
        // 'train' above is what trains: these are not in it (the data as given has no other unseen images).
        std::string perClass;
        for (size_t c = 0; c < caution.size() && c < names.size(); ++c) {
            perClass += (c == 0 ? "" : ", ") + names[c] + " " + std::to_string(caution[c]);
        }
        std::printf("held out for the caution, not trained on (data.caution_holdout): %lld images (%s)\n",
                    static_cast<long long>(std::accumulate(caution.begin(), caution.end(), int64_t(0))), perClass.c_str());
    }
    std::printf("regions: 'region' = thirds by class index (head/med/tail, the paper); "
                "'count' = many (>100) / medium (20-100) / few (<20) training images\n");
    return 0;
}

} // namespace

Command addDataCommand(CLI::App& lbd)
{
    auto o = std::make_shared<DataOptions>();
    CLI::App* c = lbd.add_subcommand("data", "per-class train / test counts, names and regions of a long-tailed data set");
    addDataFlags(*c, o->flags);
    c->add_flag("--json", o->json, "print as JSON");
    CLI::App* cache = c->add_subcommand("cache", "build the dataset caches of the data set's streamed splits: images "
                                                 "decoded once, resized, read by memory map (lbd train --cache)");
    o->cacheCommand = cache;
    addDataFlags(*cache, o->cache.flags);
    o->cache.flags.addSet(*cache);
    cache->add_option("--max-side", o->cache.maxSide,
                      "longest side of a stored image in pixels (default: --image-size, the side runs decode to, "
                      "itself 256 here unless given: the imagenet-lt preset's)")
        ->check(CLI::Range(8, 8192));
    choices(cache->add_option("--format", o->cache.format, "raw uint8 pixels, or JPEG re-encoded (smaller; decoded again "
                                                           "each epoch)"),
            {"raw", "jpeg"});
    cache->add_option("--quality", o->cache.quality,
                      "JPEG caches: the re-encoding's quality, 1..100 (default 95; lower is smaller and loses more detail)")
        ->check(CLI::Range(1, 100));
    cache->add_option("--cache-dir", o->cache.directory,
                      "the caches' folder (default: 'cache' beside the runs folder, ~/LBDStudio/cache)")
        ->type_name("DIR");
    cache->add_option("--threads", o->cache.threads, "decoding threads (default: every core)")->check(CLI::Range(0, 1024));
    return {c, [o] { return runData(*o); }};
}

} // namespace lbd::cli
