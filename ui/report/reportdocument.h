#pragma once
// What every report is made of, and how it is written: a title, the folder it is about, tables
// and plots. report.md shows the tables as Markdown with the plots as PNG files next to it; the
// PDF twin (same name, .pdf) has the same tables and plots (QTextDocument printed on a
// QPdfWriter). Every file is written atomically (core/util/atomicfile.h). The run report
// (runreport.h) and the comparison report (comparisonreport.h) fill one each.
#include <QList>
#include <QPoint>
#include <QString>
#include <QStringList>

#include "ui/report/reportplots.h"

namespace lbd::ui {

struct ReportTable {
    QString title;
    QStringList header;
    QList<QStringList> rows;
    QList<QPoint> boldCells; // (column, row) of rows: the best value of a ranked row
};

struct ReportDocument {
    QString title;       // "Run report: tiny"
    QString folderTitle; // "Run folder"; the line is left out when `folder` is empty
    QString folder;
    QList<ReportTable> tables;
};

// The report as Markdown, with `images` (file names relative to it) after the tables.
QString reportMarkdown(const ReportDocument& report, const QStringList& images);

struct ReportFiles {
    QString markdown;
    QString pdf;
    QStringList images;
};

// Writes `markdownPath`, its PDF twin and the plots (each under its fileName, in the same folder,
// which is created). False with *error (naming the file) when a file cannot be written.
bool writeReportFiles(const ReportDocument& report, const QList<ReportPlot>& plots, const QString& markdownPath,
                      ReportFiles* files, QString* error);

} // namespace lbd::ui
