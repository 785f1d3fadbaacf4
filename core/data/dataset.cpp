#include "core/data/dataset.h"

#include "core/util/error.h"

namespace lbd {

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
