#pragma once
// The centred, word-wrapped message a page shows instead of its content while it has nothing to
// show (no run yet): one look for every page.
#include <QString>

class QLabel;
class QWidget;

namespace lbd::ui {

QLabel* makeEmptyStateLabel(const QString& objectName, const QString& html, QWidget* parent);

} // namespace lbd::ui
