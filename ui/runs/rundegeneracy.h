#pragma once
// What the screens say about a degenerate run (decisions piled into a few classes, a region at
// 0 %, accuracy near chance): the warnings with the run's class NAMES (core's
// warningsWithClassNames, the one formatting the CLI shares), the status bar's one-line headline,
// and the data check's warnings from before training (run.json "data_check", read defensively).
// The status bar, the Training and Confusion pages and the Runs page all read it from here.
#include <QString>
#include <QStringList>

#include <cstdint>
#include <string>
#include <vector>

#include "core/eval/evaluationreport.h"
#include "ui/pages/runview.h"

namespace lbd::ui {

struct RunDegeneracy {
    QString headline;    // "85.3 % of the decisions go to 2 classes (cat, dog)"; empty: not degenerate
    QStringList warnings; // every warning of the report, classes by name
    bool degenerate() const { return !headline.isEmpty(); }
};

// The names of a report's classes: the context's (the panel's or the run's) when they are as many
// as the report's classes, else the run folder's run.json, else none (indices stand in).
std::vector<std::string> reportClassNames(const RunContext& context, int64_t classCount);

RunDegeneracy degeneracyOf(const lbd::EvaluationReport& report, const std::vector<std::string>& classNames);

// A run folder's final evaluation (report.json) with its run.json's class names; not degenerate
// when the folder has no readable report (a stopped run, a damaged folder).
RunDegeneracy readRunDegeneracy(const QString& directory);

// The warnings of the data check made before Start (run.json: "data_check": {"warnings": [...]}),
// empty when the run has none or the file cannot be read.
QStringList dataCheckWarnings(const QString& directory);

// The banner a page shows above what it draws (HTML): that the evaluation of `epoch` is
// degenerate, each warning, and the data check's warnings when there were any.
QString degeneracyBannerHtml(const RunDegeneracy& degeneracy, int epoch, const QStringList& dataCheck);

} // namespace lbd::ui
