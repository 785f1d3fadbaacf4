#pragma once
// The C x C utility heatmap: rows = true class t, columns = decision d, class names on both
// axes with head / med / tail bands, a diverging colour per value. The user paints cells (click
// or drag; one stroke is reported when the button is released) or selects a rectangular block
// (Select mode, shift-drag, or a click on a row / column header). Built for 100 classes: the
// headers stay in place while the cells scroll, Ctrl+wheel zooms, values are written only when
// a cell is big enough to hold them, and every cell has a tooltip. It shows the matrix it is
// given and never edits it: the page turns strokes and blocks into undoable edits.
#include <QAbstractScrollArea>
#include <QRect>
#include <QStringList>
#include <QVector>

#include <optional>
#include <vector>

#include "core/data/regions.h"
#include "core/lbd/utilitymatrix.h"

namespace lbd::ui {

class UtilityHeatmap final : public QAbstractScrollArea {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UtilityHeatmap)

public:
    enum class Mode { Paint, Select };

    static constexpr int kMinCellSize = 3;
    static constexpr int kMaxCellSize = 80;
    // Values are written into cells at least this wide (smaller cells show colour only).
    static constexpr int kValueTextCellSize = 30;

    explicit UtilityHeatmap(QWidget* parent = nullptr);

    // Class names head to tail and their regions (same length, or empty regions for none).
    void setClasses(const QStringList& names, const std::vector<lbd::Region>& regions, lbd::RegionScheme scheme);
    void setMatrix(const lbd::UtilityMatrix& matrix);
    const lbd::UtilityMatrix& matrix() const { return m_matrix; }
    int classCount() const { return static_cast<int>(m_names.size()); }

    void setPaintValue(double value) { m_paintValue = value; }
    double paintValue() const { return m_paintValue; }
    void setMode(Mode mode) { m_mode = mode; }
    Mode mode() const { return m_mode; }

    int cellSize() const { return m_cellSize; }
    void setCellSize(int size);
    void zoomIn();
    void zoomOut();
    // The largest cell size (within limits) at which the whole matrix fits the view.
    void fitToView();
    bool valuesDrawn() const { return m_cellSize >= kValueTextCellSize; }

    // The selected block in cells: x / width = decision columns, y / height = true-class rows.
    // A null rectangle means no selection.
    QRect selection() const { return m_selection; }
    void setSelection(const QRect& cells);
    void clearSelection() { setSelection(QRect()); }

    // Centre of cell (t, d) in viewport coordinates (scrolls it into view first): where a user
    // would click; tests send their mouse events there.
    QPoint cellCenter(int trueClass, int decision);
    // The cell under a viewport position as (x = decision, y = true class), if any.
    std::optional<QPoint> cellAt(const QPoint& viewportPosition) const;
    QString cellToolTip(int trueClass, int decision) const;

    // The colour of `value` when +-scale are the ends of the colour bar (PRGn: green positive,
    // white 0, purple negative; away from the blue / amber / red of the regions).
    static QColor colorFor(double value, double scale);
    // max |U| (at least 1): the colour bar runs from -scale to +scale.
    double colorScale() const { return m_scale; }

signals:
    // One finished paint stroke: every cell it touched, as (x = decision, y = true class).
    void cellsPainted(const QVector<QPoint>& cells);
    void selectionChanged(const QRect& cells);
    void cellSizeChanged(int size);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    enum class Drag { None, Paint, Select };

    void updateGeometry();
    void updateScrollBars();
    QRect cellRect(int trueClass, int decision) const; // viewport coordinates
    int labelStep() const;                            // draw every n-th label when cells are small
    QString shortName(int index) const;
    void addStrokeCell(const QPoint& cell);
    void zoomAround(int size, const QPoint& anchor);

    QStringList m_names;
    std::vector<lbd::Region> m_regions;
    lbd::RegionScheme m_scheme = lbd::RegionScheme::ThirdsByIndex;
    lbd::UtilityMatrix m_matrix;
    double m_scale = 1.0;
    double m_paintValue = 1.0;
    Mode m_mode = Mode::Paint;
    int m_cellSize = 36;
    int m_rowHeader = 120; // left header: axis title + names + region band
    int m_columnHeader = 120;

    Drag m_drag = Drag::None;
    QVector<QPoint> m_stroke;
    std::vector<char> m_strokeMask;
    QPoint m_lastStrokeCell;
    QPoint m_selectAnchor;
    QRect m_selection;
};

} // namespace lbd::ui
