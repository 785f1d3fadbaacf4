#include "ui/widgets/emptystate.h"

#include <QLabel>

namespace lbd::ui {

QLabel* makeEmptyStateLabel(const QString& objectName, const QString& html, QWidget* parent)
{
    auto* label = new QLabel(html, parent);
    label->setObjectName(objectName);
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    return label;
}

} // namespace lbd::ui
