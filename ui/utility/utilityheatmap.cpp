#include "ui/utility/utilityheatmap.h"

#include "ui/style/regioncolors.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace lbd::ui {
namespace {

constexpr int kAxisTitle = 20;  // room for "True class" / "Decision"
constexpr int kBand = 8;        // head / med / tail strip next to the cells
constexpr int kMaxLabel = 130;  // class names longer than this are elided
constexpr int kGap = 4;

QColor mix(const QColor& a, const QColor& b, double t)
{
    t = std::clamp(t, 0.0, 1.0);
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t), float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

} // namespace

UtilityHeatmap::UtilityHeatmap(QWidget* parent) : QAbstractScrollArea(parent)
{
    setObjectName(QStringLiteral("utilityHeatmap"));
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 260);
    setToolTip(QString());
    viewport()->setToolTip(QString()); // per-cell tooltips come from viewportEvent
}

void UtilityHeatmap::setClasses(const QStringList& names, const std::vector<lbd::Region>& regions, lbd::RegionScheme scheme)
{
    const bool sizeChanged = names.size() != m_names.size();
    m_names = names;
    m_regions = regions.size() == static_cast<size_t>(names.size()) ? regions : std::vector<lbd::Region>{};
    m_scheme = scheme;
    if (sizeChanged) {
        m_selection = QRect();
        m_stroke.clear();
        m_drag = Drag::None;
        emit selectionChanged(m_selection);
    }
    updateGeometry();
    viewport()->update();
}

void UtilityHeatmap::setMatrix(const lbd::UtilityMatrix& matrix)
{
    m_matrix = matrix;
    double largest = 1.0;
    for (double v : matrix.values()) {
        if (std::isfinite(v)) {
            largest = std::max(largest, std::abs(v));
        }
    }
    m_scale = largest;
    viewport()->update();
}

void UtilityHeatmap::setCellSize(int size)
{
    zoomAround(size, QPoint(m_rowHeader, m_columnHeader));
}

void UtilityHeatmap::zoomIn()
{
    setCellSize(std::max(m_cellSize + 1, int(std::lround(m_cellSize * 1.25))));
}

void UtilityHeatmap::zoomOut()
{
    setCellSize(std::min(m_cellSize - 1, int(std::lround(m_cellSize / 1.25))));
}

void UtilityHeatmap::fitToView()
{
    const int n = std::max(1, classCount());
    const int w = viewport()->width() - m_rowHeader - 2;
    const int h = viewport()->height() - m_columnHeader - 2;
    setCellSize(std::min(w, h) / n);
}

void UtilityHeatmap::zoomAround(int size, const QPoint& anchor)
{
    size = std::clamp(size, kMinCellSize, kMaxCellSize);
    if (size == m_cellSize) {
        return;
    }
    // Keep the matrix position under `anchor` in place.
    const double cx = (anchor.x() - m_rowHeader + horizontalScrollBar()->value()) / double(m_cellSize);
    const double cy = (anchor.y() - m_columnHeader + verticalScrollBar()->value()) / double(m_cellSize);
    m_cellSize = size;
    updateGeometry();
    horizontalScrollBar()->setValue(int(std::lround(cx * size - (anchor.x() - m_rowHeader))));
    verticalScrollBar()->setValue(int(std::lround(cy * size - (anchor.y() - m_columnHeader))));
    viewport()->update();
    emit cellSizeChanged(size);
}

void UtilityHeatmap::setSelection(const QRect& cells)
{
    QRect clipped = cells.isNull() ? QRect() : cells.normalized().intersected(QRect(0, 0, classCount(), classCount()));
    if (clipped.isEmpty()) {
        clipped = QRect();
    }
    if (clipped == m_selection) {
        return;
    }
    m_selection = clipped;
    viewport()->update();
    emit selectionChanged(m_selection);
}

void UtilityHeatmap::updateGeometry()
{
    const QFontMetrics fm(font());
    int longest = fm.horizontalAdvance(QStringLiteral("000"));
    for (int i = 0; i < m_names.size(); ++i) {
        longest = std::max(longest, fm.horizontalAdvance(shortName(i)));
    }
    longest = std::min(longest, kMaxLabel);
    m_rowHeader = kAxisTitle + longest + kGap + kBand + 2;
    m_columnHeader = kAxisTitle + longest + kGap + kBand + 2;
    updateScrollBars();
}

void UtilityHeatmap::updateScrollBars()
{
    const int content = classCount() * m_cellSize;
    const int w = std::max(0, viewport()->width() - m_rowHeader);
    const int h = std::max(0, viewport()->height() - m_columnHeader);
    horizontalScrollBar()->setRange(0, std::max(0, content - w));
    horizontalScrollBar()->setPageStep(std::max(1, w));
    horizontalScrollBar()->setSingleStep(std::max(1, m_cellSize));
    verticalScrollBar()->setRange(0, std::max(0, content - h));
    verticalScrollBar()->setPageStep(std::max(1, h));
    verticalScrollBar()->setSingleStep(std::max(1, m_cellSize));
}

QRect UtilityHeatmap::cellRect(int trueClass, int decision) const
{
    return QRect(m_rowHeader + decision * m_cellSize - horizontalScrollBar()->value(),
                 m_columnHeader + trueClass * m_cellSize - verticalScrollBar()->value(), m_cellSize, m_cellSize);
}

std::optional<QPoint> UtilityHeatmap::cellAt(const QPoint& p) const
{
    if (p.x() < m_rowHeader || p.y() < m_columnHeader) {
        return std::nullopt;
    }
    const int d = (p.x() - m_rowHeader + horizontalScrollBar()->value()) / m_cellSize;
    const int t = (p.y() - m_columnHeader + verticalScrollBar()->value()) / m_cellSize;
    if (d < 0 || t < 0 || d >= classCount() || t >= classCount()) {
        return std::nullopt;
    }
    return QPoint(d, t);
}

QPoint UtilityHeatmap::cellCenter(int trueClass, int decision)
{
    const QRect visible(m_rowHeader, m_columnHeader, viewport()->width() - m_rowHeader, viewport()->height() - m_columnHeader);
    QRect r = cellRect(trueClass, decision);
    if (!visible.contains(r.center())) {
        horizontalScrollBar()->setValue(decision * m_cellSize - visible.width() / 2);
        verticalScrollBar()->setValue(trueClass * m_cellSize - visible.height() / 2);
        r = cellRect(trueClass, decision);
    }
    return r.center();
}

QString UtilityHeatmap::shortName(int index) const
{
    const QString name = m_names.value(index);
    return name.isEmpty() ? QString::number(index) : name;
}

QString UtilityHeatmap::cellToolTip(int trueClass, int decision) const
{
    if (trueClass < 0 || decision < 0 || trueClass >= classCount() || decision >= classCount() || m_matrix.empty()) {
        return {};
    }
    QString text = tr("true %1, decide %2: %3")
                       .arg(shortName(trueClass), shortName(decision))
                       .arg(m_matrix(trueClass, decision), 0, 'g', 6);
    if (!m_regions.empty()) {
        const auto region = [this](int c) { return QString::fromStdString(lbd::regionName(m_regions[size_t(c)], m_scheme)); };
        text += tr("\n(%1 -> %2)").arg(region(trueClass), region(decision));
        if (decision < trueClass && m_regions[size_t(decision)] < m_regions[size_t(trueClass)]) {
            text += tr(", a false head: the decision is more head-ward than the truth");
        }
    }
    return text;
}

int UtilityHeatmap::labelStep() const
{
    const int textHeight = QFontMetrics(font()).height();
    return std::max(1, (textHeight + m_cellSize - 1) / m_cellSize);
}

QColor UtilityHeatmap::colorFor(double value, double scale)
{
    static const QColor positive(0x1b, 0x78, 0x37); // PRGn ends
    static const QColor negative(0x76, 0x2a, 0x83);
    if (!std::isfinite(value)) {
        return Qt::black;
    }
    const double t = scale > 0 ? std::clamp(value / scale, -1.0, 1.0) : 0.0;
    return t >= 0 ? mix(Qt::white, positive, t) : mix(Qt::white, negative, -t);
}

void UtilityHeatmap::paintEvent(QPaintEvent* event)
{
    (void)event;
    QPainter p(viewport());
    const QRect area = viewport()->rect();
    p.fillRect(area, palette().base());
    const int n = classCount();
    if (n == 0 || m_matrix.classCount() != n) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(area, Qt::AlignCenter | Qt::TextWordWrap,
                   tr("No classes yet: choose a data set in the experiment panel (its class list sizes the matrix)."));
        return;
    }
    const QFontMetrics fm(font());
    const int hs = horizontalScrollBar()->value();
    const int vs = verticalScrollBar()->value();
    const int firstCol = std::max(0, hs / m_cellSize);
    const int lastCol = std::min(n - 1, (hs + area.width() - m_rowHeader) / m_cellSize);
    const int firstRow = std::max(0, vs / m_cellSize);
    const int lastRow = std::min(n - 1, (vs + area.height() - m_columnHeader) / m_cellSize);

    // Cells.
    p.save();
    p.setClipRect(QRect(m_rowHeader, m_columnHeader, area.width() - m_rowHeader, area.height() - m_columnHeader));
    const bool drawValues = valuesDrawn();
    QFont valueFont = font();
    valueFont.setPointSizeF(std::max(6.0, std::min(font().pointSizeF(), m_cellSize / 3.6)));
    p.setFont(valueFont);
    const bool grid = m_cellSize >= 6;
    for (int t = firstRow; t <= lastRow; ++t) {
        for (int d = firstCol; d <= lastCol; ++d) {
            const QRect r = cellRect(t, d);
            double value = m_matrix(t, d);
            const bool stroked = m_drag == Drag::Paint && !m_strokeMask.empty() && m_strokeMask[size_t(t * n + d)] != 0;
            if (stroked) {
                value = m_paintValue;
            }
            const QColor fill = colorFor(value, m_scale);
            p.fillRect(r, fill);
            if (grid) {
                p.setPen(QColor(0, 0, 0, 40));
                p.drawRect(r.adjusted(0, 0, -1, -1));
            }
            if (drawValues) {
                p.setPen(fill.lightnessF() < 0.5 ? Qt::white : Qt::black);
                p.drawText(r, Qt::AlignCenter, QString::number(value, 'g', 3));
            }
            if (stroked) {
                p.setPen(QPen(QColor(0, 0, 0, 160), 1, Qt::DotLine));
                p.drawRect(r.adjusted(1, 1, -2, -2));
            }
        }
    }
    // Region boundaries across the grid.
    if (!m_regions.empty()) {
        p.setPen(QPen(QColor(0, 0, 0, 150), 2));
        for (int c = 1; c < n; ++c) {
            if (m_regions[size_t(c)] != m_regions[size_t(c - 1)]) {
                const int x = m_rowHeader + c * m_cellSize - hs;
                const int y = m_columnHeader + c * m_cellSize - vs;
                p.drawLine(x, m_columnHeader, x, m_columnHeader + n * m_cellSize - vs);
                p.drawLine(m_rowHeader, y, m_rowHeader + n * m_cellSize - hs, y);
            }
        }
    }
    // Selection.
    if (!m_selection.isNull()) {
        const QRect r(cellRect(m_selection.top(), m_selection.left()).topLeft(),
                      QSize(m_selection.width() * m_cellSize, m_selection.height() * m_cellSize));
        p.fillRect(r, QColor(30, 120, 220, 40));
        p.setPen(QPen(QColor(20, 90, 200), 2, Qt::DashLine));
        p.drawRect(r.adjusted(1, 1, -1, -1));
    }
    p.restore();

    // Headers: names, region bands, axis titles (they stay put while the cells scroll).
    p.fillRect(QRect(0, 0, m_rowHeader, area.height()), palette().window());
    p.fillRect(QRect(0, 0, area.width(), m_columnHeader), palette().window());
    const int step = labelStep();
    const int labelWidth = m_rowHeader - kAxisTitle - kGap - kBand - 2;
    p.setPen(palette().color(QPalette::WindowText));
    p.save();
    p.setClipRect(QRect(0, m_columnHeader, m_rowHeader, area.height() - m_columnHeader));
    for (int t = firstRow; t <= lastRow; ++t) {
        const QRect r = cellRect(t, 0);
        if (!m_regions.empty()) {
            p.fillRect(QRect(m_rowHeader - kBand - 1, r.top(), kBand, m_cellSize), regionColor(m_regions[size_t(t)]));
        }
        if (t % step == 0) {
            QRect label(kAxisTitle, r.top() + m_cellSize / 2 - fm.height() / 2, labelWidth, fm.height());
            if (label.top() < m_columnHeader && r.bottom() >= m_columnHeader) {
                label.moveTop(m_columnHeader); // the first visible row's name, whole
            }
            p.drawText(label, Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(shortName(t), Qt::ElideRight, labelWidth));
        }
    }
    p.restore();
    p.save();
    p.setClipRect(QRect(m_rowHeader, 0, area.width() - m_rowHeader, m_columnHeader));
    for (int d = firstCol; d <= lastCol; ++d) {
        const QRect r = cellRect(0, d);
        if (!m_regions.empty()) {
            p.fillRect(QRect(r.left(), m_columnHeader - kBand - 1, m_cellSize, kBand), regionColor(m_regions[size_t(d)]));
        }
        if (d % step == 0) {
            // Column names read bottom to top, ending just above the band.
            p.save();
            int x = r.left() + m_cellSize / 2 + fm.ascent() / 2 - 1;
            if (x - fm.ascent() < m_rowHeader && r.right() >= m_rowHeader) {
                x = m_rowHeader + fm.ascent(); // the first visible column's name, whole
            }
            p.translate(x, m_columnHeader - kBand - kGap - 1);
            p.rotate(-90);
            p.drawText(QRect(0, -fm.ascent(), labelWidth, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                       fm.elidedText(shortName(d), Qt::ElideRight, labelWidth));
            p.restore();
        }
    }
    p.restore();

    QFont titleFont = font();
    titleFont.setBold(true);
    p.setFont(titleFont);
    const int gridW = std::min(n * m_cellSize - hs, area.width() - m_rowHeader);
    const int gridH = std::min(n * m_cellSize - vs, area.height() - m_columnHeader);
    p.drawText(QRect(m_rowHeader, 0, std::max(gridW, 200), kAxisTitle), Qt::AlignLeft | Qt::AlignVCenter,
               tr("Decision d (columns)"));
    p.save();
    p.translate(0, m_columnHeader + std::max(gridH, 200));
    p.rotate(-90);
    p.drawText(QRect(0, 0, std::max(gridH, 200), kAxisTitle), Qt::AlignLeft | Qt::AlignVCenter,
               tr("True class t (rows)"));
    p.restore();
    p.setFont(font());
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(QRect(2, 2, m_rowHeader - 4, m_columnHeader - 4), Qt::AlignCenter | Qt::TextWordWrap, tr("U[t, d]"));
}

void UtilityHeatmap::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

void UtilityHeatmap::scrollContentsBy(int dx, int dy)
{
    (void)dx;
    (void)dy;
    viewport()->update();
}

void UtilityHeatmap::addStrokeCell(const QPoint& cell)
{
    const int n = classCount();
    // Fill the cells between two mouse events so a fast drag leaves no gaps.
    const QPoint from = m_stroke.isEmpty() ? cell : m_lastStrokeCell;
    const int steps = std::max(std::abs(cell.x() - from.x()), std::abs(cell.y() - from.y()));
    for (int i = 0; i <= steps; ++i) {
        const double f = steps == 0 ? 1.0 : double(i) / steps;
        const QPoint c(int(std::lround(from.x() + (cell.x() - from.x()) * f)), int(std::lround(from.y() + (cell.y() - from.y()) * f)));
        char& mark = m_strokeMask[size_t(c.y() * n + c.x())];
        if (mark == 0) {
            mark = 1;
            m_stroke << c;
        }
    }
    m_lastStrokeCell = cell;
    viewport()->update();
}

void UtilityHeatmap::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || classCount() == 0 || m_matrix.classCount() != classCount()) {
        QAbstractScrollArea::mousePressEvent(event);
        return;
    }
    const QPoint pos = event->position().toPoint();
    const int n = classCount();
    if (const auto cell = cellAt(pos)) {
        if (m_mode == Mode::Select || (event->modifiers() & Qt::ShiftModifier)) {
            m_drag = Drag::Select;
            m_selectAnchor = *cell;
            setSelection(QRect(*cell, QSize(1, 1)));
        } else {
            m_drag = Drag::Paint;
            m_stroke.clear();
            m_strokeMask.assign(size_t(n) * size_t(n), 0);
            addStrokeCell(*cell);
        }
        event->accept();
        return;
    }
    // Headers: a row name selects the row, a column name the column, the corner everything.
    const int vs = verticalScrollBar()->value();
    const int hs = horizontalScrollBar()->value();
    if (pos.x() < m_rowHeader && pos.y() >= m_columnHeader) {
        const int t = (pos.y() - m_columnHeader + vs) / m_cellSize;
        if (t < n) {
            setSelection(QRect(0, t, n, 1));
        }
    } else if (pos.y() < m_columnHeader && pos.x() >= m_rowHeader) {
        const int d = (pos.x() - m_rowHeader + hs) / m_cellSize;
        if (d < n) {
            setSelection(QRect(d, 0, 1, n));
        }
    } else if (pos.x() < m_rowHeader && pos.y() < m_columnHeader) {
        setSelection(QRect(0, 0, n, n));
    }
    event->accept();
}

void UtilityHeatmap::mouseMoveEvent(QMouseEvent* event)
{
    if (m_drag == Drag::None) {
        QAbstractScrollArea::mouseMoveEvent(event);
        return;
    }
    // Clamp to the grid so a drag that leaves it still ends on the border cells.
    const QPoint pos = event->position().toPoint();
    const int n = classCount();
    const int d = std::clamp((pos.x() - m_rowHeader + horizontalScrollBar()->value()) / m_cellSize, 0, n - 1);
    const int t = std::clamp((pos.y() - m_columnHeader + verticalScrollBar()->value()) / m_cellSize, 0, n - 1);
    const QPoint cell(std::max(0, d), std::max(0, t));
    if (m_drag == Drag::Paint) {
        addStrokeCell(cell);
    } else {
        setSelection(QRect(m_selectAnchor, cell).normalized());
    }
    event->accept();
}

void UtilityHeatmap::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || m_drag == Drag::None) {
        QAbstractScrollArea::mouseReleaseEvent(event);
        return;
    }
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (drag == Drag::Paint && !m_stroke.isEmpty()) {
        const QVector<QPoint> stroke = m_stroke;
        m_stroke.clear();
        m_strokeMask.clear();
        emit cellsPainted(stroke);
    }
    viewport()->update();
    event->accept();
}

void UtilityHeatmap::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape && m_drag == Drag::Paint) {
        // Abandon the stroke: nothing is painted.
        m_drag = Drag::None;
        m_stroke.clear();
        m_strokeMask.clear();
        viewport()->update();
        return;
    }
    if (event->key() == Qt::Key_Escape) {
        clearSelection();
        return;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

void UtilityHeatmap::wheelEvent(QWheelEvent* event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        const int delta = event->angleDelta().y();
        if (delta != 0) {
            const int size = delta > 0 ? std::max(m_cellSize + 1, int(std::lround(m_cellSize * 1.25)))
                                       : std::min(m_cellSize - 1, int(std::lround(m_cellSize / 1.25)));
            zoomAround(size, event->position().toPoint());
        }
        event->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(event);
}

bool UtilityHeatmap::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        if (const auto cell = cellAt(help->pos())) {
            QToolTip::showText(help->globalPos(), cellToolTip(cell->y(), cell->x()), viewport(), cellRect(cell->y(), cell->x()));
        } else if (help->pos().x() < m_rowHeader && help->pos().y() >= m_columnHeader) {
            QToolTip::showText(help->globalPos(), tr("True class (row). Click to select the whole row."), viewport());
        } else if (help->pos().y() < m_columnHeader && help->pos().x() >= m_rowHeader) {
            QToolTip::showText(help->globalPos(), tr("Decision (column). Click to select the whole column."), viewport());
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

} // namespace lbd::ui
