#pragma once
// The catalogue of data sets and formats: ONE list that the engine (reading, config validation),
// `lbd` (--dataset, --help) and the GUI (the data set list, its tooltips and preview) read.
// The built-in entries are registered in catalogue.cpp, one line each; registerDataset adds one
// at run time (a plug-in, or a test's dummy format).
#include <string>
#include <vector>

#include "datasets/datasetentry.h"

namespace lbd {

// Every entry, built-ins first, in the order lists show them. The pointers stay valid for the
// life of the program.
std::vector<const DatasetEntry*> datasetEntries();
std::vector<std::string> datasetNames();

// nullptr when no entry has this name.
const DatasetEntry* findDataset(const std::string& name);
// Throws InputError "dataset 'x' is not known (use a, b or c)" listing the known names.
const DatasetEntry& datasetEntry(const std::string& name);

// Adds an entry after the others. Throws std::invalid_argument when its name is empty or taken, or
// it has no reader. Register before the first config is parsed: the config field table takes its
// list of names (`lbd train --help`) when it is first built.
void registerDataset(DatasetEntry entry);

// Reads the data set options.dataset names with its entry's reader. Throws InputError.
RawDataset readDataset(const DatasetOptions& options, uint64_t seed);

} // namespace lbd
