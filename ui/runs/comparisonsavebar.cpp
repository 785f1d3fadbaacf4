#include "ui/runs/comparisonsavebar.h"

#include "ui/report/comparisonreport.h"
#include "ui/runs/runcomparisonview.h"
#include "ui/widgets/savepath.h"

#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QPushButton>

namespace lbd::ui {
ComparisonSaveBar::ComparisonSaveBar(RunComparisonView* view, std::function<QString()> folder, QWidget* parent)
    : QWidget(parent), m_view(view), m_folder(std::move(folder))
{
    m_pngButton = new QPushButton(tr("Save plots as PNG…"), this);
    m_pngButton->setObjectName(QStringLiteral("savePlotsPngButton"));
    m_pngButton->setToolTip(tr("Save the comparison figure (three panels, legend) as a PNG image."));
    m_pdfButton = new QPushButton(tr("Save plots as PDF…"), this);
    m_pdfButton->setObjectName(QStringLiteral("savePlotsPdfButton"));
    m_pdfButton->setToolTip(tr("Save the comparison figure as a vector PDF, for a report."));
    m_reportButton = new QPushButton(tr("Write report…"), this);
    m_reportButton->setObjectName(QStringLiteral("writeComparisonReportButton"));
    m_reportButton->setToolTip(tr("Write the comparison as a report: the compared runs, the side-by-side table with the "
                                  "settings that differ, and the figure; Markdown with the figure as a PNG next to it, "
                                  "and a PDF with the same tables and figure."));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_pngButton);
    row->addWidget(m_pdfButton);
    row->addWidget(m_reportButton);
    row->addStretch(1);
    connect(m_pngButton, &QPushButton::clicked, this, [this] { ask(Output::Png); });
    connect(m_pdfButton, &QPushButton::clicked, this, [this] { ask(Output::Pdf); });
    connect(m_reportButton, &QPushButton::clicked, this, [this] { ask(Output::Report); });
    updateButtons();
}

void ComparisonSaveBar::updateButtons()
{
    const bool compared = !m_view->runs().empty();
    for (QPushButton* button : {m_pngButton, m_pdfButton, m_reportButton}) {
        button->setEnabled(compared);
    }
}

bool ComparisonSaveBar::savePng(const QString& path)
{
    QString error;
    if (!m_view->savePng(path, &error)) {
        emit message(error, true);
        return false;
    }
    emit message(tr("Saved the comparison as %1.").arg(path), false);
    return true;
}

bool ComparisonSaveBar::savePdf(const QString& path)
{
    QString error;
    if (!m_view->savePdf(path, &error)) {
        emit message(error, true);
        return false;
    }
    emit message(tr("Saved the comparison as %1.").arg(path), false);
    return true;
}

bool ComparisonSaveBar::writeReport(const QString& markdownPath)
{
    ReportFiles files;
    QString error;
    if (!writeComparisonReport(*m_view, markdownPath, &files, &error)) {
        emit message(error, true);
        return false;
    }
    emit message(tr("Report written: %1 and %2").arg(files.markdown, files.pdf), false);
    return true;
}

void ComparisonSaveBar::ask(Output output)
{
    static const struct {
        const char* suffix;
        const char* title;
        const char* filter;
        const char* name;
    } kinds[] = {{"png", QT_TR_NOOP("Save the comparison as PNG"), QT_TR_NOOP("PNG image (*.png)"), "run-comparison"},
                 {"pdf", QT_TR_NOOP("Save the comparison as PDF"), QT_TR_NOOP("PDF document (*.pdf)"), "run-comparison"},
                 {"md", QT_TR_NOOP("Write the comparison report (Markdown; the PDF and the figure go next to it)"),
                  QT_TR_NOOP("Markdown (*.md)"), "run-comparison-report"}};
    const auto& kind = kinds[static_cast<int>(output)];
    const QString suffix = QString::fromLatin1(kind.suffix);
    const QString path = withSuffix(QFileDialog::getSaveFileName(this, tr(kind.title),
                                                                 QDir(m_folder()).filePath(QString::fromLatin1(kind.name) + QLatin1Char('.') + suffix),
                                                                 tr(kind.filter)),
                                    suffix);
    if (path.isEmpty()) {
        return;
    }
    switch (output) {
    case Output::Png: savePng(path); break;
    case Output::Pdf: savePdf(path); break;
    case Output::Report: writeReport(path); break;
    }
}

} // namespace lbd::ui
