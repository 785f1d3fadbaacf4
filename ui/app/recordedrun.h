#pragma once
// What the main window reads from a run folder to show a run it did not train: the config and
// the recorded epochs (metrics.jsonl), and the run's own classes and counts (run.json), which the
// pages take instead of the experiment panel's data set.
#include <QString>

#include <vector>

#include "core/train/epochmetrics.h"
#include "core/train/trainconfig.h"
#include "ui/pages/runview.h"

namespace lbd::ui {

struct RecordedRun {
    lbd::TrainConfig config;
    std::vector<lbd::EpochMetrics> epochs; // up to the epoch asked for
};

// The config and the epochs up to `lastEpoch` (every one when < 0). Throws what the readers throw.
RecordedRun readRecordedRun(const QString& directory, int lastEpoch);

// The run's class names and training counts (run.json) into `context`; false, and `context`
// unchanged, when the run has none yet (stopped before its data was read).
bool readRecordedClasses(const QString& directory, RunContext& context);

} // namespace lbd::ui
