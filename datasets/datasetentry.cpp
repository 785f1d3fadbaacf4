#include "datasets/datasetentry.h"

namespace lbd {

std::string DatasetEntry::directoryFor(const DatasetOptions& options) const
{
    return options.directory.empty() ? defaultDirectory : options.directory;
}

DatasetPreview DatasetEntry::previewFor(const DatasetOptions& options) const
{
    if (preview) {
        return preview(options);
    }
    return {classNames, imagesPerClass, imagesPerClassExact};
}

ImageFormat DatasetEntry::formatFor(const DatasetOptions& options) const
{
    if (format) {
        return format(options);
    }
    return nativeFormat;
}

ImageFormat convertedImageFormat(const DatasetOptions& options)
{
    ImageFormat format{options.channels, options.imageSize, options.imageSize};
    format.background = options.alphaBackground;
    return format;
}

} // namespace lbd
