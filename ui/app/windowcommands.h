#pragma once
// The main window's commands that need none of its state, only its widgets: exporting every
// plot, choosing the runs folder, the Recent runs menu and reading dropped folders. Kept apart so
// mainwindow.cpp stays about wiring runs to pages.
#include <QString>
#include <QStringList>

#include <functional>

class QMainWindow;
class QMenu;
class QAction;
class QDockWidget;
class QMimeData;
class QWidget;

namespace lbd::ui {

// File > Export plots as PNG: every ThrottledPlot under `window` into a folder the user picks.
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

// Asks whether to stop the training run (keeping its last checkpoint) and quit.
bool confirmStopAndQuit(QWidget* parent);

// The local folders among dropped URLs.
QStringList droppedFolders(const QMimeData* data);

} // namespace lbd::ui
