#include "datasets/common/rawdataset.h"

#include "datasets/common/error.h"

#include <algorithm>

namespace lbd {

std::vector<std::string> numberedClassNames(int64_t count)
{
    std::vector<std::string> names;
    for (int64_t i = 0; i < count; ++i) {
        names.push_back("class " + std::to_string(i));
    }
    return names;
}

std::vector<int64_t> countPerClass(const std::vector<int64_t>& labels, int64_t classCount)
{
    std::vector<int64_t> counts(static_cast<size_t>(std::max<int64_t>(classCount, 0)), 0);
    for (const int64_t label : labels) {
        if (label >= 0 && label < classCount) {
            ++counts[static_cast<size_t>(label)];
        }
    }
    return counts;
}

void checkLabelRange(const std::vector<int64_t>& labels, int64_t classCount, const std::string& source)
{
    if (labels.empty()) {
        return;
    }
    const auto [minLabel, maxLabel] = std::minmax_element(labels.begin(), labels.end());
    if (*minLabel < 0 || *maxLabel >= classCount) {
        throw InputError(source + ": label " + std::to_string(*minLabel < 0 ? *minLabel : *maxLabel)
                         + " is out of range (expected 0.." + std::to_string(classCount - 1) + ")");
    }
}

} // namespace lbd
