#pragma once
// A vertical scroll area for a column of text (word-wrapped labels, a panel of buttons) above
// plots: its size hint is the content's height at the area's current width, so a layout gives
// the text all it needs when the window has room, and when it does not (1024 x 700), the text
// scrolls instead of squashing the plots below it or being clipped. Never scrolls sideways.
#include <QScrollArea>

namespace lbd::ui {

class FittedScrollArea final : public QScrollArea {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FittedScrollArea)

public:
    explicit FittedScrollArea(QWidget* content, QWidget* parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    // The content's width: the area's, less a vertical scroll bar's (whether shown or not, so
    // that the hint does not change when the bar appears).
    int contentWidth() const;
};

} // namespace lbd::ui
