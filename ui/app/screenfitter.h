#pragma once
// Keeps the main window on a small screen as it is shown: collapses the experiment panel at the
// first show when the panel and the widest page do not fit side by side (collapsePanelToFitScreen,
// saying so in the status bar), and fits the window's frame into the screen whenever the frame's
// size changes. A window manager adds its title bar and borders only after the window is mapped,
// after showEvent: fitting once there left openbox's frame 26 px below a 700 px screen.
// It also makes the pages as wide as the page shown needs, not the widest page (Classify's 979 px,
// a stacked widget's minimum is its widest page's): beside the panel at 1024 px the Training page
// then fits, and only a wider page scrolls sideways (pageScroller).
#include <QMargins>
#include <QObject>

class QMainWindow;
class QTabWidget;
class QWidget;

namespace lbd::ui {

class ScreenFitter final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScreenFitter)

public:
    // Watches `window` (and is its child); `panel` is the dock that may collapse, `pages` what
    // the central scroll area holds, every page already added.
    ScreenFitter(QMainWindow* window, QWidget* panel, QTabWidget* pages);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QMargins frameMargins() const;
    void fit();
    void sizePagesToCurrent();

    QMainWindow* m_window;
    QWidget* m_panel;
    QTabWidget* m_pages;
    QMargins m_fittedMargins; // the frame's margins at the last fit
    bool m_shown = false;
};

} // namespace lbd::ui
