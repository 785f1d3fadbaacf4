#pragma once
// The main window's commands that need none of its state, only its widgets: exporting every
// plot, choosing the runs folder, the Recent runs menu and reading dropped folders. Kept apart so
// mainwindow.cpp stays about wiring runs to pages.
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <functional>
#include <initializer_list>

class QMainWindow;
class QMenu;
class QAction;
class QDockWidget;
class QMimeData;
class QToolBar;
class QWidget;

namespace lbd::ui {

class MainWindow;

// What exportPlotsTo wrote and what it left out (a plot's name and why).
struct PlotExportSummary {
    QStringList written;                       // file paths
    QList<QPair<QString, QString>> skipped;    // plot name, reason
    QStringList failed;                        // the error of each file that could not be written
    // "6 files written to DIR. Skipped, so as not to write empty axes: fhrCurvePlot (no data yet ...), ...".
    QString text(const QString& directory) const;
};

// Every ThrottledPlot under `root` that has data, in every format this build writes, into
// `directory`; plots with nothing drawn in them are skipped with the reason (plotSkipReason), not
// written as empty axes. Two plots of one name get -2, -3... rather than overwrite each other.
PlotExportSummary exportPlotsTo(QWidget* root, const QString& directory);
// File > Export every plot: exportPlotsTo a folder the user picks; the status bar says what was
// written and a message box lists what was skipped and why.
void exportPlots(QMainWindow* window);
// File > Runs folder.
void chooseRunsFolder(QMainWindow* window);
// Fills File > Recent runs (AppSettings::recentRuns); `open` is called with the chosen folder.
void fillRecentRuns(QMenu* menu, bool enabled, const std::function<void(const QString&)>& open);
// View > Experiment panel: the dock's own toggle action, named, with its shortcut (Ctrl+Shift+E).
QAction* panelToggleAction(QDockWidget* dock);

// Run > Write run report: report.md, report.pdf and the plots of the run `shownRun()` returns
// into RUN/report (runreport.h); the status bar says where, or why not.
QAction* runReportAction(QMainWindow* window, std::function<QString()> shownRun);

// What quitting `window` would stop: its training run, the study its Studies page runs, both;
// empty when neither runs.
QString stopAndQuitQuestion(MainWindow& window);

// `actions` as icon-only buttons on `bar` (their tooltips name them): the bar's own buttons take
// its text-beside-icon style, which leaves no room at 1024 px.
void addIconButtons(QToolBar* bar, std::initializer_list<QAction*> actions);

// Asks `question` (what quitting would stop: the training run, a study) and whether to quit.
bool confirmStopAndQuit(QWidget* parent, const QString& question);

// The local folders among dropped URLs.
QStringList droppedFolders(const QMimeData* data);

} // namespace lbd::ui
