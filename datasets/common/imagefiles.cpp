#include "datasets/common/imagefiles.h"

#include "datasets/common/imagedecoder.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <numeric>
#include <thread>

namespace lbd {

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
