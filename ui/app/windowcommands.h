#pragma once
// The main window's commands that need none of its state, only its widgets: exporting every
// plot, choosing the runs folder, the Recent runs menu and reading dropped folders. Kept apart so
// mainwindow.cpp stays about wiring runs to pages.
#include <QString>
#include <QStringList>

#include <functional>

class QMainWindow;
class QMenu;
class QMimeData;

namespace lbd::ui {

// File > Export plots as PNG: every ThrottledPlot under `window` into a folder the user picks.
void exportPlots(QMainWindow* window);
// File > Runs folder.
void chooseRunsFolder(QMainWindow* window);
// Fills File > Recent runs (AppSettings::recentRuns); `open` is called with the chosen folder.
void fillRecentRuns(QMenu* menu, bool enabled, const std::function<void(const QString&)>& open);
// The local folders among dropped URLs.
QStringList droppedFolders(const QMimeData* data);

} // namespace lbd::ui
