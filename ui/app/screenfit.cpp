#include "ui/app/screenfit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QLayout>
#include <QMainWindow>
#include <QScrollArea>
#include <QStyle>
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

QScrollArea* pageScroller(QWidget* pages)
{
    auto* scroller = new QScrollArea;
    scroller->setObjectName(QStringLiteral("pageScroller"));
    scroller->setWidget(pages);
    scroller->setWidgetResizable(true); // as wide as the window allows, never below the pages' minimum
    scroller->setFrameShape(QFrame::NoFrame);
    return scroller;
}

bool collapsePanelToFitScreen(QMainWindow* window, QWidget* panel, QWidget* pages)
{
    const QScreen* screen = window->screen();
    if (!screen || !panel->isVisible()) {
        return false;
    }
    // The widths the layouts will ask for, from the widgets' own hints: the window's cached
    // minimum does not drop when the panel is hidden until the next pass of the event loop.
    const int available = screen->availableGeometry().width();
    const int pagesAlone = pages->minimumSizeHint().width();
    const int separator = window->style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, window);
    const int withPanel = panel->minimumSizeHint().expandedTo(panel->minimumSize()).width() + separator + pagesAlone;
    if (withPanel <= available || pagesAlone > available) {
        return false; // room for both, or a screen too small even for the pages alone: collapsing would not help
    }
    panel->hide();
    return true;
}

} // namespace lbd::ui
