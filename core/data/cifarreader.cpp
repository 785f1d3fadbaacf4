#include "core/data/cifarreader.h"

#include "core/data/compressedfile.h"
#include "core/util/error.h"

#include <cstring>
#include <filesystem>
#include <fstream>

namespace lbd {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kPixels = 3 * 32 * 32;

std::string resolveDirectory(const std::string& directory, const std::string& marker, const std::string& subfolder)
{
    std::error_code ec;
    if (!fs::is_directory(directory, ec)) {
        throw InputError(directory + ": data directory not found");
    }
    if (fs::exists(fs::path(directory) / marker, ec)) {
        return directory;
    }
    if (fs::exists(fs::path(directory) / subfolder / marker, ec)) {
        return (fs::path(directory) / subfolder).string();
    }
    throw InputError((fs::path(directory) / marker).string() + ": file not found (is this a CIFAR binary directory?)");
}

// Appends the records of one binary batch file. `labelOffset` picks the label byte used.
void readRecords(const std::string& path, int64_t labelBytes, int64_t labelOffset, int64_t classCount,
                 std::vector<uint8_t>& pixels, std::vector<int64_t>& labels)
{
    const std::vector<uint8_t> bytes = readMaybeGzipFile(path);
    const int64_t recordSize = labelBytes + kPixels;
    if (bytes.empty() || static_cast<int64_t>(bytes.size()) % recordSize != 0) {
        throw InputError(path + ": size " + std::to_string(bytes.size()) + " bytes is not a whole number of "
                         + std::to_string(recordSize) + "-byte CIFAR records (truncated or not a CIFAR binary file)");
    }
    const int64_t records = static_cast<int64_t>(bytes.size()) / recordSize;
    const size_t start = pixels.size();
    pixels.resize(start + static_cast<size_t>(records * kPixels));
    for (int64_t r = 0; r < records; ++r) {
        const uint8_t* record = bytes.data() + r * recordSize;
        const int64_t label = record[labelOffset];
        if (label >= classCount) {
            throw InputError(path + ": record " + std::to_string(r) + " has label " + std::to_string(label)
                             + ", out of range (expected 0.." + std::to_string(classCount - 1) + ")");
        }
        labels.push_back(label);
        std::memcpy(pixels.data() + start + r * kPixels, record + labelBytes, kPixels);
    }
}

DataSplit makeSplit(std::vector<uint8_t>& pixels, std::vector<int64_t>& labels)
{
    DataSplit split;
    const auto n = static_cast<int64_t>(labels.size());
    split.images = torch::empty({n, 3, 32, 32}, torch::kUInt8);
    std::memcpy(split.images.data_ptr<uint8_t>(), pixels.data(), pixels.size());
    split.labels = torch::from_blob(labels.data(), {n}, torch::kInt64).clone();
    return split;
}

std::vector<std::string> readNames(const fs::path& path, size_t expected)
{
    std::vector<std::string> names;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) {
            line.pop_back();
        }
        if (!line.empty()) {
            names.push_back(line);
        }
    }
    if (names.size() != expected) {
        names.clear();
        for (size_t i = 0; i < expected; ++i) {
            names.push_back("class " + std::to_string(i));
        }
    }
    return names;
}

} // namespace

Dataset loadCifar10(const std::string& directory)
{
    const std::string root = resolveDirectory(directory, "data_batch_1.bin", "cifar-10-batches-bin");
    Dataset dataset;
    dataset.name = "cifar10";
    dataset.format = {3, 32, 32};
    std::vector<uint8_t> pixels;
    std::vector<int64_t> labels;
    for (int batch = 1; batch <= 5; ++batch) {
        readRecords((fs::path(root) / ("data_batch_" + std::to_string(batch) + ".bin")).string(), 1, 0, 10, pixels, labels);
    }
    dataset.train = makeSplit(pixels, labels);
    pixels.clear();
    labels.clear();
    readRecords((fs::path(root) / "test_batch.bin").string(), 1, 0, 10, pixels, labels);
    dataset.test = makeSplit(pixels, labels);
    std::error_code ec;
    const fs::path meta = fs::path(root) / "batches.meta.txt";
    dataset.classNames = fs::exists(meta, ec)
        ? readNames(meta, 10)
        : std::vector<std::string>{"airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"};
    return dataset;
}

Dataset loadCifar100(const std::string& directory)
{
    const std::string root = resolveDirectory(directory, "train.bin", "cifar-100-binary");
    Dataset dataset;
    dataset.name = "cifar100";
    dataset.format = {3, 32, 32};
    std::vector<uint8_t> pixels;
    std::vector<int64_t> labels;
    readRecords((fs::path(root) / "train.bin").string(), 2, 1, 100, pixels, labels);
    dataset.train = makeSplit(pixels, labels);
    pixels.clear();
    labels.clear();
    readRecords((fs::path(root) / "test.bin").string(), 2, 1, 100, pixels, labels);
    dataset.test = makeSplit(pixels, labels);
    dataset.classNames = readNames(fs::path(root) / "fine_label_names.txt", 100);
    return dataset;
}

} // namespace lbd
