#pragma once
// One report per run: report.md (the run's tables: the run, accuracy overall and by region with
// correct / total, the False Head Rate points, calibration and selective-prediction numbers, the
// report's warnings, the whole config) with the plots as PNG next to it (reportplots.h), and
// report.pdf with the same tables and plots (QTextDocument printed on a QPdfWriter). Every file
// is written atomically (core/util/atomicfile.h). The tables come from report.json, config.json
// and metrics.jsonl as written by the engine: nothing is recomputed.
#include <QList>
#include <QString>
#include <QStringList>

namespace lbd::ui {

struct ReportTable {
    QString title;
    QStringList header;
    QList<QStringList> rows;
};

struct RunReport {
    QString title;   // "Run report: tiny"
    QString folder;  // the run folder
    QList<ReportTable> tables;
};

// The tables of a finished run; false with *error when report.json or config.json cannot be read.
bool buildRunReport(const QString& runDirectory, RunReport* report, QString* error);

// The report as Markdown, with `images` (file names relative to it) after the tables.
QString reportMarkdown(const RunReport& report, const QStringList& images);

struct RunReportFiles {
    QString markdown;
    QString pdf;
    QStringList images;
};

// Writes report.md, report.pdf and the plots' PNGs into `outputDirectory` (created). False with
// *error (naming the file) when the run cannot be read or a file cannot be written.
bool writeRunReport(const QString& runDirectory, const QString& outputDirectory, RunReportFiles* files, QString* error);

// Where a run's report goes by default: RUN/report.
QString defaultReportDirectory(const QString& runDirectory);

} // namespace lbd::ui
