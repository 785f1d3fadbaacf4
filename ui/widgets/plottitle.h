#pragma once
// A bold title row above a QCustomPlot's axis rect: every page's plots are titled the same way.
#include <QString>

class QCustomPlot;

namespace lbd::ui {

void addPlotTitle(QCustomPlot* plot, const QString& title, int pointSize = 11);

} // namespace lbd::ui
