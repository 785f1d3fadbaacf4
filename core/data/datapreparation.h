#pragma once
// Data set + long-tailed split, ready for batching: the first stage of every run.
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/dataspec.h"
#include "core/data/longtail.h"

namespace lbd {

struct PreparedData {
    // train = the long-tailed subset; test = the full test split; validation = the held-out part
    // of the long-tailed training images (val_fraction) or the data set's own (val_list), or empty;
    // cautionHeldOut = the training images held out for the caution (split.cautionIndices), or empty.
    Dataset dataset;
    LongTailSplit split;
    std::vector<int64_t> trainCounts; // per class, head to tail
    std::vector<int64_t> testCounts;
    std::vector<int64_t> availableCounts; // the data set's own training images per class, before the split
    // The data set's own training split before the long tail, when it is streamed from files (the
    // dataset cache holds all of it, so that every long-tailed subset of it finds its images there).
    DataSplit sourceTrain;
};

// Classes with fewer training images than this are warned about before a run starts.
constexpr int64_t kFewImagesPerClass = 10;

// What a run will train on, said before it starts (`lbd train`'s log, the experiment panel):
// the counts per class it uses, whether the data is used as given or resampled to a long tail
// (then how many of the images it keeps), and warnings about classes that will be hard to learn
// or measure: fewer than kFewImagesPerClass training images, no validation image under
// val_fraction, no test image.
struct DataSummary {
    std::vector<std::string> lines;    // "10 classes, 517 training images used as given (profile none): ..."
    std::vector<std::string> warnings; // each a sentence naming the class
};
DataSummary summarizeData(const PreparedData& prepared, const DataSpec& spec);

// Loads the data set the spec names with its catalogue entry's reader, exactly as it is on disk
// (no long-tail subsampling).
Dataset loadDataset(const DataSpec& spec);

// Loads and draws the long-tailed split from spec.longTail.
PreparedData prepareData(const DataSpec& spec);

// Loads and applies a saved split (resuming or reproducing a run).
PreparedData prepareData(const DataSpec& spec, const LongTailSplit& savedSplit);

} // namespace lbd
