#include "ui/report/comparisonreport.h"

#include "ui/runs/runcomparisonview.h"
#include "ui/widgets/plotexport.h"
#include "ui/widgets/plotpalette.h"
#include "ui/widgets/throttledplot.h"

#include <QFileInfo>
#include <QPalette>
#include <QTableWidget>

namespace lbd::ui {
namespace {

QString headerText(const QTableWidgetItem* item) { return item ? item->text() : QString(); }

// The view's table as it is shown: the run labels as columns, the metric and config rows as rows.
ReportTable comparisonTable(const QTableWidget& shown)
{
    ReportTable table{QObject::tr("Side by side (best of a ranked row in bold; then the settings that differ)"),
                      {QObject::tr("Metric")}, {}, {}};
    for (int c = 0; c < shown.columnCount(); ++c) {
        table.header << headerText(shown.horizontalHeaderItem(c));
    }
    for (int r = 0; r < shown.rowCount(); ++r) {
        QStringList row{headerText(shown.verticalHeaderItem(r))};
        for (int c = 0; c < shown.columnCount(); ++c) {
            const QTableWidgetItem* item = shown.item(r, c);
            row << (item ? item->text() : QString());
            if (item && item->font().bold()) {
                table.boldCells << QPoint(c + 1, r);
            }
        }
        table.rows << row;
    }
    return table;
}

// The figure at the export size, light for print; the plot keeps the window's colours after.
QImage lightFigure(ThrottledPlot* plot)
{
    QPalette light = plot->palette();
    light.setColor(QPalette::Base, Qt::white);
    light.setColor(QPalette::Window, Qt::white);
    light.setColor(QPalette::Text, Qt::black);
    light.setColor(QPalette::WindowText, Qt::black);
    applyPlotPalette(plot, light);
    const QImage image =
        plot->toPixmap(RunComparisonView::kExportWidth, RunComparisonView::kExportHeight, kPlotExportScale).toImage();
    applyPlotPalette(plot, plot->palette());
    plot->replot();
    return image;
}

} // namespace

ReportDocument comparisonReport(const RunComparisonView& view)
{
    ReportDocument report;
    report.title = QObject::tr("Run comparison: %1 runs").arg(view.runs().size());
    ReportTable runs{QObject::tr("Compared runs"), {QObject::tr("Run"), QObject::tr("Folder")}, {}, {}};
    for (const ComparedRun& run : view.runs()) {
        runs.rows << QStringList{run.label, QString::fromStdString(run.summary.directory)};
    }
    report.tables = {runs, comparisonTable(*view.table())};
    return report;
}

bool writeComparisonReport(RunComparisonView& view, const QString& markdownPath, ReportFiles* files, QString* error)
{
    if (view.runs().empty()) {
        *error = QObject::tr("Nothing to report: compare two or more runs first.");
        return false;
    }
    const QString figure = QFileInfo(markdownPath).completeBaseName() + QStringLiteral("-figure.png");
    const QList<ReportPlot> plots{{figure, QObject::tr("The compared runs against the epoch"), lightFigure(view.plot())}};
    return writeReportFiles(comparisonReport(view), plots, markdownPath, files, error);
}

} // namespace lbd::ui
