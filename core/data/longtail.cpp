#include "core/data/longtail.h"
#include "core/util/jsonfile.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/random.h"

#include "core/util/jsonread.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace lbd {

std::vector<int64_t> longTailCounts(int64_t maxCount, int64_t classCount, const LongTailSpec& spec)
{
    spec.validate();
    std::vector<int64_t> counts(static_cast<size_t>(classCount), maxCount);
    const double rho = spec.imbalanceRatio;
    for (int64_t c = 0; c < classCount; ++c) {
        double target = static_cast<double>(maxCount);
        if (spec.profile == LongTailProfile::None) {
            // n_max for every class: makeLongTailSplit caps it at the images each class has.
        } else if (spec.profile == LongTailProfile::Exponential) {
            if (classCount > 1) {
                target = static_cast<double>(maxCount) * std::pow(1.0 / rho, static_cast<double>(c) / static_cast<double>(classCount - 1));
            }
        } else if (spec.profile == LongTailProfile::Published) {
            // imbalance_cifar.py divides by C / ln rho, not (C-1) / ln rho, then rounds and adds
            // one; capped at n_max here and at the images a class has in makeLongTailSplit.
            if (rho > 1.0) {
                const double ds = static_cast<double>(classCount) / std::log(rho);
                target = std::min(static_cast<double>(maxCount),
                                  std::floor(static_cast<double>(maxCount) * std::exp(-static_cast<double>(c) / ds) + 0.5) + 1.0);
            }
        } else if (c >= classCount / 2) {
            target = static_cast<double>(maxCount) / rho;
        }
        // int() truncation as in the CIFAR-LT code; at least one image per class.
        counts[static_cast<size_t>(c)] = std::max<int64_t>(1, static_cast<int64_t>(target));
    }
    return counts;
}

namespace {

// Moves cautionHoldoutCount(n) of each class's n training rows (`split.trainIndices`, still in
// class order, unsorted) to the caution's rows, seeded per class; none at all when they would be
// too few to fit the caution.
void holdOutForCaution(LongTailSplit& split)
{
    const LongTailSpec& spec = split.spec;
    std::vector<int64_t> counts;
    int64_t total = 0;
    for (const int64_t n : split.classCounts) {
        counts.push_back(cautionHoldoutCount(n, spec.cautionHoldout));
        total += counts.back();
    }
    if (total < kMinCautionHoldoutImages) {
        return;
    }
    std::vector<int64_t> training;
    size_t begin = 0;
    for (size_t c = 0; c < counts.size(); ++c) {
        std::vector<int64_t> rows(split.trainIndices.begin() + static_cast<std::ptrdiff_t>(begin),
                                  split.trainIndices.begin() + static_cast<std::ptrdiff_t>(begin + static_cast<size_t>(split.classCounts[c])));
        begin += static_cast<size_t>(split.classCounts[c]);
        Rng holdOut(spec.seed, 0xca07 + static_cast<uint64_t>(c));
        holdOut.shuffle(rows);
        split.cautionIndices.insert(split.cautionIndices.end(), rows.begin(), rows.begin() + counts[c]);
        training.insert(training.end(), rows.begin() + counts[c], rows.end());
        split.classCounts[c] -= counts[c];
    }
    split.cautionCounts = std::move(counts);
    split.trainIndices = std::move(training);
    std::sort(split.cautionIndices.begin(), split.cautionIndices.end());
}

} // namespace

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
    int64_t leftOut = 0; // training images the long tail does not keep (the caution's pool when there are enough)
    for (int64_t c = 0; c < classCount; ++c) {
        auto& indices = byClass[static_cast<size_t>(c)];
        const auto keep = std::min<int64_t>(targets[static_cast<size_t>(c)], static_cast<int64_t>(indices.size()));
        if (keep < static_cast<int64_t>(indices.size())) {
            rng.shuffle(indices);
        }
        std::vector<int64_t> kept(indices.begin(), indices.begin() + keep);
        int64_t held = 0;
        if (spec.validationFraction > 0.0 && keep >= 2) {
            // Its own stream: the kept images are those of a split without hold-out.
            Rng holdOut(spec.seed, 0x7a11 + static_cast<uint64_t>(c));
            holdOut.shuffle(kept);
            held = std::clamp<int64_t>(std::llround(spec.validationFraction * static_cast<double>(keep)), 1, keep - 1);
            split.validationIndices.insert(split.validationIndices.end(), kept.begin(), kept.begin() + held);
        }
        split.classCounts.push_back(keep - held);
        split.trainIndices.insert(split.trainIndices.end(), kept.begin() + held, kept.end());
        if (spec.validationFraction > 0.0) {
            split.validationCounts.push_back(held);
        }
        leftOut += static_cast<int64_t>(indices.size()) - keep;
    }
    if (spec.validationFraction == 0.0 && dataset.validation.size() == 0 && leftOut < kMinCautionHoldoutImages) {
        holdOutForCaution(split);
    }
    std::sort(split.trainIndices.begin(), split.trainIndices.end());
    std::sort(split.validationIndices.begin(), split.validationIndices.end());
    return split;
}

namespace {

DataSplit selectRows(const Dataset& dataset, const LongTailSplit& split, const std::vector<int64_t>& rows,
                     const std::vector<int64_t>& counts, const char* what)
{
    if (split.dataset != dataset.name) {
        throw InputError("saved split belongs to data set '" + split.dataset + "', not '" + dataset.name + "'");
    }
    const int64_t size = dataset.train.size();
    for (const auto index : rows) {
        if (index < 0 || index >= size) {
            throw InputError(std::string("saved split refers to ") + what + " image " + std::to_string(index)
                             + " but the data set has " + std::to_string(size) + " training images");
        }
    }
    auto indices = torch::tensor(rows, torch::kInt64);
    DataSplit subset = dataset.train.select(indices);
    if (countPerClass(subset.labels, dataset.classCount()) != counts) {
        throw InputError(std::string("saved split's ") + what + " class counts do not match the data set's labels (different data?)");
    }
    return subset;
}

} // namespace

DataSplit applyLongTailSplit(const Dataset& dataset, const LongTailSplit& split)
{
    return selectRows(dataset, split, split.trainIndices, split.classCounts, "training");
}

DataSplit validationSplit(const Dataset& dataset, const LongTailSplit& split)
{
    if (split.validationIndices.empty()) {
        return {};
    }
    return selectRows(dataset, split, split.validationIndices, split.validationCounts, "validation");
}

DataSplit cautionHoldoutSplit(const Dataset& dataset, const LongTailSplit& split)
{
    if (split.cautionIndices.empty()) {
        return {};
    }
    return selectRows(dataset, split, split.cautionIndices, split.cautionCounts, "caution hold-out");
}

nlohmann::json toJson(const LongTailSplit& split)
{
    nlohmann::json json = {{"dataset", split.dataset},
                           {"profile", profileName(split.spec.profile)},
                           {"imbalance_ratio", split.spec.imbalanceRatio},
                           {"seed", split.spec.seed},
                           {"class_counts", split.classCounts},
                           {"train_indices", split.trainIndices}};
    if (split.spec.validationFraction > 0.0) {
        json["val_fraction"] = split.spec.validationFraction;
        json["validation_counts"] = split.validationCounts;
        json["validation_indices"] = split.validationIndices;
    }
    if (!split.cautionIndices.empty()) { // absent: none held out (and every split from before there were)
        json["caution_holdout"] = split.spec.cautionHoldout;
        json["caution_counts"] = split.cautionCounts;
        json["caution_indices"] = split.cautionIndices;
    }
    return json;
}

LongTailSplit longTailSplitFromJson(const nlohmann::json& json, const std::string& source)
{
    try {
        LongTailSplit split;
        split.dataset = json.at("dataset").get<std::string>();
        split.spec.profile = parseProfile(json.at("profile").get<std::string>());
        split.spec.imbalanceRatio = json.at("imbalance_ratio").get<double>();
        split.spec.seed = json.at("seed").get<uint64_t>();
        split.classCounts = integerVector<int64_t>(json.at("class_counts"));
        split.trainIndices = integerVector<int64_t>(json.at("train_indices"));
        if (json.contains("val_fraction")) {
            split.spec.validationFraction = json.at("val_fraction").get<double>();
            split.validationCounts = integerVector<int64_t>(json.at("validation_counts"));
            split.validationIndices = integerVector<int64_t>(json.at("validation_indices"));
        }
        // A split without them trains on every kept image, whatever data.caution_holdout now says.
        split.spec.cautionHoldout = 0.0;
        if (json.contains("caution_indices")) {
            split.spec.cautionHoldout = json.at("caution_holdout").get<double>();
            split.cautionCounts = integerVector<int64_t>(json.at("caution_counts"));
            split.cautionIndices = integerVector<int64_t>(json.at("caution_indices"));
            std::vector<int64_t> training = split.trainIndices;
            std::vector<int64_t> caution = split.cautionIndices;
            std::sort(training.begin(), training.end());
            std::sort(caution.begin(), caution.end());
            std::vector<int64_t> both;
            std::set_intersection(training.begin(), training.end(), caution.begin(), caution.end(), std::back_inserter(both));
            if (!both.empty()) { // the caution's threshold would be set on images the network trained on
                throw InputError(source + ": caution_indices holds training image " + std::to_string(both.front())
                                 + " of train_indices (a caution image is never trained on)");
            }
        }
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
    return longTailSplitFromJson(readJsonFile(path), path);
}

} // namespace lbd
