#pragma once
// What every page that shows a run implements, so the main window can feed the live run (or,
// in part 2, a run opened from disk) to all pages without a page knowing about another.
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

#include "core/train/epochmetrics.h"
#include "core/train/trainconfig.h"

namespace lbd::ui {

struct RunContext {
    QString runDirectory;
    lbd::TrainConfig config;
    QStringList classNames;            // head to tail, may be empty before the data is loaded
    std::vector<int64_t> trainCounts;  // idem
};

class RunView {
public:
    virtual ~RunView() = default;
    // A new run starts (or another run is shown): forget everything shown so far.
    virtual void beginRun(const RunContext& context) = 0;
    // Progress inside an epoch (thinned by the worker to ~20 per second).
    virtual void addBatch(const lbd::BatchProgress& progress) { (void)progress; }
    // One epoch of the run, in order; metrics.evaluation is set at evaluation epochs.
    virtual void addEpoch(const lbd::EpochMetrics& metrics) = 0;
    // An extra report for the same evaluation under another decision rule (e.g. argmax, computed
    // from the run's cached test probabilities); pages that compare rules show it.
    virtual void addComparisonReport(const lbd::EvaluationReport& report) { (void)report; }
};

} // namespace lbd::ui
