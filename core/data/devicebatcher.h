#pragma once
// Batches from a data set held on the device as uint8 (a 15k-image Fashion-MNIST-LT set is
// 12 MB): one index_select and one augmentation kernel chain per batch, no host round trips.
#include "core/data/batchsource.h"
#include "core/data/epochorder.h"

#include <vector>

namespace lbd {

class DeviceBatcher final : public BatchSource {
public:
    DeviceBatcher(const DataSplit& split, const torch::Device& device, const AugmentSpec& augment,
                  const Normalization& normalization, const BatchOptions& options);

    void startEpoch(int64_t epoch) override;
    bool next(Batch& batch) override;
    int64_t batchesPerEpoch() const override;
    int64_t size() const override { return m_size; }

private:
    torch::Tensor m_images; // uint8 on the device
    torch::Tensor m_labels; // int64 on the device
    torch::Device m_device;
    AugmentSpec m_augment;
    Normalization m_normalization;
    BatchOptions m_options;
    int64_t m_size = 0;
    std::vector<PlannedBatch> m_plan; // the same every epoch
    torch::Tensor m_order; // this epoch's permutation, on the device
    Rng m_rng{0};
    int64_t m_nextBatch = 0;
};

} // namespace lbd
