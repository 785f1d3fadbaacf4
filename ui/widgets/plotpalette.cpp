#include "ui/widgets/plotpalette.h"

#include <qcustomplot.h>

#include <QPalette>

namespace lbd::ui {
namespace {

QColor blend(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

void colourAxis(QCPAxis* axis, const QColor& text, const QColor& grid, const QColor& subGrid)
{
    axis->setBasePen(QPen(text, 1));
    axis->setTickPen(QPen(text, 1));
    axis->setSubTickPen(QPen(text, 1));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    axis->grid()->setSubGridPen(QPen(subGrid, 1, Qt::DotLine));
    axis->grid()->setZeroLinePen(QPen(grid, 1));
}

} // namespace

void applyPlotPalette(QCustomPlot* plot, const QPalette& palette)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    // Grid lines a fifth of the way from the background to the text: visible on light and dark.
    const QColor grid = blend(base, text, 0.22);
    const QColor subGrid = blend(base, text, 0.1);
    plot->setBackground(QBrush(base));
    for (QCPAxisRect* rect : plot->axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
            colourAxis(axis, text, grid, subGrid);
        }
    }
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        if (auto* title = qobject_cast<QCPTextElement*>(element)) {
            title->setTextColor(text);
        } else if (auto* scale = qobject_cast<QCPColorScale*>(element)) {
            colourAxis(scale->axis(), text, grid, subGrid);
        } else if (auto* legend = qobject_cast<QCPLegend*>(element)) {
            legend->setTextColor(text);
            if (legend->brush().style() != Qt::NoBrush) { // a legend inside the axis rect: half see-through
                QColor fill = base;
                fill.setAlpha(210);
                legend->setBrush(fill);
            }
            if (legend->borderPen().style() != Qt::NoPen) {
                legend->setBorderPen(QPen(grid));
            }
            for (int i = 0; i < legend->itemCount(); ++i) {
                if (QCPAbstractLegendItem* item = legend->item(i)) { // a wrapped legend has empty cells
                    item->setTextColor(text);
                }
            }
        }
    }
}

} // namespace lbd::ui
