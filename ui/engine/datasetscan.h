#pragma once
// Loads a data set and draws its long-tailed split, off the GUI thread, for the experiment
// panel's class-count chart (user image folders and list files, whose counts are unknown until
// read). Plain C++: no Qt and no torch in this header.
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataspec.h"

namespace lbd::ui {

struct DatasetScan {
    std::vector<std::string> classNames; // head to tail
    std::vector<int64_t> trainCounts;    // after the long-tailed split
    std::vector<int64_t> testCounts;
    std::vector<std::string> summary;    // what a run would train on (core's summarizeData)
    std::vector<std::string> warnings;   // classes too small to learn or measure
    std::string error;                   // empty on success
};

// Never throws: a failure is reported in DatasetScan::error.
DatasetScan scanDataset(const lbd::DataSpec& spec);

} // namespace lbd::ui
