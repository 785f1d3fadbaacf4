#pragma once
// Batches for data sets too large to hold decoded: worker threads decode the files of the next
// few batches with OpenCV while the device trains on the current one; augmentation then runs on
// the device exactly as in DeviceBatcher.
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

private:
    void stopWorkers();
    void workerLoop();

    std::vector<std::string> m_files;
    torch::Tensor m_labels; // CPU
    ImageFormat m_format;
    torch::Device m_device;
    AugmentSpec m_augment;
    Normalization m_normalization;
    BatchOptions m_options;
    int m_threads = 1;
    int m_prefetch = 4;

    std::vector<PlannedBatch> m_plan; // the same every epoch
    std::vector<int64_t> m_order;
    Rng m_rng{0};
    int64_t m_nextBatch = 0;

    std::mutex m_mutex;
    std::condition_variable m_changed;
    int64_t m_nextToDecode = 0;
    std::map<int64_t, torch::Tensor> m_ready;      // decoded batches waiting to be taken
    std::map<int64_t, std::exception_ptr> m_failed; // decoding errors, raised in order
    bool m_stopping = false;
    std::vector<std::thread> m_workers;
};

} // namespace lbd
