#pragma once
// Every plot's export, in one place so each QCustomPlot's context menu and File > Export plots
// offer the same formats: PNG at twice the on-screen size (sharp on slides and high-DPI screens),
// PDF (vector, through Qt PrintSupport) and SVG where Qt's Svg module was found at configure time
// (LBD_HAVE_QT_SVG; Debian's package is qt6-svg-dev). PDF and SVG are drawn with a vectorised
// painter, so the confusion matrix's cells are shapes there, not a bitmap (confusionchart.h).
#include <QString>
#include <QStringList>

class QCustomPlot;
class QMenu;
class QWidget;

namespace lbd::ui {

inline constexpr double kPlotExportScale = 2.0;

// The suffixes this build writes: "png", "pdf" and, with Qt Svg, "svg".
QStringList plotExportSuffixes();
bool plotSvgAvailable();

// Why a plot is not worth exporting, or empty when it is: a plot none of whose visible series,
// bars or maps holds a point would be written as bare axes (a page never used, no run yet).
QString plotSkipReason(QCustomPlot* plot);

// Writes the plot as the path's suffix says (.png at kPlotExportScale, .pdf, .svg). False (and
// `error` says why) for another suffix or when the file could not be written or is empty.
bool exportPlot(QCustomPlot* plot, const QString& path, QString* error = nullptr);

// Adds "Export PNG (2x)...", "Export PDF..." and, where available, "Export SVG..." to a plot's
// context menu; each asks for a file name, named after the plot's objectName.
void addPlotExportActions(QMenu* menu, QCustomPlot* plot);

} // namespace lbd::ui
