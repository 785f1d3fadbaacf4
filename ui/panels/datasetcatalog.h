#pragma once
// The data set catalogue (datasets/catalogue.h) as the GUI shows it: each entry's title and
// tooltip as QStrings, and the class-count chart's instant preview of the long-tailed split for the
// entries that know their classes and counts before reading (all but image folders and list files,
// which scanDataset reads).
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

#include "core/data/dataspec.h"
#include "datasets/datasetentry.h"

namespace lbd::ui {

struct DatasetPreview {
    bool known = false;               // false: only reading the data tells (scanDataset)
    QStringList classNames;
    std::vector<int64_t> trainCounts; // after the long-tailed split; empty when unknown or the ratio is invalid
    bool exact = false;               // false: an estimate from the benchmark's usual size
};

QString datasetTitle(const lbd::DatasetEntry& entry);
// The description, then where it is looked for, how to get it and its licence.
QString datasetToolTip(const lbd::DatasetEntry& entry);

// From the entry of spec.dataset (none for a name the catalogue does not know).
DatasetPreview datasetPreview(const lbd::DataSpec& spec);

} // namespace lbd::ui
