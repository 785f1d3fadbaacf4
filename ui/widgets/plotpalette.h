#pragma once
// Plots follow the window palette: the background, axes, tick and axis labels, grid, legend text
// and title rows take their colours from QPalette (Base and Text), so a dark theme gives a dark
// plot whose text reads, instead of black text on a white plot in a dark window. Data colours
// (regions, series) are left alone: they carry meaning.
class QCustomPlot;
class QPalette;

namespace lbd::ui {

void applyPlotPalette(QCustomPlot* plot, const QPalette& palette);

} // namespace lbd::ui
