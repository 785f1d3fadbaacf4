#pragma once
// Measures training throughput (images/s) of the real step: data on the device, augmentation,
// fused particle model, full LBD objective, flat SGD, mixed precision + CUDA graph where available; and, in
// the same process, the straightforward mode (particles one after another, fp32, augmentation on
// the host, no graph) so that the speed-up is a measured ratio. Data-parallel: batchSize is the
// global batch, every rank trains its share of each (batchSize / ranks, as `lbd train` does)
// with its gradients averaged over the ranks (core/dist), and the result counts each image once.
#include "core/dist/distributedspec.h"
#include "core/train/trainconfig.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

struct TrainingBenchmarkOptions {
    std::string device = "auto";
    std::string arch = "resnet32";
    int64_t particles = 3;
    int64_t batchSize = 128;
    int64_t imageSize = 32;
    int64_t channels = 1;          // Fashion-MNIST-like
    int64_t classes = 10;
    int64_t trainImages = 14886;   // the size of Fashion-MNIST-LT, rho = 100
    double seconds = 10;           // timed per mode, after warm-up
    bool straightforward = true;   // also time the straightforward mode
    Precision precision = Precision::Fp16; // of the fast mode on CUDA (train.precision)
    bool cudaGraph = true;         // capture the fast mode's step (single process on CUDA only)
    // Data-parallel: gradient buckets all-reduced during the backward pass (gradientreducer.h);
    // 0: one all-reduce of all gradients after it.
    double gradientBucketMegabytes = 25;
    DistributedSpec distributed;   // this process's rank (a CUDA device becomes cuda:localRank)
};

struct TrainingBenchmarkResult {
    std::string mode;              // "fast" or "straightforward"
    std::string details;           // bf16, CUDA graph status, ...
    double imagesPerSecond = 0;
    int64_t steps = 0;
    int64_t images = 0;            // trained in the timed steps: steps x the global batch
    int64_t imagesThisRank = 0;    // of them, this rank's shares
    double seconds = 0;
    double epochSeconds = 0;       // trainImages / imagesPerSecond
    int ranks = 1;                 // data-parallel: each trained a share of every global batch
    std::string collectives;       // data-parallel: "nccl" or "gloo"
};

std::vector<TrainingBenchmarkResult> benchmarkTraining(const TrainingBenchmarkOptions& options);

} // namespace lbd
