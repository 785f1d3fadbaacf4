#include "ui/widgets/degeneracybanner.h"

namespace lbd::ui {

DegeneracyBanner::DegeneracyBanner(const QString& objectName, QWidget* parent) : QLabel(parent)
{
    setObjectName(objectName);
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setStyleSheet(QStringLiteral("color: #8a1c00; background: #fff0e6; padding: 4px; border: 2px solid #d9822b; "
                                 "border-radius: 3px;"));
    setToolTip(tr("The evaluation shown here is flagged: a region at 0 %, accuracy near chance, or decisions piled "
                  "into a few classes. Its numbers would mislead without this warning."));
    setVisible(false);
}

void DegeneracyBanner::showHtml(const QString& html)
{
    setText(html);
    setVisible(!html.isEmpty());
}

} // namespace lbd::ui
