#include "core/eval/oodimages.h"

#include <algorithm>
#include <sstream>

namespace lbd {

static_assert(kMinCautionHoldoutImages == kMinOodImages, "the caution hold-out is never too small to fit on");

namespace {

// `count` of `rows`, evenly spaced (all of them when there are fewer).
std::vector<int64_t> evenlySpaced(const std::vector<int64_t>& rows, int64_t count)
{
    const int64_t n = static_cast<int64_t>(rows.size());
    if (count >= n) {
        return rows;
    }
    std::vector<int64_t> out;
    for (int64_t i = 0; i < count; ++i) {
        out.push_back(rows[static_cast<size_t>(count > 1 ? (i * (n - 1)) / (count - 1) : 0)]);
    }
    return out;
}

std::vector<std::vector<int64_t>> rowsByClass(const torch::Tensor& labels, int64_t classes)
{
    std::vector<std::vector<int64_t>> byClass(static_cast<size_t>(classes));
    const auto l = labels.contiguous();
    const auto* label = l.data_ptr<int64_t>();
    for (int64_t i = 0; i < l.numel(); ++i) {
        if (label[i] >= 0 && label[i] < classes) {
            byClass[static_cast<size_t>(label[i])].push_back(i);
        }
    }
    return byClass;
}

DataSplit selectRows(const DataSplit& split, const std::vector<int64_t>& rows)
{
    return split.select(torch::tensor(rows, torch::kInt64));
}

// Training images of the classes `perClass` has none of, for their means.
void addMeansFromTraining(OodImages& images, const DataSplit& train, int64_t classes, int64_t cap)
{
    const auto byClass = rowsByClass(train.labels, classes);
    std::vector<int64_t> rows;
    for (int64_t c = 0; c < classes; ++c) {
        if (images.heldOut.perClass[static_cast<size_t>(c)] == 0 && !byClass[static_cast<size_t>(c)].empty()) {
            const auto own = evenlySpaced(byClass[static_cast<size_t>(c)], cap);
            rows.insert(rows.end(), own.begin(), own.end());
            images.heldOut.meansFromTraining.push_back(c);
        }
    }
    if (!rows.empty()) {
        std::sort(rows.begin(), rows.end());
        images.meansOnly = selectRows(train, rows);
    }
}

} // namespace

OodImages chooseOodImages(const PreparedData& data, const DataSpec& spec)
{
    const int64_t classes = data.dataset.classCount();
    const int64_t cap = std::max<int64_t>(1, std::min(kOodImagesPerClass, kMaxOodFitImages / std::max<int64_t>(classes, 1)));
    OodImages images;
    const DataSplit& validation = data.dataset.validation;
    if (validation.size() > 0) {
        std::vector<int64_t> all(static_cast<size_t>(validation.size()));
        for (int64_t i = 0; i < validation.size(); ++i) {
            all[static_cast<size_t>(i)] = i;
        }
        images.unseen = selectRows(validation, evenlySpaced(all, kMaxOodFitImages));
        images.heldOut.source = kOodSourceValidation;
        images.heldOut.perClass = countPerClass(images.unseen.labels, classes);
        addMeansFromTraining(images, data.dataset.train, classes, cap);
        return images;
    }
    if (data.dataset.cautionHeldOut.size() > 0) {
        const LongTailSplit& split = data.split;
        std::vector<int64_t> all(static_cast<size_t>(data.dataset.cautionHeldOut.size()));
        for (int64_t i = 0; i < data.dataset.cautionHeldOut.size(); ++i) {
            all[static_cast<size_t>(i)] = i;
        }
        const std::vector<int64_t> used = evenlySpaced(all, kMaxOodFitImages); // all but with some 400 classes
        images.unseen = selectRows(data.dataset.cautionHeldOut, used);
        images.heldOut.source = kOodSourceCautionHoldout;
        std::ostringstream percent;
        percent << 100.0 * split.spec.cautionHoldout;
        images.heldOut.note = "a class-balanced " + percent.str() + " % of each class's training images (" + std::to_string(kCautionHoldoutMinPerClass) + " to "
                              + std::to_string(kCautionHoldoutMaxPerClass) + " a class) held out before training, never trained "
                              "on (data.caution_holdout; training_rows: their rows in the data set's training split)";
        for (const int64_t i : used) { // cautionHeldOut holds split.cautionIndices' rows, in that (ascending) order
            images.heldOut.trainingRows.push_back(split.cautionIndices[static_cast<size_t>(i)]);
        }
        images.heldOut.perClass = countPerClass(images.unseen.labels, classes);
        addMeansFromTraining(images, data.dataset.train, classes, cap);
        return images;
    }
    if (!keepsEveryImage(data.split.spec)) {
        const DataSplit full = data.sourceTrain.size() > 0 ? data.sourceTrain : loadDataset(spec).train;
        std::vector<char> used(static_cast<size_t>(full.size()), 0);
        for (const auto* rows : {&data.split.trainIndices, &data.split.validationIndices}) {
            for (const int64_t row : *rows) {
                if (row >= 0 && row < full.size()) {
                    used[static_cast<size_t>(row)] = 1;
                }
            }
        }
        auto byClass = rowsByClass(full.labels, classes);
        std::vector<int64_t> sample;
        for (auto& rows : byClass) {
            rows.erase(std::remove_if(rows.begin(), rows.end(), [&used](int64_t r) { return used[static_cast<size_t>(r)] != 0; }),
                       rows.end());
            const auto own = evenlySpaced(rows, cap);
            sample.insert(sample.end(), own.begin(), own.end());
        }
        if (static_cast<int64_t>(sample.size()) >= kMinOodImages) {
            std::sort(sample.begin(), sample.end());
            images.unseen = selectRows(full, sample);
            images.heldOut.source = kOodSourceLeftOut;
            images.heldOut.note = "a class-balanced sample of at most " + std::to_string(cap)
                                  + " images a class from the data set's training images that the run did not train on "
                                    "(training_rows: their rows in the data set's training split)";
            images.heldOut.trainingRows = std::move(sample);
            images.heldOut.perClass = countPerClass(images.unseen.labels, classes);
            addMeansFromTraining(images, data.dataset.train, classes, cap);
            return images;
        }
    }
    const DataSplit& train = data.dataset.train;
    std::vector<int64_t> all(static_cast<size_t>(train.size()));
    for (int64_t i = 0; i < train.size(); ++i) {
        all[static_cast<size_t>(i)] = i;
    }
    images.unseen = selectRows(train, evenlySpaced(all, kMaxOodFitImages));
    images.heldOut.source = kOodSourceTraining;
    images.heldOut.note = "no validation split and no image left out of training: the threshold is set on images the "
                          "network trained on, whose features are tighter than new images', so more than 5 % of new "
                          "images get the caution; hold out a validation share (data.val_fraction) for one you can trust";
    images.heldOut.perClass = countPerClass(images.unseen.labels, classes);
    return images;
}

} // namespace lbd
