#include "ui/app/screenfit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QLayout>
#include <QWidget>

#include <algorithm>

namespace lbd::ui {

QRect fittedRect(const QRect& frame, const QRect& available)
{
    QRect fitted = frame;
    fitted.setWidth(std::min(frame.width(), available.width()));
    fitted.setHeight(std::min(frame.height(), available.height()));
    fitted.moveLeft(std::clamp(fitted.left(), available.left(), available.right() - fitted.width() + 1));
    fitted.moveTop(std::clamp(fitted.top(), available.top(), available.bottom() - fitted.height() + 1));
    return fitted;
}

void fitToScreen(QWidget* window)
{
    QScreen* screen = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    if (!screen) {
        return;
    }
    const QRect available = screen->availableGeometry();
    // The frame (title bar, borders) counts: a window whose contents fit but whose frame does not
    // still hides its status bar behind the task bar.
    const QRect frame = window->frameGeometry();
    const QMargins decoration(window->geometry().left() - frame.left(), window->geometry().top() - frame.top(),
                              frame.right() - window->geometry().right(), frame.bottom() - window->geometry().bottom());
    const QRect fitted = fittedRect(frame, available);
    if (fitted != frame) {
        window->resize(fitted.size().shrunkBy(decoration));
        window->move(fitted.topLeft());
    }
}

bool collapsePanelToFitScreen(QWidget* window, QWidget* panel)
{
    const QScreen* screen = window->screen();
    if (!screen || !panel->isVisible()) {
        return false;
    }
    const int available = screen->availableGeometry().width();
    if (window->minimumSizeHint().width() <= available) {
        return false;
    }
    panel->hide();
    window->layout()->activate(); // the window's minimum size drops now, not at the next event loop pass
    if (window->minimumSizeHint().width() > available) {
        panel->show(); // a screen too small even for the pages alone: collapsing would not help
        window->layout()->activate();
        return false;
    }
    return true;
}

} // namespace lbd::ui
