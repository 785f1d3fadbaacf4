// `lbd bench`: throughput measurements recorded with the machine, date and command.
#include "app/cli/command.h"
#include "app/cli/ranklauncher.h"

#include "core/compat/torchcompat.h"
#include "core/data/augmentation.h"
#include "core/data/decodebenchmark.h"
#include "core/data/pipelinebenchmark.h"
#include "datasets/common/imagedecoder.h"
#include "core/dist/distributedspec.h"
#include "core/model/batchnormrelu.h"
#include "core/train/trainingbenchmark.h"
#include "core/util/atomicfile.h"
#include "core/util/device.h"
#include "core/util/error.h"
#include "core/util/machineinfo.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

namespace lbd::cli {
namespace {

using Clock = std::chrono::steady_clock;

// The pipelines measured: the CIFAR recipe with and without rotation at 32 pixels, and ImageNet's
// (random resized crop of a 256-pixel image to 224, flip, colour jitter) as the imagenet-lt preset.
struct AugmentPipeline {
    std::string name;
    int64_t inputSize = 32;
    AugmentSpec spec;
};

std::vector<AugmentPipeline> augmentPipelines()
{
    AugmentPipeline rotated{"pad4-crop + hflip + rotate15 (bilinear) + normalise", 32, {}};
    AugmentPipeline plain{"pad4-crop + hflip + normalise", 32, {}};
    plain.spec.maxRotationDegrees = 0;
    AugmentPipeline imagenet{"random resized crop 256 -> 224 (bilinear) + hflip + colour jitter 0.4 + normalise", 256, {}};
    imagenet.spec.maxRotationDegrees = 0;
    imagenet.spec.padding = 0;
    imagenet.spec.outputSize = 224;
    imagenet.spec.randomResizedCrop = true;
    imagenet.spec.brightness = imagenet.spec.contrast = imagenet.spec.saturation = 0.4;
    return {rotated, plain, imagenet};
}

// Augmented images per second for a full pipeline on uint8 images already on the device, the
// way DeviceBatcher feeds the trainer.
nlohmann::json benchAugmentation(const torch::Device& device, int64_t batch, int64_t channels,
                                 const AugmentPipeline& pipeline, double seconds)
{
    torch::NoGradGuard noGrad;
    const int64_t size = pipeline.inputSize;
    const auto images = torch::randint(0, 256, {batch, channels, size, size}, torch::TensorOptions().dtype(torch::kUInt8)).to(device);
    const AugmentSpec& spec = pipeline.spec;
    Normalization normalization{std::vector<float>(static_cast<size_t>(channels), 0.5f),
                                std::vector<float>(static_cast<size_t>(channels), 0.25f)};
    Rng rng(1);
    // Warm-up (allocator, kernels), then timed iterations until `seconds` have passed.
    for (int i = 0; i < 3; ++i) {
        (void)augmentBatch(images, drawAugmentParams(batch, spec, rng), spec, normalization);
    }
    compat::synchronize(device);
    int64_t iterations = 0;
    const auto start = Clock::now();
    double elapsed = 0;
    while (elapsed < seconds) {
        const auto out = augmentBatch(images, drawAugmentParams(batch, spec, rng), spec, normalization);
        ++iterations;
        if (iterations % 8 == 0 || !device.is_cuda()) {
            compat::synchronize(device);
            elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        }
    }
    compat::synchronize(device);
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    const double imagesPerSecond = static_cast<double>(iterations * batch) / elapsed;
    nlohmann::json record = {{"benchmark", "augmentation"},
            {"pipeline", pipeline.name},
            {"image", std::to_string(channels) + "x" + std::to_string(size) + "x" + std::to_string(size) + " uint8"},
            {"batch", batch},
            {"iterations", iterations},
            {"seconds", elapsed},
            {"images_per_second", imagesPerSecond}};
    if (device.is_cuda()) {
        // The device pipeline against the CPU one on the same images and draws, so that every
        // GPU record also says the fast path computes the same augmentation.
        const auto sample = images.narrow(0, 0, std::min<int64_t>(batch, 256));
        const auto params = drawAugmentParams(sample.size(0), spec, rng);
        const auto onDevice = augmentBatch(sample, params, spec, normalization).cpu();
        const auto onCpu = augmentBatch(sample.cpu(), params, spec, normalization);
        record["max_abs_difference_from_cpu"] = (onDevice - onCpu).abs().max().item<double>();
    }
    return record;
}

struct BenchOptions {
    std::string what = "all";
    std::string device = "auto";
    double seconds = 3.0;
    std::optional<int64_t> augmentBatch;
    std::string arch = "resnet32";
    int64_t particles = 3;
    int64_t batch = 128;
    int64_t imageSize = 32;
    int64_t channels = 1;
    int64_t classes = 10;
    std::optional<int64_t> trainImages;
    int processes = 0;
    int gpus = 0;
    std::optional<double> trainSeconds;
    std::string precision = "fp16";
    bool noStraightforward = false;
    bool noFusedBn = false;
    bool noCudaGraph = false;
    double bucketMegabytes = 25;
    bool json = false;
    bool quiet = false;
    std::optional<std::string> out;
    int64_t decodeSize = 224;
    std::vector<int> decodeThreads;
    std::optional<double> stepMilliseconds;
    int64_t pipelineFiles = 256;
    bool pipelineAugment = false;
};

// The streaming input pipeline stage by stage (core/data/pipelinebenchmark.h).
nlohmann::json benchPipeline(const BenchOptions& o, const std::string& device, bool quiet)
{
    PipelineBenchmarkOptions options;
    options.files = o.pipelineFiles;
    options.batchSize = std::min<int64_t>(o.batch, o.pipelineFiles);
    options.threads = o.decodeThreads.empty() ? 0 : o.decodeThreads.back();
    options.stepMilliseconds = o.stepMilliseconds.value_or(-1);
    options.seconds = o.seconds;
    options.device = device;
    // On the CPU the augmentation would measure torch's resampling on the decoders' own cores.
    options.augment = device.rfind("cuda", 0) == 0 || o.pipelineAugment;
    const PipelineBenchmark b = benchmarkPipeline(options);
    nlohmann::json results = nlohmann::json::array();
    const std::string what = "JPEG " + std::to_string(options.sourceWidth) + "x" + std::to_string(options.sourceHeight)
                             + " -> 256 -> " + (options.augment ? "random resized crop 224 + flip + jitter" : "centre 224 (no augmentation)")
                             + ", batch " + std::to_string(options.batchSize);
    results.push_back({{"benchmark", "pipeline"}, {"stage", "decode only"}, {"pipeline", what}, {"threads", b.threads},
                       {"mean_file_bytes", b.meanFileBytes}, {"images_per_second", b.decodeImagesPerSecond},
                       {"cache_build_seconds", b.cacheBuildSeconds}, {"cache_bytes", b.cacheBytes}});
    if (!quiet) {
        std::cout << "pipeline: " << what << ", " << b.threads << " decoding thread(s)\n  decode only: "
                  << static_cast<int64_t>(b.decodeImagesPerSecond) << " images/s; cache of " << options.files << " files built in "
                  << b.cacheBuildSeconds << " s, " << (b.cacheBytes >> 10) << " KiB\n";
    }
    for (const PipelineResult& r : b.results) {
        const std::string step = r.step == "none" ? "no-op step" : "synthetic step of " + std::to_string(b.stepMilliseconds) + " ms";
        const std::string stages = describeInputTimings(r.timings, r.epochSeconds);
        results.push_back({{"benchmark", "pipeline"}, {"stage", "from " + r.source + ", " + step}, {"pipeline", what},
                           {"threads", b.threads}, {"step_ms", r.step == "none" ? 0.0 : b.stepMilliseconds},
                           {"images", r.images}, {"seconds", r.seconds}, {"images_per_second", r.imagesPerSecond},
                           {"stages", stages}});
        if (!quiet) {
            std::cout << "  from " << r.source << ", " << step << ": " << static_cast<int64_t>(r.imagesPerSecond)
                      << " images/s\n    " << stages << "\n";
        }
    }
    return results;
}

// JPEG decoding for list-file data: images/s with 1 thread (one core) and with every core.
nlohmann::json benchDecoding(const BenchOptions& o, bool quiet)
{
    DecodeBenchmarkOptions options;
    options.outputSize = o.decodeSize;
    options.seconds = o.seconds;
    options.threads = o.decodeThreads;
    const DecodeBenchmark benchmark = benchmarkDecoding(options);
    nlohmann::json results = nlohmann::json::array();
    for (const auto& result : benchmark.results) {
        const double perThread = result.imagesPerSecond / result.threads;
        results.push_back({{"benchmark", "decode"},
                           {"pipeline", "JPEG " + std::to_string(options.sourceWidth) + "x" + std::to_string(options.sourceHeight)
                                            + " colour -> decode + resize to 3x" + std::to_string(options.outputSize) + "x"
                                            + std::to_string(options.outputSize) + " uint8 (" + imageDecoderName() + ", as the streaming batcher)"},
                           {"mean_file_bytes", benchmark.meanFileBytes},
                           {"threads", result.threads},
                           {"images", result.images},
                           {"seconds", result.seconds},
                           {"images_per_second", result.imagesPerSecond},
                           {"images_per_second_per_thread", perThread}});
        if (!quiet) {
            std::cout << "decode: JPEG " << options.sourceWidth << "x" << options.sourceHeight << " ("
                      << static_cast<int64_t>(benchmark.meanFileBytes / 1024) << " KiB) -> " << options.outputSize << " px, "
                      << result.threads << " thread(s): " << static_cast<int64_t>(result.imagesPerSecond) << " images/s ("
                      << static_cast<int64_t>(perThread) << " per thread)\n";
        }
    }
    return results;
}

// Each rank's share of a global batch (epochorder.h shardOfBatch): batch / ranks, or the two sizes
// the shares take when the ranks do not divide the batch.
nlohmann::json perRankShare(int64_t batch, int ranks)
{
    if (ranks <= 1 || batch % ranks == 0) {
        return batch / std::max(1, ranks);
    }
    return nlohmann::json::array({batch / ranks, batch / ranks + 1});
}

std::string perRankText(int64_t batch, int ranks)
{
    const std::string exact = std::to_string(batch) + "/" + std::to_string(ranks) + " = ";
    return batch % ranks == 0 ? exact + std::to_string(batch / ranks)
                              : exact + std::to_string(batch / ranks) + "-" + std::to_string(batch / ranks + 1);
}

// The command as typed: a rank's launcher's (`lbd bench --gpus N ...`), else this process's.
std::string typedCommand()
{
    if (const char* launched = std::getenv("LBD_LAUNCH_COMMAND"); launched != nullptr && launched[0] != '\0') {
        return launched;
    }
    std::string text;
    for (const auto& word : commandLine()) {
        text += (text.empty() ? "" : " ") + word;
    }
    return text;
}

int runBench(const BenchOptions& o)
{
    if ((o.processes > 1 || o.gpus > 1) && o.what != "train") {
        throw InputError("--processes/--gpus measure data-parallel training only: add --what train");
    }
    if (const auto status = launchRanksIfAsked(o.processes, o.gpus, static_cast<int>(torch::cuda::device_count()))) {
        return *status;
    }
    const DistributedSpec distributed = distributedSpecFromEnvironment();
    const bool rankZero = distributed.rank == 0; // prints and writes the record; the others only measure
    const std::string& what = o.what;
    const std::string deviceText = distributed.enabled() && o.device.rfind("cuda", 0) == 0
        ? "cuda:" + std::to_string(distributed.localRank) // a GPU per rank
        : o.device;
    const torch::Device device = parseDevice(deviceText);
    const double seconds = o.seconds;
    const int64_t augmentBatch = o.augmentBatch.value_or(device.is_cuda() ? 4096 : 512);
    TrainingBenchmarkOptions training;
    training.device = deviceText;
    training.arch = o.arch;
    training.particles = o.particles;
    training.batchSize = o.batch;
    training.imageSize = o.imageSize;
    training.channels = o.channels;
    training.classes = o.classes;
    training.trainImages = o.trainImages.value_or(training.trainImages);
    training.distributed = distributed;
    training.cudaGraph = !o.noCudaGraph;
    training.gradientBucketMegabytes = o.bucketMegabytes;
    training.seconds = o.trainSeconds.value_or(device.is_cuda() ? 10.0 : 20.0);
    training.straightforward = !o.noStraightforward;
    training.precision = parsePrecision(o.precision);
    // For measuring what cuDNN's fused batch norm + add + ReLU gains (same as LBD_FUSED_BN=0).
    const bool noFusedBn = o.noFusedBn;
    const bool json = o.json && rankZero;
    const bool quiet = o.quiet || !rankZero; // the other ranks only measure
    const std::optional<std::string> outPath = rankZero ? o.out : std::nullopt;
    if (outPath) {
        checkOutputFilePath(*outPath); // before minutes of measuring, not after
    }
    useAllCpuCores();
    if (noFusedBn) {
        setFusedBatchNormEnabled(false);
    }

    const std::string command = typedCommand();
    nlohmann::json record = {{"date", currentDateTimeUtc()},
                             {"host", hostName()},
                             {"cpu", cpuModelName()},
                             {"cpu_threads", torch::get_num_threads()},
                             {"device", deviceDescription(device)},
                             {"libtorch", compat::torchVersion()},
                             {"command", command},
                             {"results", nlohmann::json::array()}};
    if (distributed.enabled()) {
        record["ranks"] = distributed.worldSize;
        record["global_batch"] = o.batch;
        record["batch_per_rank"] = perRankShare(o.batch, distributed.worldSize);
    }
    if (what == "pipeline") {
        for (auto& result : benchPipeline(o, deviceText, quiet || json)) {
            record["results"].push_back(std::move(result));
        }
    }
    if (what == "decode") {
        for (auto& result : benchDecoding(o, quiet || json)) {
            record["results"].push_back(std::move(result));
        }
    }
    if (what == "augment" || what == "all") {
        for (const AugmentPipeline& pipeline : augmentPipelines()) {
            for (const int64_t channels : {int64_t(3), int64_t(1)}) {
                if (pipeline.inputSize > 32 && channels == 1) {
                    continue; // ImageNet's pipeline is for colour images
                }
                // A batch of 256-pixel images is 64 times the bytes of a 32-pixel one.
                const int64_t batch = std::max<int64_t>(1, augmentBatch * 32 * 32 / (pipeline.inputSize * pipeline.inputSize));
                auto result = benchAugmentation(device, batch, channels, pipeline, seconds);
                if (!json && !quiet) {
                    std::cout << "augmentation: " << result["pipeline"].get<std::string>() << ", "
                              << result["image"].get<std::string>() << ", batch " << batch << ": "
                              << static_cast<int64_t>(result["images_per_second"].get<double>()) << " images/s";
                    if (result.contains("max_abs_difference_from_cpu")) {
                        std::cout << " (largest difference from the CPU pipeline: "
                                  << result["max_abs_difference_from_cpu"].get<double>() << ")";
                    }
                    std::cout << "\n";
                }
                record["results"].push_back(result);
            }
        }
    }
    if (what == "train" || what == "all") {
        // The fused batch-norm kernels against ATen on a ResNet-32 stage-1 shape, so that every
        // record of the fast mode also says how closely its kernels match the reference.
        const auto deviation = rankZero ? measureFusedBatchNormDeviation(device, training.batchSize, 48, 32)
                                        : FusedBatchNormDeviation{};
        record["fused_batch_norm"] = {{"enabled", fusedBatchNormEnabled()}, {"checked", deviation.ran}};
        if (deviation.ran) {
            record["fused_batch_norm"]["relative_deviation_from_aten_fp32"] = {
                {"output", deviation.output},           {"grad_input", deviation.gradInput},
                {"grad_residual", deviation.gradResidual}, {"grad_weight", deviation.gradWeight},
                {"grad_bias", deviation.gradBias},      {"running_mean", deviation.runningMean},
                {"running_var", deviation.runningVar}};
            if (!json && !quiet) {
                std::cout << "fused batch norm + add + ReLU vs ATen fp32: largest relative deviation "
                          << deviation.largest() << "\n";
            }
        }
        for (const auto& result : benchmarkTraining(training)) {
            nlohmann::json entry = {{"benchmark", "training"},
                                    {"mode", result.mode},
                                    {"details", result.details},
                                    {"arch", training.arch},
                                    {"particles", training.particles},
                                    {"batch", training.batchSize},
                                    {"image", std::to_string(training.channels) + "x" + std::to_string(training.imageSize) + "x"
                                                  + std::to_string(training.imageSize)},
                                    {"classes", training.classes},
                                    {"ranks", result.ranks},
                                    {"global_batch", training.batchSize},
                                    {"batch_per_rank", perRankShare(training.batchSize, result.ranks)},
                                    {"images", result.images},
                                    {"objective", "LDAM margins + DRW weights + utility term (tail:0.5, alpha 0.002) + repulsion"},
                                    {"steps", result.steps},
                                    {"seconds", result.seconds},
                                    {"images_per_second", result.imagesPerSecond},
                                    {"train_images", training.trainImages},
                                    {"seconds_per_epoch", result.epochSeconds}};
            if (!json && !quiet) {
                std::cout << "training (" << result.mode << ": " << result.details << "), " << training.arch << " M="
                          << training.particles
                          << (result.ranks > 1 ? " global batch " + std::to_string(training.batchSize) + ", "
                                                     + perRankText(training.batchSize, result.ranks) + " per rank ("
                                                     + std::to_string(result.ranks) + " ranks)"
                                               : " batch " + std::to_string(training.batchSize))
                          << ": "
                          << static_cast<int64_t>(result.imagesPerSecond) << " images/s (" << result.epochSeconds
                          << " s per epoch of " << training.trainImages << " images)\n";
            }
            record["results"].push_back(entry);
        }
        const auto& results = record["results"];
        double fast = 0, plain = 0;
        for (const auto& r : results) {
            if (r.value("benchmark", "") == "training") {
                (r["mode"] == "fast" ? fast : plain) = r["images_per_second"].get<double>();
            }
        }
        if (fast > 0 && plain > 0) {
            record["training_speedup"] = fast / plain;
            if (!json && !quiet) {
                std::cout << "speed-up of the fast mode over the straightforward mode: " << fast / plain << "x\n";
            }
        }
    }
    if (!quiet) {
        (json ? std::cerr : std::cout) << "on " << deviceDescription(device) << ", " << cpuModelName() << "\n";
    }
    if (json) {
        std::cout << record.dump(2) << '\n';
    }
    if (outPath) {
        writeFileAtomically(*outPath, record.dump(2) + "\n");
    }
    return 0;
}

} // namespace

Command addBenchCommand(CLI::App& lbd)
{
    auto o = std::make_shared<BenchOptions>();
    CLI::App* c = lbd.add_subcommand("bench", "measure throughput (augmentation, training); the record names the machine, "
                                              "the date and the command");
    choices(c->add_option("--what", o->what, "what to measure (all: augment and train; decode: JPEG decoding for "
                                             "list-file data, per core and with every core; pipeline: the streaming "
                                             "input pipeline stage by stage, from files and from a dataset cache)"),
            {"augment", "train", "decode", "pipeline", "all"});
    c->add_option("--step-ms", o->stepMilliseconds, "pipeline: the synthetic training step in milliseconds (default: a "
                                                     "batch's decoding time, where overlap shows most)")
        ->check(CLI::Range(0.0, 100000.0));
    c->add_option("--pipeline-files", o->pipelineFiles, "pipeline: JPEG files written and streamed (256)")
        ->check(CLI::Range(int64_t{2}, int64_t{1000000}));
    c->add_flag("--pipeline-augment", o->pipelineAugment, "pipeline: augment on the CPU too (always on CUDA)");
    c->add_option("--decode-size", o->decodeSize, "decode: the training images' side in pixels (224)")
        ->check(CLI::Range(int64_t{8}, int64_t{4096}));
    c->add_option("--decode-threads", o->decodeThreads, "decode: thread counts to time (default: 1 and every core); pipeline: the decoding threads (the last one given; default every core)")
        ->delimiter(',')->check(CLI::Range(1, 1024));
    c->add_option("--device", o->device, "cpu, cuda[:N] or auto");
    c->add_option("--seconds", o->seconds, "seconds per augmentation (and decode) measurement")->check(CLI::Range(0.01, 3600.0));
    c->add_option("--augment-batch", o->augmentBatch, "augmentation batch (4096 on CUDA, 512 on the CPU)")
        ->check(CLI::Range(int64_t{1}, int64_t{1} << 20));
    choices(c->add_option("--arch", o->arch, "network of the training measurement"), {"resnet32", "resnet50", "smallcnn"});
    c->add_option("--particles", o->particles, "particles M")->check(CLI::Range(int64_t{1}, int64_t{64}));
    c->add_option("--batch", o->batch, "training batch (data-parallel: the global batch)")->check(CLI::Range(int64_t{1}, int64_t{65536}));
    c->add_option("--image-size", o->imageSize, "training images' side in pixels (32; 224 for ImageNet-size data)")
        ->check(CLI::Range(int64_t{8}, int64_t{1024}));
    c->add_option("--channels", o->channels, "training images' channels (1: Fashion-MNIST-like; 3: colour)")
        ->check(CLI::Range(int64_t{1}, int64_t{4}));
    c->add_option("--classes", o->classes, "classes of the synthetic training data (10; 1000 for ImageNet-size)")
        ->check(CLI::Range(int64_t{2}, int64_t{100000}));
    c->add_option("--train-images", o->trainImages, "synthetic training images (14886, the size of Fashion-MNIST-LT)")
        ->check(CLI::Range(int64_t{2}, int64_t{10000000}));
    c->add_option("--processes", o->processes, "data-parallel training measurement over N processes (with --what train; "
                                               "--batch is the global batch, each process trains batch/N of it)")
        ->check(CLI::Range(1, 64));
    c->add_option("--gpus", o->gpus, "data-parallel training measurement on the first N GPUs, a process each "
                                     "(--processes N --device cuda)")
        ->check(CLI::Range(1, 64))->excludes("--processes");
    c->add_option("--train-seconds", o->trainSeconds, "seconds per training mode (10 on CUDA, 20 on the CPU)")
        ->check(CLI::Range(0.01, 3600.0));
    choices(c->add_option("--precision", o->precision, "precision of the fast mode on CUDA"), {"fp16", "bf16", "fp32"});
    c->add_flag("--no-straightforward", o->noStraightforward, "time the fast mode only");
    c->add_flag("--no-cuda-graph", o->noCudaGraph, "run the fast mode's step eagerly, as data-parallel ranks do (the "
                                                     "same-path baseline of a scaling measurement)");
    c->add_option("--bucket-mb", o->bucketMegabytes, "data-parallel: all-reduce the gradients in buckets of this many MB, "
                                                     "each started during the backward pass; 0: one all-reduce after it (default 25)")
        ->check(CLI::Range(0.0, 4096.0));
    c->add_flag("--no-fused-bn", o->noFusedBn, "switch cuDNN's fused batch norm off (as LBD_FUSED_BN=0)");
    c->add_flag("--json", o->json, "print the record as JSON");
    c->add_flag("--quiet", o->quiet, "print nothing (the record still goes to --out)");
    c->add_option("--out", o->out, "also write the record to this JSON file")->type_name("FILE");
    return {c, [o] { return runBench(*o); }};
}

} // namespace lbd::cli
