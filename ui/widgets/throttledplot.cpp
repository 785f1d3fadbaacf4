#include "ui/widgets/throttledplot.h"

#include <QFileDialog>
#include <QMenu>

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
    setToolTip(tr("Drag to pan, wheel to zoom, double-click to fit, right-click to export a PNG."));
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
    // A little room above and below, so lines do not run along the frame.
    for (QCPAxis* axis : {yAxis, yAxis2}) {
        const QCPRange range = axis->range();
        const double pad = range.size() > 0 ? range.size() * 0.05 : 0.5;
        axis->setRange(range.lower - pad, range.upper + pad);
    }
    const QCPRange x = xAxis->range();
    if (x.size() <= 0) {
        xAxis->setRange(x.lower - 0.5, x.upper + 0.5);
    }
    for (auto it = m_fixedRanges.cbegin(); it != m_fixedRanges.cend(); ++it) {
        it.key()->setRange(it.value());
    }
}

bool ThrottledPlot::exportPng(const QString& path)
{
    return savePng(path, 0, 0, 1.0, -1, 96);
}

void ThrottledPlot::showContextMenu(const QPoint& position)
{
    QMenu menu(this);
    menu.addAction(tr("Fit to data"), this, [this] {
        m_userMovedView = false;
        fitToData();
        replot();
    });
    menu.addAction(tr("Export PNG..."), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), objectName() + QStringLiteral(".png"),
                                                          tr("PNG images (*.png)"));
        if (!path.isEmpty()) {
            exportPng(path);
        }
    });
    menu.exec(mapToGlobal(position));
}

} // namespace lbd::ui
