#include "ui/widgets/plotexport.h"

#include <qcustomplot.h>

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>

#ifdef LBD_HAVE_QT_SVG
#include <QSvgGenerator>
#endif

namespace lbd::ui {
namespace {

#ifdef LBD_HAVE_QT_SVG
bool writeSvg(QCustomPlot* plot, const QString& path)
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(plot->size());
    generator.setViewBox(QRect(QPoint(0, 0), plot->size()));
    generator.setTitle(plot->objectName());
    QCPPainter painter;
    if (!painter.begin(&generator)) {
        return false;
    }
    // As savePdf does: plottables that paint a bitmap on screen (the confusion matrix) draw shapes.
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    plot->toPainter(&painter, plot->width(), plot->height());
    return painter.end();
}
#endif

void exportWithDialog(QCustomPlot* plot, const QString& suffix, const QString& filter)
{
    const QString name = plot->objectName().isEmpty() ? QStringLiteral("plot") : plot->objectName();
    const QString path = QFileDialog::getSaveFileName(plot, QObject::tr("Export plot"), name + QLatin1Char('.') + suffix, filter);
    if (path.isEmpty()) {
        return;
    }
    QString error;
    if (!exportPlot(plot, QFileInfo(path).suffix().isEmpty() ? path + QLatin1Char('.') + suffix : path, &error)) {
        QMessageBox::warning(plot, QObject::tr("Export plot"), error);
    }
}

} // namespace

bool plotSvgAvailable()
{
#ifdef LBD_HAVE_QT_SVG
    return true;
#else
    return false;
#endif
}

QString plotSkipReason(QCustomPlot* plot)
{
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* plottable = plot->plottable(i);
        if (!plottable->visible()) {
            continue;
        }
        if (QCPPlottableInterface1D* series = plottable->interface1D(); series && series->dataCount() > 0) {
            return {};
        }
        if (auto* map = qobject_cast<QCPColorMap*>(plottable); map && !map->data()->isEmpty()) {
            return {};
        }
    }
    return QObject::tr("no data yet (nothing has been drawn in it)");
}

QStringList plotExportSuffixes()
{
    QStringList suffixes{QStringLiteral("png"), QStringLiteral("pdf")};
    if (plotSvgAvailable()) {
        suffixes << QStringLiteral("svg");
    }
    return suffixes;
}

bool exportPlot(QCustomPlot* plot, const QString& path, QString* error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool written = false;
    if (suffix == QLatin1String("png")) {
        // Width and height 0 = the plot's size on screen, times the scale; 96 dpi recorded.
        written = plot->savePng(path, 0, 0, kPlotExportScale, -1, 96);
    } else if (suffix == QLatin1String("pdf")) {
        written = plot->savePdf(path);
#ifdef LBD_HAVE_QT_SVG
    } else if (suffix == QLatin1String("svg")) {
        written = writeSvg(plot, path);
#endif
    } else {
        if (error) {
            *error = QObject::tr("%1: plots are exported as %2 (this build has %3)")
                         .arg(path, plotExportSuffixes().join(QStringLiteral(", ")),
                              plotSvgAvailable() ? QObject::tr("Qt Svg") : QObject::tr("no SVG: Qt's Svg module was not found"));
        }
        return false;
    }
    if (!written || QFileInfo(path).size() == 0) {
        if (error) {
            *error = QObject::tr("%1 could not be written (is the folder writable?)").arg(path);
        }
        return false;
    }
    return true;
}

void addPlotExportActions(QMenu* menu, QCustomPlot* plot)
{
    menu->addAction(QObject::tr("Export PNG (2x)..."), plot,
                    [plot] { exportWithDialog(plot, QStringLiteral("png"), QObject::tr("PNG images (*.png)")); });
    menu->addAction(QObject::tr("Export PDF..."), plot,
                    [plot] { exportWithDialog(plot, QStringLiteral("pdf"), QObject::tr("PDF documents (*.pdf)")); });
    if (plotSvgAvailable()) {
        menu->addAction(QObject::tr("Export SVG..."), plot,
                        [plot] { exportWithDialog(plot, QStringLiteral("svg"), QObject::tr("SVG drawings (*.svg)")); });
    }
}

} // namespace lbd::ui
