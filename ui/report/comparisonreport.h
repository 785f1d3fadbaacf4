#pragma once
// The report of a run comparison, as the Runs page shows it (runcomparisonview.h): the compared
// runs with their folders, the side-by-side table (metrics as rows, the best value of a ranked
// row in bold, then one row per config.json key that differs between the runs) and the figure
// with its three panels, drawn light whatever the window palette (a report is printed). Written
// as Markdown with the figure as a PNG next to it and a PDF twin (reportdocument.h).
#include <QString>

#include "ui/report/reportdocument.h"

namespace lbd::ui {

class RunComparisonView;

// The tables of what `view` compares (empty tables when it compares nothing).
ReportDocument comparisonReport(const RunComparisonView& view);

// Writes `markdownPath` (e.g. run-comparison.md), its PDF twin (run-comparison.pdf) and the figure
// (run-comparison-figure.png) next to it. False with *error when nothing is compared or a file
// cannot be written.
bool writeComparisonReport(RunComparisonView& view, const QString& markdownPath, ReportFiles* files, QString* error);

} // namespace lbd::ui
