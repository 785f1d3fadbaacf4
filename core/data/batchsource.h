#pragma once
// Minibatches for training and evaluation: shuffled per epoch, augmented on the device.
// DeviceBatcher keeps a data set that fits on the device as uint8; StreamingBatcher decodes
// files on a thread pool for data sets that do not fit. makeBatchSource picks one.
#include <torch/torch.h>

#include <cstdint>
#include <memory>

#include "core/data/augmentation.h"
#include "core/data/datasetcache.h"
#include "core/data/dataset.h"
#include "core/data/inputtimings.h"

namespace lbd {

struct Batch {
    torch::Tensor images; // float [B, C, S, S], normalised, on the device
    torch::Tensor labels; // int64 [B] on the device
    int64_t index = 0;    // batch number within the epoch
    // Data-parallel: the images of the whole batch over every rank (labels.size(0) otherwise).
    int64_t globalSize = 0;
    // The configured batch size, the shape a captured CUDA graph replays (epochorder.h
    // planEpochBatches); false for the remainder, which is trained eagerly.
    bool fixedShape = true;
};

struct BatchOptions {
    int64_t batchSize = 128;
    bool shuffle = true;   // false for evaluation (file order)
    bool augment = true;   // false for evaluation
    // Leaves the remainder out, every batch the same shape (benchmarks only: training sees every
    // image, epochorder.h planEpochBatches).
    bool dropLast = false;
    // Training: a remainder that would leave some rank fewer than 2 images (batch norm cannot take
    // statistics over one image) joins the batch before it instead of being dropped.
    bool mergeSmallRemainder = false;
    uint64_t seed = 0;
    // Data-parallel training: this process is rank `shardIndex` of `shardCount` and takes its
    // share of every batch (epochorder.h shardOfBatch); the union over ranks is the batch one
    // process would take, augmented with the same random draws.
    int shardIndex = 0;
    int shardCount = 1;
    // Streamed splits: threads decoding files (0: every core), and the dataset caches to read the
    // images from instead (datasetcache.h; looked up by path, a file in none of them is decoded).
    int decodeThreads = 0;
    std::vector<std::shared_ptr<const DatasetCache>> caches;
};

class BatchSource {
public:
    virtual ~BatchSource() = default;
    // Starts epoch `epoch` (1-based): the order and the augmentation depend only on (seed, epoch),
    // so a resumed run sees exactly the batches it would have seen.
    virtual void startEpoch(int64_t epoch) = 0;
    // The next batch of the epoch; false when the epoch is over.
    virtual bool next(Batch& batch) = 0;
    virtual int64_t batchesPerEpoch() const = 0;
    virtual int64_t size() const = 0;
    // Where this epoch's input time went so far (streamed splits; empty for data on the device).
    virtual InputTimings inputTimings() const { return {}; }
};

// Per-channel normalisation of a split: from its pixels, or, when it is streamed from disk, from
// an evenly spaced sample of at most `sampleFiles` decoded files.
Normalization computeSplitNormalization(const DataSplit& split, const ImageFormat& format, int64_t sampleFiles = 2000);

std::unique_ptr<BatchSource> makeBatchSource(const DataSplit& split, const ImageFormat& format, const torch::Device& device,
                                             const AugmentSpec& augment, const Normalization& normalization,
                                             const BatchOptions& options);

} // namespace lbd
