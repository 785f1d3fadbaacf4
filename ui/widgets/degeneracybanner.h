#pragma once
// The warning banner a page shows above its plots when the evaluation it draws is degenerate
// (ui/runs/rundegeneracy.h writes the text): the Decision lab's warning look, word-wrapped,
// hidden while there is nothing to say.
#include <QLabel>

namespace lbd::ui {

class DegeneracyBanner final : public QLabel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DegeneracyBanner)

public:
    DegeneracyBanner(const QString& objectName, QWidget* parent);

    // Shows `html`, or hides the banner when it is empty.
    void showHtml(const QString& html);
};

} // namespace lbd::ui
