#include "core/data/prefetchingbatchsource.h"

#include "core/compat/torchcompat.h"

#include <optional>

namespace lbd {
namespace {

class PrefetchingBatchSource final : public BatchSource {
public:
    PrefetchingBatchSource(std::unique_ptr<BatchSource> inner, const torch::Device& device)
        : m_inner(std::move(inner)), m_producer(device, true)
    {
    }

    void startEpoch(int64_t epoch) override
    {
        m_pending.reset(); // a batch prepared for an epoch that was cut short is dropped
        m_inner->startEpoch(epoch);
        prefetch();
    }

    bool next(Batch& batch) override
    {
        if (!m_pending) {
            return false;
        }
        m_producer.waitOnCurrent();
        batch = std::move(*m_pending);
        m_pending.reset();
        m_producer.handOver(batch.images);
        m_producer.handOver(batch.labels);
        prefetch(); // the following batch is prepared while the caller trains on this one
        return true;
    }

    int64_t batchesPerEpoch() const override { return m_inner->batchesPerEpoch(); }
    int64_t size() const override { return m_inner->size(); }
    InputTimings inputTimings() const override { return m_inner->inputTimings(); }

private:
    void prefetch()
    {
        Batch next;
        bool have = false;
        m_producer.run([&] { have = m_inner->next(next); });
        if (have) {
            m_pending = std::move(next);
        }
    }

    std::unique_ptr<BatchSource> m_inner;
    compat::ProducerStream m_producer;
    std::optional<Batch> m_pending;
};

} // namespace

std::unique_ptr<BatchSource> makePrefetchingBatchSource(std::unique_ptr<BatchSource> inner, const torch::Device& device)
{
    if (!device.is_cuda()) {
        return inner;
    }
    return std::make_unique<PrefetchingBatchSource>(std::move(inner), device);
}

} // namespace lbd
