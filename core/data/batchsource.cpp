#include "core/data/batchsource.h"

#include "core/data/devicebatcher.h"
#include "core/data/streamingbatcher.h"

namespace lbd {

std::unique_ptr<BatchSource> makeBatchSource(const DataSplit& split, const ImageFormat& format, const torch::Device& device,
                                             const AugmentSpec& augment, const Normalization& normalization,
                                             const BatchOptions& options)
{
    if (split.isStreamed()) {
        return std::make_unique<StreamingBatcher>(split, format, device, augment, normalization, options);
    }
    return std::make_unique<DeviceBatcher>(split, device, augment, normalization, options);
}

} // namespace lbd
