#include "ui/widgets/fittedscrollarea.h"

#include <QEvent>
#include <QLayout>
#include <QResizeEvent>
#include <algorithm>
#include <QScrollBar>
#include <QStyle>

namespace lbd::ui {

FittedScrollArea::FittedScrollArea(QWidget* content, QWidget* parent) : QScrollArea(parent)
{
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    setWidget(content);
    content->installEventFilter(this); // its text or visibility changed: a new height hint
}

int FittedScrollArea::contentWidth() const
{
    return std::max(1, width() - style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this) - 2 * frameWidth());
}

QSize FittedScrollArea::sizeHint() const
{
    const QWidget* content = widget();
    if (!content) {
        return QScrollArea::sizeHint();
    }
    const QSize hint = content->sizeHint();
    const int height = content->hasHeightForWidth() ? content->heightForWidth(contentWidth()) : hint.height();
    return {hint.width(), std::max(height, 0) + 2 * frameWidth()};
}

QSize FittedScrollArea::minimumSizeHint() const
{
    // Three lines of text: enough to see there is more, and to scroll to it.
    return {QScrollArea::minimumSizeHint().width(), 3 * fontMetrics().lineSpacing() + 2 * frameWidth()};
}

bool FittedScrollArea::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == widget() && event->type() == QEvent::LayoutRequest) {
        updateGeometry();
    }
    return QScrollArea::eventFilter(watched, event);
}

void FittedScrollArea::resizeEvent(QResizeEvent* event)
{
    QScrollArea::resizeEvent(event);
    if (event->oldSize().width() != event->size().width()) {
        updateGeometry(); // narrower: the text wraps to more lines
    }
}

} // namespace lbd::ui
