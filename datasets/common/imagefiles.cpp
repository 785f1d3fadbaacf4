#include "datasets/common/imagefiles.h"

#include "datasets/common/imagedecoder.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <numeric>
#include <thread>

namespace lbd {

int64_t channelsOfImages(const std::vector<std::string>& paths, const ReadLimits& limits)
{
    if (paths.empty()) {
        return 3;
    }
    const size_t samples = std::min<size_t>(paths.size(), 256);
    std::vector<std::string> sample;
    for (size_t i = 0; i < samples; ++i) {
        sample.push_back(paths[samples == 1 ? 0 : i * (paths.size() - 1) / (samples - 1)]);
    }
    // Decoded as RGB at a small size: a grey file decodes to three equal planes (resizing keeps
    // them equal), a colour one does not.
    const ImageFormat rgb{3, 32, 32};
    std::vector<uint8_t> pixels(sample.size() * static_cast<size_t>(rgb.bytesPerImage()));
    decodeImageFiles(sample, rgb, std::max(1, static_cast<int>(std::thread::hardware_concurrency())), pixels.data(), limits);
    const size_t plane = 32 * 32;
    for (size_t image = 0; image < sample.size(); ++image) {
        const uint8_t* p = pixels.data() + image * 3 * plane;
        for (size_t i = 0; i < plane; ++i) {
            if (p[i] != p[plane + i] || p[i] != p[2 * plane + i]) {
                return 3;
            }
        }
    }
    return 1;
}

ImageFormat resolvedImageFormat(ImageFormat format, const std::vector<std::string>& paths, const ReadLimits& limits)
{
    if (format.channels == 0) {
        format.channels = channelsOfImages(paths, limits);
    }
    return format;
}

RawSplit makeImageFileSplit(std::vector<std::string> paths, std::vector<int64_t> labels, const ImageFileOptions& options)
{
    RawSplit split;
    split.labels = std::move(labels);
    const int64_t bytes = split.size() * options.format.bytesPerImage();
    if (bytes > options.limits.maxInMemoryBytes) {
        split.files = std::move(paths);
        return split;
    }
    const int threads = options.decodeThreads > 0 ? options.decodeThreads
                                                  : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    split.pixels.resize(static_cast<size_t>(bytes));
    decodeImageFiles(paths, options.format, threads, split.pixels.data(), options.limits);
    return split;
}

void orderClassesByTrainCount(RawDataset& dataset)
{
    const int64_t classCount = dataset.classCount();
    const auto counts = countPerClass(dataset.train.labels, classCount);
    std::vector<int64_t> order(static_cast<size_t>(classCount));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        if (counts[a] != counts[b]) {
            return counts[a] > counts[b];
        }
        return dataset.classNames[a] < dataset.classNames[b];
    });
    std::vector<int64_t> newIndex(static_cast<size_t>(classCount));
    std::vector<std::string> names(static_cast<size_t>(classCount));
    for (int64_t position = 0; position < classCount; ++position) {
        newIndex[order[position]] = position;
        names[position] = dataset.classNames[order[position]];
    }
    dataset.classNames = std::move(names);
    for (RawSplit* split : {&dataset.train, &dataset.test, &dataset.validation}) {
        for (int64_t& label : split->labels) {
            label = newIndex.at(static_cast<size_t>(label));
        }
    }
}

bool hasImageExtension(const std::string& path)
{
    std::string extension = std::filesystem::path(path).extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return std::tolower(c); });
    static const char* known[] = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".pgm", ".ppm", ".pbm"};
    return std::any_of(std::begin(known), std::end(known), [&](const char* k) { return extension == k; });
}

} // namespace lbd
