#include "core/data/imagefiles.h"

#include "core/data/imagedecoder.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <numeric>
#include <thread>

namespace lbd {

DataSplit makeImageFileSplit(std::vector<std::string> paths, std::vector<int64_t> labels, const ImageFileOptions& options)
{
    DataSplit split;
    const auto count = static_cast<int64_t>(labels.size());
    split.labels = torch::from_blob(labels.data(), {count}, torch::kInt64).clone();
    const int64_t bytes = count * options.format.channels * options.format.height * options.format.width;
    if (bytes > options.maxInMemoryBytes) {
        split.files = std::move(paths);
        return split;
    }
    const int threads = options.decodeThreads > 0 ? options.decodeThreads
                                                  : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    split.images = decodeImageFiles(paths, options.format, threads);
    return split;
}

void orderClassesByTrainCount(Dataset& dataset)
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
    const auto mapping = torch::from_blob(newIndex.data(), {classCount}, torch::kInt64).clone();
    dataset.classNames = std::move(names);
    for (DataSplit* split : {&dataset.train, &dataset.test, &dataset.validation}) {
        if (split->labels.defined() && split->labels.numel() > 0) {
            split->labels = mapping.index_select(0, split->labels);
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
