#include "ui/app/screenfitter.h"

#include "ui/app/screenfit.h"

#include <QEvent>
#include <QMainWindow>
#include <QStatusBar>
#include <QTabWidget>

namespace lbd::ui {
namespace {

const char* const kHorizontalPolicy = "lbdHorizontalPolicy"; // a page's own, kept while it is not shown

} // namespace

ScreenFitter::ScreenFitter(QMainWindow* window, QWidget* panel, QTabWidget* pages)
    : QObject(window), m_window(window), m_panel(panel), m_pages(pages)
{
    window->installEventFilter(this);
    for (int index = 0; index < pages->count(); ++index) {
        QWidget* page = pages->widget(index);
        page->setProperty(kHorizontalPolicy, int(page->sizePolicy().horizontalPolicy()));
    }
    sizePagesToCurrent();
    connect(pages, &QTabWidget::currentChanged, this, &ScreenFitter::sizePagesToCurrent);
}

void ScreenFitter::sizePagesToCurrent()
{
    // A page whose horizontal policy is Ignored adds nothing to the stack's minimum width.
    for (int index = 0; index < m_pages->count(); ++index) {
        QWidget* page = m_pages->widget(index);
        QSizePolicy policy = page->sizePolicy();
        policy.setHorizontalPolicy(index == m_pages->currentIndex()
                                       ? static_cast<QSizePolicy::Policy>(page->property(kHorizontalPolicy).toInt())
                                       : QSizePolicy::Ignored);
        page->setSizePolicy(policy);
    }
}

QMargins ScreenFitter::frameMargins() const
{
    const QRect frame = m_window->frameGeometry();
    const QRect inner = m_window->geometry();
    return {inner.left() - frame.left(), inner.top() - frame.top(), frame.right() - inner.right(), frame.bottom() - inner.bottom()};
}

void ScreenFitter::fit()
{
    m_fittedMargins = frameMargins();
    fitToScreen(m_window);
}

bool ScreenFitter::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_window) {
        return QObject::eventFilter(watched, event);
    }
    if (event->type() == QEvent::Show) {
        if (!m_shown && collapsePanelToFitScreen(m_window, m_panel, m_pages)) {
            m_window->statusBar()->showMessage(
                tr("The experiment panel is collapsed to fit the screen: View > Experiment panel (Ctrl+Shift+E)."), 10000);
        }
        m_shown = true;
        fit();
    } else if ((event->type() == QEvent::Move || event->type() == QEvent::Resize) && m_shown
               && frameMargins() != m_fittedMargins) {
        fit(); // the window manager has framed the window (or changed its frame): the frame counts
    }
    return QObject::eventFilter(watched, event);
}

} // namespace lbd::ui
