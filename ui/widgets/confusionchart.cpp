#include "ui/widgets/confusionchart.h"

#include "ui/style/regioncolors.h"
#include "ui/widgets/throttledplot.h"

#include <QMouseEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace lbd::ui {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// Viridis (matplotlib): sequential, even in lightness, readable with every common colour-vision
// deficiency and in greyscale; QCustomPlot 2.1 has no preset for it.
QCPColorGradient viridis()
{
    QCPColorGradient gradient;
    gradient.clearColorStops();
    const QColor stops[] = {QColor(0x44, 0x01, 0x54), QColor(0x48, 0x28, 0x78), QColor(0x3e, 0x4a, 0x89),
                            QColor(0x31, 0x68, 0x8e), QColor(0x26, 0x82, 0x8e), QColor(0x1f, 0x9e, 0x89),
                            QColor(0x35, 0xb7, 0x79), QColor(0x6d, 0xcd, 0x59), QColor(0xb4, 0xde, 0x2c),
                            QColor(0xfd, 0xe7, 0x25)};
    const int n = int(std::size(stops));
    for (int i = 0; i < n; ++i) {
        gradient.setColorStopAt(double(i) / double(n - 1), stops[i]);
    }
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(Qt::transparent); // an empty cell under log colour shows the background
    return gradient;
}

QColor readableOn(const QColor& background)
{
    return background.lightnessF() > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

// First and last class of each region (classes are in head-to-tail order); -1 when empty.
std::pair<int, int> regionSpan(const std::vector<lbd::Region>& regions, lbd::Region region)
{
    int first = -1;
    int last = -1;
    for (int c = 0; c < int(regions.size()); ++c) {
        if (regions[size_t(c)] == region) {
            first = first < 0 ? c : first;
            last = c;
        }
    }
    return {first, last};
}

// The colour map that stays a drawing in vector exports. QCPColorMap paints its cells as one
// bitmap, so an SVG or PDF of the matrix held a picture of it; with a vectorised painter (PDF and
// SVG export, plotexport.h) each cell is a filled rectangle of its colour instead. On screen and in
// PNGs the bitmap stays: it is faster and looks the same.
class VectorColorMap final : public QCPColorMap {
public:
    using QCPColorMap::QCPColorMap;

protected:
    void draw(QCPPainter* painter) override
    {
        if (!painter->modes().testFlag(QCPPainter::pmVectorized)) {
            QCPColorMap::draw(painter);
            return;
        }
        QCPColorMapData& cells = *data(); // cell() is not const in QCustomPlot 2.1
        if (cells.isEmpty() || !keyAxis() || !valueAxis()) {
            return;
        }
        const int keys = cells.keySize();
        const int values = cells.valueSize();
        const double keyStep = keys > 1 ? cells.keyRange().size() / double(keys - 1) : 1.0;
        const double valueStep = values > 1 ? cells.valueRange().size() / double(values - 1) : 1.0;
        const bool logarithmic = dataScaleType() == QCPAxis::stLogarithmic;
        QCPColorGradient colours = gradient();
        painter->setAntialiasing(false); // antialiased edges leave hairline gaps between cells
        painter->setPen(Qt::NoPen);
        for (int k = 0; k < keys; ++k) {
            for (int v = 0; v < values; ++v) {
                const double value = cells.cell(k, v);
                if (std::isnan(value)) {
                    continue; // blank, as on screen
                }
                double key = 0;
                double position = 0;
                cells.cellToCoord(k, v, &key, &position);
                const QPointF corner = coordsToPixels(key - keyStep / 2, position - valueStep / 2);
                const QPointF opposite = coordsToPixels(key + keyStep / 2, position + valueStep / 2);
                painter->setBrush(QColor::fromRgba(colours.color(value, dataRange(), logarithmic)));
                painter->drawRect(QRectF(corner, opposite).normalized());
            }
        }
    }
};

} // namespace

ConfusionChart::ConfusionChart(ThrottledPlot* plot) : QObject(plot), m_plot(plot)
{
    m_plot->setInteractions({}); // cells stay where the user clicks them
    m_plot->legend->setVisible(false);
    m_plot->xAxis->setLabel(tr("decided class (the run's rule)"));
    m_plot->yAxis->setLabel(tr("true class"));
    m_plot->yAxis->setRangeReversed(true); // head at the top, as the matrix is written
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->grid()->setVisible(false); // grid lines would cross the cells' centres
    }
    m_map = new VectorColorMap(m_plot->xAxis, m_plot->yAxis);
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);

    m_scale = new QCPColorScale(m_plot);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(14);
    int row = 0;
    int column = 0;
    QCPLayoutGrid* layout = m_plot->plotLayout();
    for (int i = 0; i < layout->elementCount(); ++i) {
        if (layout->elementAt(i) == m_plot->axisRect()) {
            layout->indexToRowCol(i, row, column);
        }
    }
    layout->addElement(row, column + 1, m_scale);
    layout->setColumnStretchFactor(column + 1, 0.01);
    auto* margins = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    m_map->setColorScale(m_scale);
    m_map->setGradient(viridis()); // after setColorScale, which hands the map the scale's own gradient

    connect(m_plot, &QCustomPlot::mousePress, this, &ConfusionChart::onPress);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &ConfusionChart::onRelease);
    connect(m_plot, &QCustomPlot::mouseMove, this, &ConfusionChart::onMove);
    m_plot->setToolTip(tr("Rows: true class; columns: the class the run's rule decided. Click a cell to see its images "
                          "in the Gallery. Right-click to export."));
    clear();
}

void ConfusionChart::setData(ConfusionChartData data)
{
    m_data = std::move(data);
    redraw();
}

void ConfusionChart::clear()
{
    m_data = {};
    redraw();
}

void ConfusionChart::setRowNormalised(bool on)
{
    m_rowNormalised = on;
    redraw();
}

void ConfusionChart::setLogColour(bool on)
{
    m_logColour = on;
    redraw();
}

QString ConfusionChart::className(int c) const
{
    return c < m_data.classNames.size() ? m_data.classNames[c] : QString::number(c);
}

double ConfusionChart::cellValue(int trueClass, int decidedClass) const
{
    const int classes = classCount();
    if (trueClass < 0 || decidedClass < 0 || trueClass >= classes || decidedClass >= classes) {
        return kNan;
    }
    const auto& row = m_data.confusion[size_t(trueClass)];
    const double count = decidedClass < int(row.size()) ? double(row[size_t(decidedClass)]) : 0.0;
    if (!m_rowNormalised) {
        return count;
    }
    double total = 0;
    for (int64_t n : row) {
        total += double(n);
    }
    return total > 0 ? 100.0 * count / total : kNan; // a class without test images has no row
}

void ConfusionChart::redraw()
{
    m_plot->clearItems();
    const int classes = classCount();
    m_map->setVisible(classes > 0);
    if (classes == 0) {
        m_map->data()->clear();
        m_plot->requestReplot();
        return;
    }
    m_map->data()->setSize(classes, classes);
    m_map->data()->setRange(QCPRange(0, classes - 1), QCPRange(0, classes - 1));
    double lowestPositive = std::numeric_limits<double>::infinity();
    double highest = 0;
    for (int t = 0; t < classes; ++t) {
        for (int d = 0; d < classes; ++d) {
            double value = cellValue(t, d);
            if (m_logColour && !(value > 0)) {
                value = kNan; // log(0) has no colour: blank
            }
            m_map->data()->setCell(d, t, value);
            if (value > 0) {
                lowestPositive = std::min(lowestPositive, value);
                highest = std::max(highest, value);
            }
        }
    }
    QCPRange range(0, m_rowNormalised ? 100.0 : std::max(1.0, highest));
    if (m_logColour) {
        const double upper = std::max(1.0, highest);
        const double lower = std::isfinite(lowestPositive) && lowestPositive < upper ? lowestPositive : upper / 10.0;
        range = QCPRange(lower, upper);
    }
    m_map->setDataScaleType(m_logColour ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    m_map->setDataRange(range);
    m_scale->axis()->setTicker(m_logColour ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                                           : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    m_scale->axis()->setLabel((m_rowNormalised ? tr("% of the true class's test images") : tr("test images"))
                              + (m_logColour ? tr(" (log colour)") : QString()));

    // Class names on both axes; every k-th one when there are too many to read.
    const int step = std::max(1, int(std::ceil(classes / 25.0)));
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    for (int c = 0; c < classes; c += step) {
        ticks->addTick(c, classes <= 40 ? tr("%1: %2").arg(c).arg(className(c)) : QString::number(c));
    }
    ticks->setSubTickCount(0);
    m_plot->xAxis->setTicker(ticks);
    m_plot->yAxis->setTicker(ticks);
    m_plot->xAxis->setTickLabelRotation(classes > 3 ? 40 : 0);

    // Room left of and below the matrix for the region bands.
    const double strip = std::max(0.45, 0.05 * classes);
    m_plot->setFixedRange(m_plot->xAxis, -0.5 - strip, classes - 0.5);
    m_plot->setFixedRange(m_plot->yAxis, -0.5, classes - 0.5 + strip);
    drawBands(classes, strip);
    if (classes <= kMaxAnnotatedClasses) {
        drawAnnotations(classes);
    }
    m_plot->requestReplot();
}

void ConfusionChart::drawBands(int classes, double strip)
{
    const double gap = 0.12 * strip;
    QFont font = m_plot->font();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    font.setBold(true);
    for (lbd::Region region : {lbd::Region::Head, lbd::Region::Medium, lbd::Region::Tail}) {
        const auto [first, last] = regionSpan(m_data.regions, region);
        if (first < 0) {
            continue;
        }
        const QColor colour = regionColor(region);
        const QString name = QString::fromStdString(lbd::regionName(region, lbd::RegionScheme::ThirdsByIndex));
        // Left band: the true class's region; bottom band: the decided class's region.
        auto* left = new QCPItemRect(m_plot);
        left->topLeft->setCoords(-0.5 - strip, first - 0.5);
        left->bottomRight->setCoords(-0.5 - gap, last + 0.5);
        auto* bottom = new QCPItemRect(m_plot);
        bottom->topLeft->setCoords(first - 0.5, classes - 0.5 + gap);
        bottom->bottomRight->setCoords(last + 0.5, classes - 0.5 + strip);
        for (QCPItemRect* band : {left, bottom}) {
            band->setPen(Qt::NoPen);
            band->setBrush(colour);
        }
        auto* leftText = new QCPItemText(m_plot);
        leftText->position->setCoords(-0.5 - (strip + gap) / 2, (first + last) / 2.0);
        leftText->setRotation(-90);
        auto* bottomText = new QCPItemText(m_plot);
        bottomText->position->setCoords((first + last) / 2.0, classes - 0.5 + (strip + gap) / 2);
        for (QCPItemText* text : {leftText, bottomText}) {
            text->setText(name);
            text->setFont(font);
            text->setColor(readableOn(colour));
        }
        // Dashed lines where a region starts, across the whole matrix.
        if (first > 0) {
            auto* vertical = new QCPItemLine(m_plot);
            vertical->start->setCoords(first - 0.5, -0.5);
            vertical->end->setCoords(first - 0.5, classes - 0.5);
            auto* horizontal = new QCPItemLine(m_plot);
            horizontal->start->setCoords(-0.5, first - 0.5);
            horizontal->end->setCoords(classes - 0.5, first - 0.5);
            for (QCPItemLine* line : {vertical, horizontal}) {
                line->setPen(QPen(QColor(255, 255, 255, 220), 1.5, Qt::DashLine));
            }
        }
    }
}

void ConfusionChart::drawAnnotations(int classes)
{
    QFont font = m_plot->font();
    font.setPointSizeF(font.pointSizeF() * (classes > 8 ? 0.75 : 0.9));
    for (int t = 0; t < classes; ++t) {
        for (int d = 0; d < classes; ++d) {
            const double value = cellValue(t, d);
            if (!(value > 0)) {
                continue; // an empty cell says more without a "0" in it
            }
            auto* text = new QCPItemText(m_plot);
            text->position->setCoords(d, t);
            text->setText(m_rowNormalised ? QString::number(value, 'f', value < 10 ? 1 : 0) : QString::number(qint64(value)));
            text->setFont(font);
            const QColor cell = QColor::fromRgba(
                m_map->gradient().color(value, m_map->dataRange(), m_map->dataScaleType() == QCPAxis::stLogarithmic));
            text->setColor(readableOn(cell));
        }
    }
}

std::optional<std::pair<int, int>> ConfusionChart::cellAt(const QPointF& pixel) const
{
    const int classes = classCount();
    if (classes == 0 || !m_plot->axisRect()->rect().contains(pixel.toPoint())) {
        return std::nullopt;
    }
    const int d = int(std::lround(m_plot->xAxis->pixelToCoord(pixel.x())));
    const int t = int(std::lround(m_plot->yAxis->pixelToCoord(pixel.y())));
    if (d < 0 || t < 0 || d >= classes || t >= classes) {
        return std::nullopt;
    }
    return std::make_pair(t, d);
}

QPointF ConfusionChart::cellCentre(int trueClass, int decidedClass) const
{
    return {m_plot->xAxis->coordToPixel(decidedClass), m_plot->yAxis->coordToPixel(trueClass)};
}

void ConfusionChart::onPress(QMouseEvent* event)
{
    m_pressAt = event->button() == Qt::LeftButton ? event->position() : QPointF(-1, -1);
}

void ConfusionChart::onRelease(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || m_pressAt.x() < 0
        || (event->position() - m_pressAt).manhattanLength() > 4) {
        return; // a drag, not a click
    }
    m_pressAt = QPointF(-1, -1);
    if (const auto cell = cellAt(event->position())) {
        emit cellClicked(cell->first, cell->second);
    }
}

void ConfusionChart::onMove(QMouseEvent* event)
{
    const auto cell = cellAt(event->position());
    if (!cell) {
        QToolTip::hideText();
        return;
    }
    const auto [t, d] = *cell;
    const auto& row = m_data.confusion[size_t(t)];
    int64_t total = 0;
    for (int64_t n : row) {
        total += n;
    }
    const int64_t count = d < int(row.size()) ? row[size_t(d)] : 0;
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("true %1 decided as %2: %3 of %4 test images (%5%)\nClick to see them in the Gallery.")
                           .arg(className(t), className(d))
                           .arg(count)
                           .arg(total)
                           .arg(total > 0 ? 100.0 * double(count) / double(total) : 0.0, 0, 'f', 1),
                       m_plot);
}

} // namespace lbd::ui
