#pragma once
// What the GUI knows about each data set kind without reading it: a title, a tooltip, whether it
// needs a directory, and - for the built-in benchmarks - class names and images per class, so
// the class-count chart previews the long-tailed split instantly.
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

#include "core/data/dataspec.h"

namespace lbd::ui {

struct DatasetPreview {
    QStringList classNames;
    std::vector<int64_t> trainCounts; // after the long-tailed split; empty when unknown
    bool exact = false;               // false: an estimate from the benchmark's usual size
};

QString datasetTitle(lbd::DatasetKind kind);
QString datasetToolTip(lbd::DatasetKind kind);
bool datasetNeedsDirectory(lbd::DatasetKind kind);
bool datasetHasKnownCounts(lbd::DatasetKind kind); // built-in benchmarks and synthetic data

// Empty trainCounts for image folders and list files (read them with scanDataset).
DatasetPreview datasetPreview(const lbd::DataSpec& spec);

} // namespace lbd::ui
