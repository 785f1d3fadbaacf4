#pragma once
// Keeps a top-level window on its screen: never larger than the screen's available geometry
// (task bars excluded) and never placed so that a part of it (the status bar, the title bar) lies
// outside it, whatever geometry a previous session on another monitor saved.
#include <QRect>

class QMainWindow;
class QScrollArea;
class QWidget;

namespace lbd::ui {

// `frame` moved and shrunk into `available` (size first, then position).
QRect fittedRect(const QRect& frame, const QRect& available);

// Applies fittedRect to `window` on the screen it is on (or the primary screen).
void fitToScreen(QWidget* window);

// The window's central widget: `pages` in a scroll area, so that the widest page's minimum width
// (Classify's, 979 px) no longer adds to the panel's when both are shown: on a small screen the
// window stays on it and the pages scroll sideways instead; with the panel hidden they fit.
QScrollArea* pageScroller(QWidget* pages);

// The panel and the widest of `pages` side by side need more than a small screen (1024 px) has:
// hides `panel` at start when that lets the pages show without scrolling sideways (and keeps it
// when even the pages alone would not fit). True when the panel was collapsed. The user can open
// it again (View > Experiment panel): then the pages scroll (pageScroller).
bool collapsePanelToFitScreen(QMainWindow* window, QWidget* panel, QWidget* pages);

} // namespace lbd::ui
