#include "core/data/datapreparation.h"

#include "datasets/catalogue.h"

#include <sstream>

namespace lbd {

Dataset loadDataset(const DataSpec& spec)
{
    spec.validate();
    return toDataset(readDataset(spec, spec.longTail.seed));
}

namespace {

PreparedData finish(Dataset dataset, LongTailSplit split)
{
    PreparedData prepared;
    prepared.availableCounts = countPerClass(dataset.train.labels, dataset.classCount());
    if (dataset.train.isStreamed()) {
        prepared.sourceTrain = dataset.train; // file paths and labels only
    }
    if (!split.validationIndices.empty()) {
        dataset.validation = validationSplit(dataset, split); // before train is replaced by the subset
    }
    dataset.cautionHeldOut = cautionHoldoutSplit(dataset, split);
    dataset.train = applyLongTailSplit(dataset, split);
    prepared.trainCounts = split.classCounts;
    prepared.testCounts = countPerClass(dataset.test.labels, dataset.classCount());
    prepared.split = std::move(split);
    prepared.dataset = std::move(dataset);
    return prepared;
}

} // namespace

PreparedData prepareData(const DataSpec& spec)
{
    Dataset dataset = loadDataset(spec);
    LongTailSplit split = makeLongTailSplit(dataset, spec.longTail);
    return finish(std::move(dataset), std::move(split));
}

PreparedData prepareData(const DataSpec& spec, const LongTailSplit& savedSplit)
{
    Dataset dataset = loadDataset(spec);
    return finish(std::move(dataset), savedSplit);
}

namespace {

// "a 150, b 121, ..., j 8": every class when there are few, else the first and last few.
std::string countList(const std::vector<std::string>& names, const std::vector<int64_t>& counts)
{
    std::string text;
    const size_t n = counts.size();
    for (size_t c = 0; c < n; ++c) {
        if (n > 12 && c == 5) {
            text += ", ...";
            c = n - 4;
        }
        text += (text.empty() ? "" : ", ") + (c < names.size() ? names[c] : std::to_string(c)) + " " + std::to_string(counts[c]);
    }
    return text;
}

int64_t sum(const std::vector<int64_t>& counts)
{
    int64_t total = 0;
    for (const int64_t count : counts) {
        total += count;
    }
    return total;
}

} // namespace

DataSummary summarizeData(const PreparedData& prepared, const DataSpec& spec)
{
    DataSummary summary;
    const std::vector<std::string>& names = prepared.dataset.classNames;
    const LongTailSpec& longTail = prepared.split.spec;
    const std::vector<int64_t>& used = prepared.trainCounts;
    const std::vector<int64_t>& validation = prepared.split.validationCounts;
    const int64_t classes = static_cast<int64_t>(used.size());
    const ImageFormat& format = prepared.dataset.format;
    const std::string images = std::to_string(format.channels) + (format.channels == 1 ? " channel (grey)" : " channels")
                               + ", " + std::to_string(format.height) + "x" + std::to_string(format.width);
    const std::vector<int64_t>& caution = prepared.split.cautionCounts;
    // Every image kept, some of them held out for validation or for the caution.
    const bool asGiven = [&] {
        for (size_t c = 0; c < used.size(); ++c) {
            const int64_t held = (c < validation.size() ? validation[c] : 0) + (c < caution.size() ? caution[c] : 0);
            if (c >= prepared.availableCounts.size() || used[c] + held != prepared.availableCounts[c]) {
                return false;
            }
        }
        return true;
    }();
    std::string how;
    if (asGiven) {
        how = "used as given (profile " + profileName(longTail.profile) + ")";
    } else {
        const int64_t kept = sum(used) + sum(validation) + sum(caution);
        std::ostringstream ratio;
        ratio << longTail.imbalanceRatio;
        how = "resampled to a long tail (profile " + profileName(longTail.profile) + ", ratio " + ratio.str() + ", seed "
              + std::to_string(longTail.seed) + "): " + std::to_string(kept) + " of " + std::to_string(sum(prepared.availableCounts))
              + " images kept";
    }
    summary.lines.push_back(std::to_string(classes) + " classes, " + std::to_string(sum(used)) + " training images, " + how
                            + "; images " + images + ".");
    summary.lines.push_back("training images per class: " + countList(names, used));
    if (!validation.empty()) {
        summary.lines.push_back("held out for validation: " + countList(names, validation));
    }
    if (!caution.empty()) {
        summary.lines.push_back("held out " + std::to_string(sum(caution)) + " images for the caution (" + countList(names, caution)
                                + "): they are not trained on, so that the caution's threshold is set on images the network has not seen "
                                  "(data.caution_holdout)");
    }
    summary.lines.push_back("test images per class: " + countList(names, prepared.testCounts));
    // Image files: what was left out, ignored or composited, and the data check.
    const DataReport& report = prepared.dataset.report;
    for (const std::string& note : dataReportNotes(report)) {
        summary.lines.push_back(note + ".");
    }
    summary.warnings = dataReportWarnings(report);

    for (int64_t c = 0; c < classes; ++c) {
        const size_t i = static_cast<size_t>(c);
        const std::string name = "class " + (i < names.size() ? names[i] : std::to_string(c));
        if (used[i] < kFewImagesPerClass) {
            summary.warnings.push_back(name + " has only " + std::to_string(used[i]) + " training image"
                                       + (used[i] == 1 ? "" : "s") + " (fewer than " + std::to_string(kFewImagesPerClass)
                                       + "): it may not be learnt, and its accuracy is measured on few images");
        }
        if (spec.longTail.validationFraction > 0.0 && i < validation.size() && validation[i] == 0) {
            summary.warnings.push_back(name + " has no validation image: val_fraction holds out none of a class with a "
                                       "single training image");
        }
        if (i < prepared.testCounts.size() && prepared.testCounts[i] == 0) {
            summary.warnings.push_back(name + " has no test image: its accuracy cannot be measured");
        }
    }
    return summary;
}

} // namespace lbd
