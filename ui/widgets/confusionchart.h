#pragma once
// The confusion matrix drawn on a ThrottledPlot: true class down the left (head at the top),
// decided class along the bottom, a QCPColorMap in a colour-blind-safe sequential map (viridis),
// a colour bar that names its unit, head / med / tail bands along both axes with dashed lines
// at the region boundaries, and each cell's value written in it while the matrix is small.
// Counts or row-normalised (% of the true class's test images), linear or log colour (empty
// cells are left blank under log). A click on a cell emits cellClicked(true, decided).
#include <QObject>
#include <QPointF>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/data/regions.h"

class QCPColorMap;
class QCPColorScale;
class QMouseEvent;

namespace lbd::ui {

class ThrottledPlot;

struct ConfusionChartData {
    std::vector<std::vector<int64_t>> confusion; // [true][decided]
    QStringList classNames;                      // head to tail; an index stands in where missing
    std::vector<lbd::Region> regions;            // per class (thirds by index)
};

class ConfusionChart final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConfusionChart)

public:
    // Cells carry their value as text up to this many classes.
    static constexpr int kMaxAnnotatedClasses = 15;

    // Draws on `plot` (owned by the caller), which it sets up: no pan or zoom, fixed axes.
    explicit ConfusionChart(ThrottledPlot* plot);

    void setData(ConfusionChartData data);
    void clear();
    void setRowNormalised(bool on);
    void setLogColour(bool on);
    bool rowNormalised() const { return m_rowNormalised; }
    bool logColour() const { return m_logColour; }

    int classCount() const { return int(m_data.confusion.size()); }
    // The value a cell shows: images, or percent of its row.
    double cellValue(int trueClass, int decidedClass) const;
    // The cell under a pixel of the plot, if any; the centre of a cell in pixels (tests click it).
    std::optional<std::pair<int, int>> cellAt(const QPointF& pixel) const;
    QPointF cellCentre(int trueClass, int decidedClass) const;
    QCPColorScale* colourScale() const { return m_scale; }
    QCPColorMap* colourMap() const { return m_map; }

signals:
    void cellClicked(int trueClass, int decidedClass);

private:
    void redraw();
    void drawBands(int classes, double strip);
    void drawAnnotations(int classes);
    QString className(int c) const;
    void onPress(QMouseEvent* event);
    void onRelease(QMouseEvent* event);
    void onMove(QMouseEvent* event);

    ThrottledPlot* m_plot;
    QCPColorMap* m_map = nullptr;
    QCPColorScale* m_scale = nullptr;
    ConfusionChartData m_data;
    bool m_rowNormalised = true;
    bool m_logColour = false;
    QPointF m_pressAt{-1, -1};
};

} // namespace lbd::ui
