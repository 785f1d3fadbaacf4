#pragma once
// Measures the streaming input pipeline (streamingbatcher.h) on this machine, stage by stage:
// decoding alone on every decoding thread, the pipeline with a no-op training step (its own
// rate), and the pipeline with a synthetic step of a fixed time (a sleep: a device step runs
// asynchronously to the host, leaving its cores to the decoders), from the JPEG files and from a
// dataset cache of them. With a step as long as decoding a batch, overlapped stages give the
// decoding rate and serial ones half of it. The files are ImageNet-like 500 x 375 JPEGs (the
// decode benchmark's), decoded to 256 and augmented as the imagenet-lt preset (random resized
// crop to 224, flip, colour jitter).
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/inputtimings.h"

namespace lbd {

struct PipelineBenchmarkOptions {
    int64_t files = 256;
    int64_t sourceWidth = 500;
    int64_t sourceHeight = 375;
    int64_t decodeSize = 256;
    int64_t outputSize = 224;
    int64_t batchSize = 64;
    int threads = 0;                // decoding threads (0: every core)
    double stepMilliseconds = -1;   // the synthetic step; < 0: a batch's time at the decode-only rate
    double seconds = 3;             // per measurement (whole epochs, at least one)
    std::string device = "cpu";
    bool cache = true;              // also measure reading from a dataset cache of the files
    // The imagenet-lt augmentation on the device; off: centre crop and normalise only (on the CPU,
    // where the augmentation would be torch's resampling on the decoders' cores, not the pipeline).
    bool augment = true;
};

struct PipelineResult {
    std::string source;   // "files" or "cache"
    std::string step;     // "none" or "synthetic"
    int64_t images = 0;
    double seconds = 0;
    double imagesPerSecond = 0;
    InputTimings timings; // of the last epoch
    double epochSeconds = 0; // of the last epoch
};

struct PipelineBenchmark {
    int threads = 1;
    double meanFileBytes = 0;
    double decodeImagesPerSecond = 0; // decodeImageFiles alone, every thread
    double stepMilliseconds = 0;
    double cacheBuildSeconds = 0;
    int64_t cacheBytes = 0;
    std::vector<PipelineResult> results;
};

PipelineBenchmark benchmarkPipeline(const PipelineBenchmarkOptions& options);

} // namespace lbd
