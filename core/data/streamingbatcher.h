#pragma once
// Batches for data sets too large to hold decoded: a pool of worker threads decodes the images of
// the next few batches (each batch split into chunks, so that every thread works even when only a
// few batches may be ahead) while the device trains on the current one; augmentation then runs on
// the device exactly as in DeviceBatcher. On CUDA a batch is assembled in pinned host memory
// (LibTorch's caching host allocator: at most `prefetchBatches` buffers live, reused) and copied
// with non_blocking, on the side stream of PrefetchingBatchSource during training. Images come
// from a dataset cache (datasetcache.h) where one holds them, else from the files.
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "core/data/batchsource.h"
#include "core/data/epochorder.h"

namespace lbd {

class StreamingBatcher final : public BatchSource {
public:
    StreamingBatcher(const DataSplit& split, const ImageFormat& format, const torch::Device& device,
                     const AugmentSpec& augment, const Normalization& normalization, const BatchOptions& options,
                     int threads = 0, int prefetchBatches = 4);
    ~StreamingBatcher() override;
    StreamingBatcher(const StreamingBatcher&) = delete;
    StreamingBatcher& operator=(const StreamingBatcher&) = delete;

    void startEpoch(int64_t epoch) override;
    bool next(Batch& batch) override;
    int64_t batchesPerEpoch() const override;
    int64_t size() const override { return static_cast<int64_t>(m_files.size()); }
    InputTimings inputTimings() const override;

private:
    // A batch being decoded: its pixels, and how many of its images are handed out / still to finish.
    struct Slot {
        torch::Tensor images; // uint8 [n, C, H, W] on the host (pinned on CUDA)
        int64_t count = 0;
        int64_t handedOut = 0;
        int64_t remaining = 0;
        std::exception_ptr error;
    };
    struct Chunk {
        int64_t batch = 0;
        int64_t first = 0; // within the batch's shard
        int64_t count = 0;
        uint8_t* out = nullptr;
    };

    void stopWorkers();
    void workerLoop();
    bool takeChunk(Chunk& chunk); // with m_mutex held
    void loadImage(int64_t row, uint8_t* out) const;
    void resolveCaches(const std::vector<std::shared_ptr<const DatasetCache>>& caches);

    std::vector<std::string> m_files;
    torch::Tensor m_labels; // CPU
    ImageFormat m_format;
    torch::Device m_device;
    AugmentSpec m_augment;
    Normalization m_normalization;
    BatchOptions m_options;
    int m_threads = 1;
    int m_prefetch = 4;
    // Per row: the cache holding it (index into m_options.caches) and its entry there; -1: decode the file.
    std::vector<int32_t> m_cacheOf;
    std::vector<int64_t> m_cacheEntry;

    std::vector<PlannedBatch> m_plan; // the same every epoch
    std::vector<int64_t> m_order;
    Rng m_rng{0};
    int64_t m_nextBatch = 0;

    std::mutex m_mutex;
    std::condition_variable m_changed;
    int64_t m_nextToDecode = 0;
    std::map<int64_t, Slot> m_slots; // batches in the window [m_nextBatch, m_nextBatch + m_prefetch)
    bool m_stopping = false;
    std::vector<std::thread> m_workers;

    // This epoch's timings (nanoseconds): decoding summed over the workers; the consumer's own.
    std::atomic<int64_t> m_decodeNs{0};
    int64_t m_waitNs = 0, m_copyNs = 0, m_augmentNs = 0, m_batchesTaken = 0, m_imagesTaken = 0;
};

} // namespace lbd
