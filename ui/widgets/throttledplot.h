#pragma once
// A QCustomPlot that coalesces replots: callers append data and call requestReplot(); the plot
// redraws at most every ~40 ms from a single-shot timer, with rpQueuedReplot. Adds drag-to-pan,
// wheel-zoom, double-click to fit, a context menu to export (PNG at 2x, PDF; plotexport.h), and
// colours that follow the window palette (plotpalette.h).
#include <qcustomplot.h>

#include <QHash>
#include <QTimer>

namespace lbd::ui {

class ThrottledPlot final : public QCustomPlot {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ThrottledPlot)

public:
    static constexpr int kReplotIntervalMs = 40;

    explicit ThrottledPlot(QWidget* parent = nullptr);

    void requestReplot();
    // Fits every axis to the data (keeps the y range of fixed axes such as accuracy).
    void fitToData();
    // An axis that fitToData() leaves at [lower, upper] (accuracy in %, a weight in [0, 1]).
    void setFixedRange(QCPAxis* axis, double lower, double upper);
    void setFixedValueRange(double lower, double upper) { setFixedRange(yAxis, lower, upper); }
    // fitToData() fits `axis` to the data again.
    void clearFixedRange(QCPAxis* axis) { m_fixedRanges.remove(axis); }
    // Moves the legend from inside the axis rect to a row under the plot, so it never hides data;
    // it takes as many columns (up to 3) as fit the plot's width, so no entry is cut on a small window.
    void placeLegendBelow();
    // PNG at twice the on-screen size (plotexport.h).
    bool exportPng(const QString& path);
    int replotCount() const { return m_replots; }
    // A replot has been asked for and not drawn yet.
    bool replotPending() const { return m_replotTimer.isActive(); }

signals:
    void replotted();

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void showContextMenu(const QPoint& position);
    void fitLegendColumns(int width);

    QTimer m_replotTimer;
    bool m_userMovedView = false; // stop auto-fitting once the user zooms or pans
    QHash<QCPAxis*, QCPRange> m_fixedRanges;
    int m_replots = 0;
    bool m_legendBelow = false;
};

} // namespace lbd::ui
