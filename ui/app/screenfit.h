#pragma once
// Keeps a top-level window on its screen: never larger than the screen's available geometry
// (task bars excluded) and never placed so that a part of it (the status bar, the title bar) lies
// outside it, whatever geometry a previous session on another monitor saved.
#include <QRect>

class QWidget;

namespace lbd::ui {

// `frame` moved and shrunk into `available` (size first, then position).
QRect fittedRect(const QRect& frame, const QRect& available);

// Applies fittedRect to `window` on the screen it is on (or the primary screen).
void fitToScreen(QWidget* window);

// The panel and the widest page side by side need more than a small screen (1024 px) has: hides
// `panel` when that makes `window`'s minimum width fit its screen (and shows it again when even
// the pages alone would not fit). True when the panel was collapsed.
bool collapsePanelToFitScreen(QWidget* window, QWidget* panel);

} // namespace lbd::ui
