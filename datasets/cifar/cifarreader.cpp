#include "datasets/cifar/cifarreader.h"

#include "datasets/common/compressedfile.h"
#include "datasets/common/error.h"
#include "datasets/common/textfile.h"

#include <cstring>
#include <filesystem>
#include <optional>

namespace lbd {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kPixels = 3 * 32 * 32;

// The folder holding `marker`: `directory` itself or its `subfolder`; nullopt when neither.
std::optional<std::string> findDataFolder(const std::string& directory, const std::string& marker,
                                          const std::string& subfolder)
{
    std::error_code ec;
    if (fs::exists(fs::path(directory) / marker, ec)) {
        return directory;
    }
    if (fs::exists(fs::path(directory) / subfolder / marker, ec)) {
        return (fs::path(directory) / subfolder).string();
    }
    return std::nullopt;
}

std::string resolveDirectory(const std::string& directory, const std::string& marker, const std::string& subfolder)
{
    std::error_code ec;
    if (!fs::is_directory(directory, ec)) {
        throw InputError(directory + ": data directory not found");
    }
    if (auto folder = findDataFolder(directory, marker, subfolder)) {
        return *folder;
    }
    throw InputError((fs::path(directory) / marker).string() + ": file not found (is this a CIFAR binary directory?)");
}

// Appends the records of one binary batch file. `labelOffset` picks the label byte used.
// `alreadyRead` counts the bytes of the files before this one, which share limits.maxInMemoryBytes.
void readRecords(const std::string& path, int64_t labelBytes, int64_t labelOffset, int64_t classCount,
                 const ReadLimits& limits, int64_t& alreadyRead, RawSplit& split)
{
    const std::vector<uint8_t> bytes = readMaybeGzipFile(path, limits, alreadyRead);
    alreadyRead += static_cast<int64_t>(bytes.size());
    const int64_t recordSize = labelBytes + kPixels;
    if (bytes.empty() || static_cast<int64_t>(bytes.size()) % recordSize != 0) {
        throw InputError(path + ": size " + std::to_string(bytes.size()) + " bytes is not a whole number of "
                         + std::to_string(recordSize) + "-byte CIFAR records (truncated or not a CIFAR binary file)");
    }
    const int64_t records = static_cast<int64_t>(bytes.size()) / recordSize;
    const size_t start = split.pixels.size();
    split.pixels.resize(start + static_cast<size_t>(records * kPixels));
    for (int64_t r = 0; r < records; ++r) {
        const uint8_t* record = bytes.data() + r * recordSize;
        const int64_t label = record[labelOffset];
        if (label >= classCount) {
            throw InputError(path + ": record " + std::to_string(r) + " has label " + std::to_string(label)
                             + ", out of range (expected 0.." + std::to_string(classCount - 1) + ")");
        }
        split.labels.push_back(label);
        std::memcpy(split.pixels.data() + start + r * kPixels, record + labelBytes, kPixels);
    }
}

// `count` names from `path`, or `fallback` when the file is missing or has another count.
std::vector<std::string> namesFile(const fs::path& path, size_t count, std::vector<std::string> fallback)
{
    std::optional<std::vector<std::string>> names = readNameLines(path.string());
    return names && names->size() == count ? *names : fallback;
}

std::vector<std::string> publishedCifar10Names()
{
    return {"airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"};
}

std::vector<std::string> cifar10NamesIn(const std::string& root)
{
    std::error_code ec;
    const fs::path meta = fs::path(root) / "batches.meta.txt";
    if (!fs::exists(meta, ec)) {
        return publishedCifar10Names();
    }
    return namesFile(meta, 10, numberedClassNames(10));
}

std::vector<std::string> cifar100NamesIn(const std::string& root)
{
    return namesFile(fs::path(root) / "fine_label_names.txt", 100, numberedClassNames(100));
}

constexpr const char* kCifar10Marker = "data_batch_1.bin";
constexpr const char* kCifar10Folder = "cifar-10-batches-bin";
constexpr const char* kCifar100Marker = "train.bin";
constexpr const char* kCifar100Folder = "cifar-100-binary";

} // namespace

RawDataset readCifar10(const std::string& directory, const ReadLimits& limits)
{
    int64_t read = 0;
    const std::string root = resolveDirectory(directory, kCifar10Marker, kCifar10Folder);
    RawDataset dataset;
    dataset.name = "cifar10";
    dataset.format = {3, 32, 32};
    for (int batch = 1; batch <= 5; ++batch) {
        readRecords((fs::path(root) / ("data_batch_" + std::to_string(batch) + ".bin")).string(), 1, 0, 10, limits, read,
                    dataset.train);
    }
    readRecords((fs::path(root) / "test_batch.bin").string(), 1, 0, 10, limits, read, dataset.test);
    dataset.classNames = cifar10NamesIn(root);
    return dataset;
}

RawDataset readCifar100(const std::string& directory, const ReadLimits& limits)
{
    int64_t read = 0;
    const std::string root = resolveDirectory(directory, kCifar100Marker, kCifar100Folder);
    RawDataset dataset;
    dataset.name = "cifar100";
    dataset.format = {3, 32, 32};
    readRecords((fs::path(root) / "train.bin").string(), 2, 1, 100, limits, read, dataset.train);
    readRecords((fs::path(root) / "test.bin").string(), 2, 1, 100, limits, read, dataset.test);
    dataset.classNames = cifar100NamesIn(root);
    return dataset;
}

// A names file refused by readNameLines (not a regular file, over its size limit) gives the
// fallback names here: the preview must not throw, and reading the data set reports the error.
std::vector<std::string> cifar10ClassNames(const std::string& directory)
{
    if (directory.empty()) {
        return publishedCifar10Names();
    }
    try {
        return cifar10NamesIn(findDataFolder(directory, kCifar10Marker, kCifar10Folder).value_or(directory));
    } catch (const InputError&) {
        return publishedCifar10Names();
    }
}

std::vector<std::string> cifar100ClassNames(const std::string& directory)
{
    if (directory.empty()) {
        return numberedClassNames(100);
    }
    try {
        return cifar100NamesIn(findDataFolder(directory, kCifar100Marker, kCifar100Folder).value_or(directory));
    } catch (const InputError&) {
        return numberedClassNames(100);
    }
}

} // namespace lbd
