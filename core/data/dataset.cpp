#include "core/data/dataset.h"

#include "core/util/error.h"

#include <memory>

namespace lbd {
namespace {

// A tensor over the vector's buffer; the tensor's deleter owns (and finally frees) the vector.
template <typename T>
torch::Tensor adopt(std::vector<T> values, std::vector<int64_t> sizes, torch::ScalarType type)
{
    if (values.empty()) {
        return torch::empty(sizes, type);
    }
    auto owner = std::make_unique<std::vector<T>>(std::move(values));
    void* data = owner->data();
    auto tensor = torch::from_blob(data, sizes, [vector = owner.get()](void*) { delete vector; }, torch::TensorOptions(type));
    owner.release(); // from_blob succeeded: the tensor's deleter frees the vector now
    return tensor;
}

} // namespace

DataSplit toDataSplit(RawSplit raw, const ImageFormat& format)
{
    DataSplit split;
    const int64_t count = raw.size();
    if (!raw.isStreamed()) {
        if (static_cast<int64_t>(raw.pixels.size()) != count * format.bytesPerImage()) {
            throw RunError("reader returned " + std::to_string(raw.pixels.size()) + " pixel bytes for " + std::to_string(count)
                           + " images of " + std::to_string(format.bytesPerImage()) + " bytes");
        }
        split.images = adopt(std::move(raw.pixels), {count, format.channels, format.height, format.width}, torch::kUInt8);
    }
    split.labels = adopt(std::move(raw.labels), {count}, torch::kInt64);
    split.files = std::move(raw.files);
    return split;
}

Dataset toDataset(RawDataset raw)
{
    Dataset dataset;
    dataset.name = std::move(raw.name);
    dataset.classNames = std::move(raw.classNames);
    dataset.format = raw.format;
    dataset.report = std::move(raw.report);
    dataset.train = toDataSplit(std::move(raw.train), raw.format);
    dataset.test = toDataSplit(std::move(raw.test), raw.format);
    if (raw.validation.size() > 0) { // else left empty, as a data set without one
        dataset.validation = toDataSplit(std::move(raw.validation), raw.format);
    }
    return dataset;
}

DataSplit DataSplit::select(const torch::Tensor& indices) const
{
    DataSplit out;
    out.labels = labels.index_select(0, indices);
    if (images.defined()) {
        out.images = images.index_select(0, indices);
    }
    if (!files.empty()) {
        const auto* index = indices.data_ptr<int64_t>();
        out.files.reserve(static_cast<size_t>(indices.size(0)));
        for (int64_t i = 0; i < indices.size(0); ++i) {
            out.files.push_back(files[static_cast<size_t>(index[i])]);
        }
    }
    return out;
}

std::vector<int64_t> countPerClass(const torch::Tensor& labels, int64_t classCount)
{
    std::vector<int64_t> counts(static_cast<size_t>(classCount), 0);
    const auto contiguous = labels.to(torch::kInt64).contiguous();
    const auto* data = contiguous.data_ptr<int64_t>();
    for (int64_t i = 0; i < contiguous.numel(); ++i) {
        if (data[i] >= 0 && data[i] < classCount) {
            ++counts[static_cast<size_t>(data[i])];
        }
    }
    return counts;
}

void checkLabelRange(const torch::Tensor& labels, int64_t classCount, const std::string& source)
{
    if (labels.numel() == 0) {
        return;
    }
    const auto minLabel = labels.min().item<int64_t>();
    const auto maxLabel = labels.max().item<int64_t>();
    if (minLabel < 0 || maxLabel >= classCount) {
        throw InputError(source + ": label " + std::to_string(minLabel < 0 ? minLabel : maxLabel)
                         + " is out of range (expected 0.." + std::to_string(classCount - 1) + ")");
    }
}

} // namespace lbd
