#include "core/data/pipelinebenchmark.h"

#include "core/data/batchsource.h"
#include "core/data/datasetcache.h"
#include "core/data/decodebenchmark.h"
#include "core/data/imagedecoder.h"
#include "core/util/device.h"
#include "core/util/error.h"
#include "core/util/scratchfolder.h"

#include <chrono>
#include <filesystem>
#include <thread>

namespace lbd {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

AugmentSpec imagenetAugment(int64_t outputSize)
{
    AugmentSpec spec;
    spec.maxRotationDegrees = 0;
    spec.padding = 0;
    spec.outputSize = outputSize;
    spec.randomResizedCrop = true;
    spec.brightness = spec.contrast = spec.saturation = 0.4;
    return spec;
}

// Whole epochs of `source` until `seconds` have passed, each batch followed by the step.
PipelineResult timePipeline(BatchSource& source, const torch::Device& device, double stepMilliseconds, double seconds)
{
    PipelineResult result;
    const auto start = Clock::now();
    for (int64_t epoch = 1; result.images == 0 || secondsSince(start) < seconds; ++epoch) {
        const auto epochStart = Clock::now();
        source.startEpoch(epoch);
        Batch batch;
        while (source.next(batch)) {
            if (stepMilliseconds > 0) {
                std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(stepMilliseconds));
            }
            result.images += batch.labels.size(0);
        }
        if (device.is_cuda()) {
            (void)batch.images.sum().item<float>(); // the last batch's copy and augmentation have run
        }
        result.timings = source.inputTimings();
        result.epochSeconds = secondsSince(epochStart);
    }
    result.seconds = secondsSince(start);
    result.imagesPerSecond = static_cast<double>(result.images) / result.seconds;
    return result;
}

} // namespace

PipelineBenchmark benchmarkPipeline(const PipelineBenchmarkOptions& options)
{
    if (!jpegDecodingAvailable()) {
        throw InputError("pipeline benchmark: this build of lbd decodes no JPEG (built without OpenCV and without libjpeg-turbo)");
    }
    if (options.files < options.batchSize || options.batchSize < 2 || !(options.seconds > 0)) {
        throw InputError("pipeline benchmark: needs at least one batch of 2 or more files and a positive time");
    }
    const torch::Device device = parseDevice(options.device);
    PipelineBenchmark benchmark;
    benchmark.threads = options.threads > 0 ? options.threads : std::max(1, int(std::thread::hardware_concurrency()));
    ScratchFolder folder("lbd-pipeline-bench");
    const auto paths =
        writeBenchmarkJpegs(folder.path(), options.files, options.sourceWidth, options.sourceHeight, benchmark.meanFileBytes);
    const ImageFormat format{3, options.decodeSize, options.decodeSize};

    auto start = Clock::now();
    int64_t decoded = 0;
    while (decoded == 0 || secondsSince(start) < options.seconds) {
        (void)decodeImageFiles(paths, format, benchmark.threads);
        decoded += options.files;
    }
    benchmark.decodeImagesPerSecond = static_cast<double>(decoded) / secondsSince(start);
    benchmark.stepMilliseconds = options.stepMilliseconds >= 0
                                     ? options.stepMilliseconds
                                     : 1000.0 * static_cast<double>(options.batchSize) / benchmark.decodeImagesPerSecond;

    DataSplit split;
    split.files = paths;
    split.labels = torch::arange(options.files, torch::kInt64).remainder(10);
    BatchOptions batchOptions;
    batchOptions.batchSize = options.batchSize;
    batchOptions.dropLast = true;
    batchOptions.decodeThreads = benchmark.threads;
    batchOptions.augment = options.augment;
    const Normalization normalization{{0.485f, 0.456f, 0.406f}, {0.229f, 0.224f, 0.225f}};
    std::vector<std::pair<std::string, BatchOptions>> sources = {{"files", batchOptions}};
    if (options.cache) {
        const std::string cachePath = (std::filesystem::path(folder.path()) / "bench.lbdcache").string();
        CacheSettings settings;
        settings.maxSide = options.decodeSize;
        settings.threads = benchmark.threads;
        start = Clock::now();
        buildDatasetCache(cachePath, paths, std::vector<int64_t>(paths.size(), 0), {"x"}, settings);
        benchmark.cacheBuildSeconds = secondsSince(start);
        auto cache = std::make_shared<const DatasetCache>(cachePath);
        benchmark.cacheBytes = cache->fileBytes();
        BatchOptions cached = batchOptions;
        cached.caches = {cache};
        sources.emplace_back("cache", cached);
    }
    for (const auto& [name, sourceOptions] : sources) {
        for (const bool withStep : {false, true}) {
            auto source = makeBatchSource(split, format, device, imagenetAugment(options.outputSize), normalization, sourceOptions);
            PipelineResult result = timePipeline(*source, device, withStep ? benchmark.stepMilliseconds : 0, options.seconds);
            result.source = name;
            result.step = withStep ? "synthetic" : "none";
            benchmark.results.push_back(result);
        }
    }
    return benchmark;
}

} // namespace lbd
