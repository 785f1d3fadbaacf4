#include "core/data/batchsource.h"

#include "core/data/devicebatcher.h"
#include "core/data/imagedecoder.h"
#include "core/data/streamingbatcher.h"
#include "core/util/error.h"

#include <thread>

namespace lbd {

Normalization computeSplitNormalization(const DataSplit& split, const ImageFormat& format, int64_t sampleFiles)
{
    if (!split.isStreamed()) {
        return computeNormalization(split.images);
    }
    const auto count = static_cast<int64_t>(split.files.size());
    const int64_t samples = std::min(count, sampleFiles);
    std::vector<std::string> sample;
    for (int64_t i = 0; i < samples; ++i) {
        sample.push_back(split.files[static_cast<size_t>(i * count / samples)]);
    }
    return computeNormalization(decodeImageFiles(sample, format, static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))));
}

std::unique_ptr<BatchSource> makeBatchSource(const DataSplit& split, const ImageFormat& format, const torch::Device& device,
                                             const AugmentSpec& augment, const Normalization& normalization,
                                             const BatchOptions& options)
{
    if (options.shardCount < 1 || options.shardIndex < 0 || options.shardIndex >= options.shardCount) {
        throw InputError("rank " + std::to_string(options.shardIndex) + " of " + std::to_string(options.shardCount)
                         + ": not a share of a batch");
    }
    if (split.isStreamed()) {
        return std::make_unique<StreamingBatcher>(split, format, device, augment, normalization, options,
                                                  options.decodeThreads);
    }
    return std::make_unique<DeviceBatcher>(split, device, augment, normalization, options);
}

} // namespace lbd
