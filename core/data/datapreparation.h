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
    // of the long-tailed training images (val_fraction) or the data set's own (val_list), or empty.
    Dataset dataset;
    LongTailSplit split;
    std::vector<int64_t> trainCounts; // per class, head to tail
    std::vector<int64_t> testCounts;
};

// Loads the data set the spec names with its catalogue entry's reader, exactly as it is on disk
// (no long-tail subsampling).
Dataset loadDataset(const DataSpec& spec);

// Loads and draws the long-tailed split from spec.longTail.
PreparedData prepareData(const DataSpec& spec);

// Loads and applies a saved split (resuming or reproducing a run).
PreparedData prepareData(const DataSpec& spec, const LongTailSplit& savedSplit);

} // namespace lbd
