#include "datasets/common/imagefiles.h"

#include "datasets/common/datacheck.h"
#include "datasets/common/error.h"
#include "datasets/common/imagedecoder.h"
#include "datasets/common/imageheader.h"

#include <algorithm>
#include <cstring>
#include <cctype>
#include <filesystem>
#include <numeric>
#include <thread>

namespace lbd {

int64_t channelsOfImages(const std::vector<std::string>& paths, const ReadLimits& limits, const AlphaBackground& background)
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
    ImageFormat rgb{3, 32, 32};
    rgb.background = background;
    std::vector<uint8_t> pixels(sample.size() * static_cast<size_t>(rgb.bytesPerImage()));
    const DecodeOutcome outcome = decodeImageFilesKeepingGoing(
        sample, rgb, std::max(1, static_cast<int>(std::thread::hardware_concurrency())), pixels.data(), limits);
    const size_t plane = 32 * 32;
    for (size_t image = 0; image < sample.size(); ++image) {
        if (!outcome.errors[image].empty()) {
            continue;
        }
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
        format.channels = channelsOfImages(paths, limits, format.background);
    }
    return format;
}

namespace {

// A streamed split is not decoded here: a file is left out when it is empty or its first bytes are
// not an image header the decoders know (cheap: a few bytes per file, for a million-file list). A
// size those bytes give (PNG, BMP, GIF, ...) is held to the pixel limit now, not at a batch mid-run.
std::string streamedFileProblem(const std::string& path, const ReadLimits& limits)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) {
        return "cannot read (" + ec.message() + ")";
    }
    if (size == 0) {
        return "empty file";
    }
    try {
        const std::vector<uint8_t> head = readFileHead(path, 64);
        if (!parseImageHeader(head.data(), head.size())) {
            return "not an image file (its first bytes are no PNG, JPEG, BMP, TIFF, WebP or PNM header)";
        }
        checkImageHeader(head.data(), head.size(), path, limits);
    } catch (const ReadLimitError&) {
        throw;
    } catch (const std::exception& error) {
        const std::string reason = error.what(); // the report names the file once
        return reason.rfind(path + ": ", 0) == 0 ? reason.substr(path.size() + 2) : reason;
    }
    return {};
}

// Refuses under data.on_bad_file refuse, or when most of the split failed; else lists the failures
// in `report` and returns which rows to keep.
std::vector<bool> keptRows(const std::vector<std::string>& paths, const std::vector<std::string>& errors,
                           const ImageFileOptions& options, DataReport& report, const std::string& splitName)
{
    std::vector<bool> keep(paths.size(), true);
    size_t failed = 0;
    size_t first = paths.size();
    for (size_t i = 0; i < paths.size(); ++i) {
        if (!errors[i].empty()) {
            keep[i] = false;
            first = std::min(first, i);
            ++failed;
        }
    }
    if (failed == 0) {
        return keep;
    }
    const std::string firstFailure = paths[first] + ": " + errors[first];
    if (options.onBadFile == BadFilePolicy::Refuse) {
        throw InputError(firstFailure + " (" + std::to_string(failed) + " of the " + splitName
                         + " files cannot be read; data.on_bad_file skip leaves them out)");
    }
    if (double(failed) > kMostFilesBad * double(paths.size())) {
        throw InputError(std::to_string(failed) + " of the " + std::to_string(paths.size()) + " " + splitName
                         + " image files cannot be read (more than half: the wrong folder, or a broken copy?); the first: "
                         + firstFailure);
    }
    for (size_t i = 0; i < paths.size(); ++i) {
        if (!keep[i]) {
            report.skipped.push_back({paths[i], errors[i]});
        }
    }
    return keep;
}

template <typename T>
void keepOnly(std::vector<T>& values, const std::vector<bool>& keep)
{
    size_t at = 0;
    for (size_t i = 0; i < values.size(); ++i) {
        if (keep[i]) {
            if (at != i) { // a self-move would empty a string
                values[at] = std::move(values[i]);
            }
            ++at;
        }
    }
    values.resize(at);
}

} // namespace

RawSplit makeImageFileSplit(std::vector<std::string> paths, std::vector<int64_t> labels, const ImageFileOptions& options,
                            DataReport& report, const std::string& splitName)
{
    RawSplit split;
    const int64_t imageBytes = options.format.bytesPerImage();
    const int64_t bytes = static_cast<int64_t>(paths.size()) * imageBytes;
    if (bytes > options.limits.maxInMemoryBytes) {
        std::vector<std::string> errors(paths.size());
        for (size_t i = 0; i < paths.size(); ++i) {
            errors[i] = streamedFileProblem(paths[i], options.limits);
        }
        const std::vector<bool> keep = keptRows(paths, errors, options, report, splitName);
        keepOnly(paths, keep);
        keepOnly(labels, keep);
        split.labels = std::move(labels);
        split.files = std::move(paths);
        return split;
    }
    const int threads = options.decodeThreads > 0 ? options.decodeThreads
                                                  : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    split.pixels.resize(static_cast<size_t>(bytes));
    const DecodeOutcome outcome = decodeImageFilesKeepingGoing(paths, options.format, threads, split.pixels.data(), options.limits);
    const std::vector<bool> keep = keptRows(paths, outcome.errors, options, report, splitName);
    report.composited += outcome.composited;
    report.turned += outcome.turned;
    size_t at = 0;
    for (size_t i = 0; i < paths.size(); ++i) {
        if (keep[i]) {
            if (at != i) {
                std::memmove(split.pixels.data() + at * imageBytes, split.pixels.data() + i * imageBytes, size_t(imageBytes));
            }
            ++at;
        }
    }
    split.pixels.resize(at * static_cast<size_t>(imageBytes));
    keepOnly(labels, keep);
    split.labels = std::move(labels);
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

void finishImageFileDataset(RawDataset& dataset, const AlphaBackground& background)
{
    const std::vector<int64_t> counts = countPerClass(dataset.train.labels, dataset.classCount());
    for (size_t c = 0; c < counts.size(); ++c) {
        if (counts[c] == 0) {
            std::string first;
            for (const SkippedFile& file : dataset.report.skipped) {
                first = first.empty() ? file.file + ": " + file.reason : first;
            }
            throw InputError("class " + dataset.classNames[c] + ": none of its training images can be read (the first "
                             "file left out: " + first + ")");
        }
    }
    orderClassesByTrainCount(dataset);
    dataset.report.background = alphaBackgroundName(background);
    dataset.report.checked = !dataset.train.isStreamed();
    dataset.report.checkWarnings = checkTrainingImages(dataset.train, dataset.format, dataset.classNames);
}

bool hasImageExtension(const std::string& path)
{
    std::string extension = std::filesystem::path(path).extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return std::tolower(c); });
    static const char* known[] = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".pgm", ".ppm", ".pbm"};
    return std::any_of(std::begin(known), std::end(known), [&](const char* k) { return extension == k; });
}

} // namespace lbd
