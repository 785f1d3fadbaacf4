#include "ui/widgets/throttledplot.h"

#include "ui/widgets/plotexport.h"
#include "ui/widgets/plotpalette.h"

#include <QMenu>
#include <QResizeEvent>

#include <algorithm>
#include <cmath>

namespace lbd::ui {

ThrottledPlot::ThrottledPlot(QWidget* parent) : QCustomPlot(parent)
{
    m_replotTimer.setSingleShot(true);
    m_replotTimer.setInterval(kReplotIntervalMs);
    connect(&m_replotTimer, &QTimer::timeout, this, [this] {
        if (!m_userMovedView) {
            fitToData();
        }
        replot(QCustomPlot::rpQueuedReplot);
        ++m_replots;
        emit replotted();
    });

    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setNoAntialiasingOnDrag(true);
    setMinimumSize(280, 180);
    legend->setVisible(true);
    legend->setBrush(QColor(255, 255, 255, 210));
    legend->setBorderPen(QPen(QColor(180, 180, 180)));
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    legend->setFont(legendFont);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

    connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() == Qt::LeftButton) {
            m_userMovedView = true;
        }
    });
    connect(this, &QCustomPlot::mouseWheel, this, [this](QWheelEvent*) { m_userMovedView = true; });
    connect(this, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) {
        m_userMovedView = false;
        fitToData();
        replot();
    });
    setContextMenuPolicy(Qt::CustomContextMenu);
    connect(this, &QWidget::customContextMenuRequested, this, &ThrottledPlot::showContextMenu);
    setToolTip(tr("Drag to pan, wheel to zoom, double-click to fit, right-click to export (PNG, PDF)."));
    // Before each replot, not once: titles, legends and axes added after construction follow too,
    // and a palette changed at run time (a dark theme) reaches every plot on its next replot.
    connect(this, &QCustomPlot::beforeReplot, this, [this] { applyPlotPalette(this, palette()); });
}

void ThrottledPlot::requestReplot()
{
    if (!m_replotTimer.isActive()) {
        m_replotTimer.start();
    }
}

void ThrottledPlot::setFixedRange(QCPAxis* axis, double lower, double upper)
{
    m_fixedRanges.insert(axis, QCPRange(lower, upper));
    axis->setRange(lower, upper);
}

void ThrottledPlot::fitToData()
{
    rescaleAxes(true);
    for (QCPAxis* axis : {yAxis, yAxis2}) {
        // QCustomPlot keeps the old span for constant data; use the data's own range instead.
        QCPRange range;
        bool any = false;
        const bool logarithmic = axis->scaleType() == QCPAxis::stLogarithmic;
        for (QCPAbstractPlottable* plottable : axis->plottables()) {
            bool found = false;
            // A log axis can only show positive values.
            const QCPRange r = plottable->getValueRange(found, logarithmic ? QCP::sdPositive : QCP::sdBoth);
            if (found && plottable->visible()) {
                range = any ? QCPRange(std::min(range.lower, r.lower), std::max(range.upper, r.upper)) : r;
                any = true;
            }
        }
        if (!any) {
            continue;
        }
        if (logarithmic) {
            // A tenth of a decade of room, multiplicatively; a constant series gets a decade.
            const bool flat = range.upper <= range.lower * (1 + 1e-9);
            axis->setRange(range.lower / (flat ? 3.0 : 1.25), range.upper * (flat ? 3.0 : 1.25));
            continue;
        }
        const double centre = range.center();
        if (range.size() <= 1e-9 * std::max(1e-12, std::abs(centre))) {
            // A constant series (a flat learning rate): a range around its value.
            axis->setRange(centre == 0 ? -1 : centre - 0.5 * std::abs(centre), centre == 0 ? 1 : centre + 0.5 * std::abs(centre));
        } else {
            // A little room above and below, so lines do not run along the frame.
            axis->setRange(range.lower - 0.05 * range.size(), range.upper + 0.05 * range.size());
        }
    }
    const QCPRange x = xAxis->range();
    if (x.size() <= 0) {
        xAxis->setRange(x.lower - 0.5, x.upper + 0.5);
    }
    for (auto it = m_fixedRanges.cbegin(); it != m_fixedRanges.cend(); ++it) {
        it.key()->setRange(it.value());
    }
}

void ThrottledPlot::placeLegendBelow()
{
    auto* row = new QCPLayoutGrid;
    plotLayout()->addElement(plotLayout()->rowCount(), 0, row);
    axisRect()->insetLayout()->take(legend);
    row->addElement(0, 0, legend);
    legend->setWrap(3);
    legend->setFillOrder(QCPLegend::foColumnsFirst, true); // re-flow the items already there
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    row->setMargins(QMargins(0, 0, 0, 0));
    plotLayout()->setRowStretchFactor(plotLayout()->rowCount() - 1, 0.001);
    m_legendBelow = true;
    fitLegendColumns(width());
}

void ThrottledPlot::fitLegendColumns(int width)
{
    if (!m_legendBelow || legend->itemCount() == 0) {
        return;
    }
    int widest = 1;
    for (int i = 0; i < legend->elementCount(); ++i) {
        if (QCPLayoutElement* item = legend->elementAt(i)) {
            widest = std::max(widest, item->minimumOuterSizeHint().width());
        }
    }
    const QMargins margins = legend->margins();
    const int available = width - margins.left() - margins.right();
    const int columns = std::clamp((available + legend->columnSpacing()) / (widest + legend->columnSpacing()), 1, 3);
    if (columns != legend->wrap()) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLegend::foColumnsFirst, true); // re-flow into the new column count
    }
}

void ThrottledPlot::resizeEvent(QResizeEvent* event)
{
    fitLegendColumns(event->size().width()); // before the base class lays out and replots
    QCustomPlot::resizeEvent(event);
}

bool ThrottledPlot::exportPng(const QString& path)
{
    return exportPlot(this, path);
}

void ThrottledPlot::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        replot(QCustomPlot::rpQueuedReplot);
    }
}

void ThrottledPlot::showContextMenu(const QPoint& position)
{
    QMenu menu(this);
    menu.addAction(tr("Fit to data"), this, [this] {
        m_userMovedView = false;
        fitToData();
        replot();
    });
    menu.addSeparator();
    addPlotExportActions(&menu, this);
    menu.exec(mapToGlobal(position));
}

} // namespace lbd::ui
