#pragma once
// One report per run: report.md (the run's tables: the run, accuracy overall and by region with
// correct / total, the False Head Rate points, calibration and selective-prediction numbers, the
// report's warnings, the whole config) with the plots as PNG next to it (reportplots.h), and
// report.pdf with the same tables and plots (reportdocument.h writes them). The tables come from
// report.json, config.json and metrics.jsonl as written by the engine: nothing is recomputed.
#include <QString>

#include "ui/report/reportdocument.h"

namespace lbd::ui {

// The tables of a finished run; false with *error when report.json or config.json cannot be read.
bool buildRunReport(const QString& runDirectory, ReportDocument* report, QString* error);

// Writes report.md, report.pdf and the plots' PNGs into `outputDirectory` (created). False with
// *error (naming the file) when the run cannot be read or a file cannot be written.
bool writeRunReport(const QString& runDirectory, const QString& outputDirectory, ReportFiles* files, QString* error);

// Where a run's report goes by default: RUN/report.
QString defaultReportDirectory(const QString& runDirectory);

} // namespace lbd::ui
