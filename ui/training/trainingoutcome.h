#pragma once
// How a run ended, as the GUI sees it: a value type that crosses from the worker thread. Also
// declares the engine's progress value types to Qt's meta-type system (queued signals, QVariant).
#include <QMetaType>
#include <QString>

#include <optional>

#include "core/eval/evaluationreport.h"
#include "core/train/epochmetrics.h"

namespace lbd::ui {

struct TrainingOutcome {
    QString runDirectory;
    int epochsCompleted = 0;
    int checkpointEpoch = 0; // newest checkpoint on disk (0: none)
    bool stopped = false; // stopped on request before the last epoch
    std::optional<lbd::EvaluationReport> finalReport;
};

} // namespace lbd::ui

Q_DECLARE_METATYPE(lbd::ui::TrainingOutcome)
Q_DECLARE_METATYPE(lbd::BatchProgress)
Q_DECLARE_METATYPE(lbd::EpochMetrics)
