#include "datasets/idx/idxreader.h"

#include "datasets/common/compressedfile.h"
#include "datasets/common/error.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace lbd {
namespace {

uint32_t readBigEndian32(const uint8_t* bytes)
{
    return (uint32_t(bytes[0]) << 24) | (uint32_t(bytes[1]) << 16) | (uint32_t(bytes[2]) << 8) | uint32_t(bytes[3]);
}

// "train-images-idx3-ubyte" may be stored with or without ".gz".
std::string findIdxFile(const std::string& directory, const std::string& stem)
{
    namespace fs = std::filesystem;
    for (const auto* suffix : {".gz", ""}) {
        const fs::path candidate = fs::path(directory) / (stem + suffix);
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec)) {
            return candidate.string();
        }
    }
    throw InputError((fs::path(directory) / (stem + "[.gz]")).string() + ": file not found");
}

} // namespace

IdxArray readIdxFile(const std::string& path, const ReadLimits& limits, int64_t alreadyRead)
{
    // The header is read first (at most 4 + 4 * 4 bytes), so its claim is checked before any data.
    const std::vector<uint8_t> head = readMaybeGzipPrefix(path, 4 + 4 * 4);
    if (head.size() < 4) {
        throw InputError(path + ": file too short to be an IDX file (" + std::to_string(head.size()) + " bytes)");
    }
    if (head[0] != 0 || head[1] != 0 || head[2] != 0x08) {
        char magic[16];
        std::snprintf(magic, sizeof magic, "0x%08x", readBigEndian32(head.data()));
        throw InputError(path + ": wrong magic number " + magic + " (expected 0x0000080N for unsigned-byte IDX data)");
    }
    const int dimensions = head[3];
    if (dimensions < 1 || dimensions > 4) {
        throw InputError(path + ": unsupported number of IDX dimensions " + std::to_string(dimensions));
    }
    const size_t headerSize = 4 + 4 * static_cast<size_t>(dimensions);
    if (head.size() < headerSize) {
        throw InputError(path + ": truncated IDX header");
    }
    IdxArray array;
    const int64_t left = limits.maxInMemoryBytes - alreadyRead - static_cast<int64_t>(headerSize);
    std::string claim;
    for (int d = 0; d < dimensions; ++d) {
        array.shape.push_back(readBigEndian32(head.data() + 4 + 4 * d));
        claim += (d > 0 ? " x " : "") + std::to_string(array.shape.back());
    }
    // Four 32-bit sizes multiplied overflow int64: compared with the budget by division instead.
    const bool empty = std::find(array.shape.begin(), array.shape.end(), 0) != array.shape.end();
    int64_t expected = empty ? 0 : 1;
    for (size_t d = 0; d < array.shape.size() && !empty; ++d) {
        if (expected > left / array.shape[d]) {
            throw InputError(path + ": header claims " + claim + " bytes of data, over the in-memory data budget of "
                             + std::to_string(limits.maxInMemoryBytes) + " bytes (maxInMemoryBytes)"
                             + (alreadyRead > 0 ? " with the files read before it" : ""));
        }
        expected *= array.shape[d];
    }
    std::vector<uint8_t> bytes = readMaybeGzipFile(path, limits, alreadyRead);
    const auto available = static_cast<int64_t>(bytes.size() - std::min(bytes.size(), headerSize));
    if (available < expected) {
        throw InputError(path + ": truncated file (" + std::to_string(available) + " of " + std::to_string(expected)
                         + " data bytes present)");
    }
    // The values stay in the buffer they were read into: drop the header, keep `expected` bytes.
    bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(headerSize));
    bytes.resize(static_cast<size_t>(expected));
    array.values = std::move(bytes);
    return array;
}

RawDataset readIdxDirectory(const std::string& directory, const std::string& name, const std::vector<std::string>& classNames,
                            const ReadLimits& limits)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(directory, ec)) {
        throw InputError(directory + ": data directory not found");
    }
    RawDataset dataset;
    dataset.name = name;
    dataset.classNames = classNames;
    std::vector<int64_t> imageShape; // [N, H, W] of the training images
    int64_t read = 0;                // bytes of the files read so far: the four share the budget
    const auto load = [&](const std::string& imagesStem, const std::string& labelsStem, RawSplit& split) {
        const std::string imagesPath = findIdxFile(directory, imagesStem);
        const std::string labelsPath = findIdxFile(directory, labelsStem);
        IdxArray images = readIdxFile(imagesPath, limits, read);
        read += static_cast<int64_t>(images.values.size());
        const IdxArray labels = readIdxFile(labelsPath, limits, read);
        read += static_cast<int64_t>(labels.values.size());
        if (images.shape.size() != 3) {
            throw InputError(imagesPath + ": expected a 3-dimensional image array, found "
                             + std::to_string(images.shape.size()) + " dimensions");
        }
        if (labels.shape.size() != 1) {
            throw InputError(labelsPath + ": expected a 1-dimensional label array");
        }
        if (labels.shape[0] != images.shape[0]) {
            throw InputError(labelsPath + ": " + std::to_string(labels.shape[0]) + " labels for "
                             + std::to_string(images.shape[0]) + " images in " + imagesPath);
        }
        // H x W sizes every image buffer made later, also for a file of zero images. Compared by
        // division: two 32-bit sizes multiplied overflow int64 (found by tools/fuzz).
        if (images.shape[1] > 0 && images.shape[2] > limits.maxImagePixels / images.shape[1]) {
            throw InputError(imagesPath + ": images of " + std::to_string(images.shape[1]) + " x "
                             + std::to_string(images.shape[2]) + " pixels are over the limit of "
                             + std::to_string(limits.maxImagePixels) + " pixels (maxImagePixels)");
        }
        split.labels.assign(labels.values.begin(), labels.values.end());
        checkLabelRange(split.labels, static_cast<int64_t>(classNames.size()), labelsPath);
        split.pixels = std::move(images.values); // N x H x W is N x 1 x H x W
        if (imageShape.empty()) {
            imageShape = images.shape;
        } else if (images.shape[1] != imageShape[1] || images.shape[2] != imageShape[2]) {
            throw InputError(directory + ": train and test images differ in size");
        }
    };
    load("train-images-idx3-ubyte", "train-labels-idx1-ubyte", dataset.train);
    load("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte", dataset.test);
    dataset.format = {1, imageShape[1], imageShape[2]};
    return dataset;
}

const std::vector<std::string>& fashionMnistClassNames()
{
    static const std::vector<std::string> names = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                                   "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
    return names;
}

const std::vector<std::string>& mnistClassNames()
{
    static const std::vector<std::string> names = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};
    return names;
}

} // namespace lbd
