#include "core/data/longtail.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/random.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace lbd {

void LongTailSpec::validate() const
{
    if (!std::isfinite(imbalanceRatio) || imbalanceRatio < 1.0) {
        throw InputError("imbalance_ratio must be a finite number >= 1 (n_max / n_min), got "
                         + std::to_string(imbalanceRatio));
    }
}

std::string profileName(LongTailProfile profile)
{
    return profile == LongTailProfile::Exponential ? "exp" : "step";
}

LongTailProfile parseProfile(const std::string& text)
{
    if (text == "exp" || text == "exponential") {
        return LongTailProfile::Exponential;
    }
    if (text == "step") {
        return LongTailProfile::Step;
    }
    throw InputError("profile '" + text + "' is not known (use 'exp' or 'step')");
}

std::vector<int64_t> longTailCounts(int64_t maxCount, int64_t classCount, const LongTailSpec& spec)
{
    spec.validate();
    std::vector<int64_t> counts(static_cast<size_t>(classCount), maxCount);
    const double rho = spec.imbalanceRatio;
    for (int64_t c = 0; c < classCount; ++c) {
        double target = static_cast<double>(maxCount);
        if (spec.profile == LongTailProfile::Exponential) {
            if (classCount > 1) {
                target = static_cast<double>(maxCount) * std::pow(1.0 / rho, static_cast<double>(c) / static_cast<double>(classCount - 1));
            }
        } else if (c >= classCount / 2) {
            target = static_cast<double>(maxCount) / rho;
        }
        // int() truncation as in the CIFAR-LT code; at least one image per class.
        counts[static_cast<size_t>(c)] = std::max<int64_t>(1, static_cast<int64_t>(target));
    }
    return counts;
}

LongTailSplit makeLongTailSplit(const Dataset& dataset, const LongTailSpec& spec)
{
    spec.validate();
    const int64_t classCount = dataset.classCount();
    const auto available = countPerClass(dataset.train.labels, classCount);
    const int64_t maxCount = *std::max_element(available.begin(), available.end());
    const auto targets = longTailCounts(maxCount, classCount, spec);

    std::vector<std::vector<int64_t>> byClass(static_cast<size_t>(classCount));
    const auto labels = dataset.train.labels.contiguous();
    const auto* label = labels.data_ptr<int64_t>();
    for (int64_t i = 0; i < labels.numel(); ++i) {
        byClass[static_cast<size_t>(label[i])].push_back(i);
    }
    LongTailSplit split;
    split.dataset = dataset.name;
    split.spec = spec;
    Rng rng(spec.seed, 0x5917);
    for (int64_t c = 0; c < classCount; ++c) {
        auto& indices = byClass[static_cast<size_t>(c)];
        const auto keep = std::min<int64_t>(targets[static_cast<size_t>(c)], static_cast<int64_t>(indices.size()));
        if (keep < static_cast<int64_t>(indices.size())) {
            rng.shuffle(indices);
        }
        split.classCounts.push_back(keep);
        split.trainIndices.insert(split.trainIndices.end(), indices.begin(), indices.begin() + keep);
    }
    std::sort(split.trainIndices.begin(), split.trainIndices.end());
    return split;
}

DataSplit applyLongTailSplit(const Dataset& dataset, const LongTailSplit& split)
{
    if (split.dataset != dataset.name) {
        throw InputError("saved split belongs to data set '" + split.dataset + "', not '" + dataset.name + "'");
    }
    const int64_t size = dataset.train.size();
    for (const auto index : split.trainIndices) {
        if (index < 0 || index >= size) {
            throw InputError("saved split refers to training image " + std::to_string(index) + " but the data set has "
                             + std::to_string(size));
        }
    }
    auto indices = torch::tensor(split.trainIndices, torch::kInt64);
    DataSplit subset = dataset.train.select(indices);
    if (countPerClass(subset.labels, dataset.classCount()) != split.classCounts) {
        throw InputError("saved split's class counts do not match the data set's labels (different data?)");
    }
    return subset;
}

nlohmann::json toJson(const LongTailSplit& split)
{
    return {{"dataset", split.dataset},
            {"profile", profileName(split.spec.profile)},
            {"imbalance_ratio", split.spec.imbalanceRatio},
            {"seed", split.spec.seed},
            {"class_counts", split.classCounts},
            {"train_indices", split.trainIndices}};
}

LongTailSplit longTailSplitFromJson(const nlohmann::json& json, const std::string& source)
{
    try {
        LongTailSplit split;
        split.dataset = json.at("dataset").get<std::string>();
        split.spec.profile = parseProfile(json.at("profile").get<std::string>());
        split.spec.imbalanceRatio = json.at("imbalance_ratio").get<double>();
        split.spec.seed = json.at("seed").get<uint64_t>();
        split.classCounts = json.at("class_counts").get<std::vector<int64_t>>();
        split.trainIndices = json.at("train_indices").get<std::vector<int64_t>>();
        split.spec.validate();
        return split;
    } catch (const nlohmann::json::exception& error) {
        throw InputError(source + ": not a valid split file (" + error.what() + ")");
    }
}

void saveLongTailSplit(const LongTailSplit& split, const std::string& path)
{
    writeFileAtomically(path, toJson(split).dump() + "\n");
}

LongTailSplit loadLongTailSplit(const std::string& path)
{
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(readTextFile(path));
    } catch (const nlohmann::json::exception& error) {
        throw InputError(path + ": not valid JSON (" + error.what() + ")");
    }
    return longTailSplitFromJson(json, path);
}

} // namespace lbd
