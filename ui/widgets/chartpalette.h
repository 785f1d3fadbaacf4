#pragma once
// Qt Charts follow the window palette as the QCustomPlot plots do (plotpalette.h): background
// from QPalette::Base, title, legend, axis labels, axis titles and lines from QPalette::Text, grid
// lines between the two. Qt Charts' own themes ignore the palette, so a dark window otherwise
// shows a white chart, or dark text on a dark chart. Series colours (regions) are left alone.
class QPalette;

#include <QtCharts/QChartGlobal>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace lbd::ui {

void applyChartPalette(QChart* chart, const QPalette& palette);

} // namespace lbd::ui
