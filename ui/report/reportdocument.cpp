#include "ui/report/reportdocument.h"

#include "core/util/atomicfile.h"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

#include <exception>

namespace lbd::ui {
namespace {

QString escapeCell(QString text)
{
    return text.replace(QLatin1Char('|'), QStringLiteral("\\|")).replace(QLatin1Char('\n'), QLatin1Char(' '));
}

bool isBold(const ReportTable& table, int row, int column) { return table.boldCells.contains(QPoint(column, row)); }

QString reportHtml(const ReportDocument& report, const QList<ReportPlot>& plots)
{
    QString html = QStringLiteral("<h1>%1</h1>").arg(report.title.toHtmlEscaped());
    if (!report.folder.isEmpty()) {
        html += QStringLiteral("<p>%1: %2</p>").arg(report.folderTitle.toHtmlEscaped(), report.folder.toHtmlEscaped());
    }
    for (const ReportTable& table : report.tables) {
        html += QStringLiteral("<h2>%1</h2><table border=\"1\" cellspacing=\"0\" cellpadding=\"3\"><tr>").arg(table.title.toHtmlEscaped());
        for (const QString& cell : table.header) {
            html += QStringLiteral("<th>%1</th>").arg(cell.toHtmlEscaped());
        }
        html += QStringLiteral("</tr>");
        for (int r = 0; r < table.rows.size(); ++r) {
            html += QStringLiteral("<tr>");
            for (int c = 0; c < table.rows[r].size(); ++c) {
                const QString cell = table.rows[r][c].toHtmlEscaped();
                html += QStringLiteral("<td>%1</td>").arg(isBold(table, r, c) ? QStringLiteral("<b>%1</b>").arg(cell) : cell);
            }
            html += QStringLiteral("</tr>");
        }
        html += QStringLiteral("</table>");
    }
    for (const ReportPlot& plot : plots) {
        html += QStringLiteral("<h2>%1</h2><p><img src=\"%2\" width=\"600\"></p>").arg(plot.title.toHtmlEscaped(), plot.fileName);
    }
    return html;
}

QByteArray pdfBytes(const ReportDocument& report, const QList<ReportPlot>& plots)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setTitle(report.title);
        writer.setCreator(QStringLiteral("LBD Studio"));
        QTextDocument document;
        for (const ReportPlot& plot : plots) {
            document.addResource(QTextDocument::ImageResource, QUrl(plot.fileName), plot.image);
        }
        document.setHtml(reportHtml(report, plots));
        document.print(&writer);
    }
    return buffer.data();
}

void writeBytes(const QString& path, const QByteArray& bytes)
{
    lbd::writeFileAtomically(path.toStdString(), bytes.toStdString());
}

} // namespace

QString reportMarkdown(const ReportDocument& report, const QStringList& images)
{
    QString text = QStringLiteral("# %1\n").arg(report.title);
    if (!report.folder.isEmpty()) {
        text += QStringLiteral("\n%1: `%2`\n").arg(report.folderTitle, report.folder);
    }
    for (const ReportTable& table : report.tables) {
        text += QStringLiteral("\n## %1\n\n|").arg(table.title);
        QString rule = QStringLiteral("|");
        for (const QString& cell : table.header) {
            text += QStringLiteral(" %1 |").arg(escapeCell(cell));
            rule += QStringLiteral(" --- |");
        }
        text += QStringLiteral("\n") + rule + QStringLiteral("\n");
        for (int r = 0; r < table.rows.size(); ++r) {
            text += QStringLiteral("|");
            for (int c = 0; c < table.rows[r].size(); ++c) {
                const QString cell = escapeCell(table.rows[r][c]);
                text += QStringLiteral(" %1 |").arg(isBold(table, r, c) && !cell.isEmpty() ? QStringLiteral("**%1**").arg(cell) : cell);
            }
            text += QStringLiteral("\n");
        }
    }
    if (!images.isEmpty()) {
        text += QStringLiteral("\n## Plots\n\n");
        for (const QString& image : images) {
            text += QStringLiteral("![%1](%1)\n\n").arg(image);
        }
    }
    return text;
}

bool writeReportFiles(const ReportDocument& report, const QList<ReportPlot>& plots, const QString& markdownPath,
                      ReportFiles* files, QString* error)
{
    const QFileInfo markdown(markdownPath);
    if (!QDir().mkpath(markdown.absolutePath())) {
        *error = QObject::tr("The folder %1 could not be created.").arg(markdown.absolutePath());
        return false;
    }
    const QDir out = markdown.absoluteDir();
    try {
        QStringList images;
        for (const ReportPlot& plot : plots) {
            QBuffer png;
            png.open(QIODevice::WriteOnly);
            plot.image.save(&png, "PNG");
            writeBytes(out.filePath(plot.fileName), png.data());
            images << plot.fileName;
        }
        files->markdown = markdown.absoluteFilePath();
        writeBytes(files->markdown, reportMarkdown(report, images).toUtf8());
        files->pdf = out.filePath(markdown.completeBaseName() + QStringLiteral(".pdf"));
        writeBytes(files->pdf, pdfBytes(report, plots));
        files->images.clear();
        for (const QString& image : images) {
            files->images << out.filePath(image);
        }
    } catch (const std::exception& failure) {
        *error = QObject::tr("The report was not written: %1").arg(QString::fromUtf8(failure.what()));
        return false;
    }
    return true;
}

} // namespace lbd::ui
