#pragma once
// Undo steps of the utility editor. Every edit (a painted stroke, a block, a preset, an import)
// is stored as the whole matrix before and after: at most C^2 doubles (80 KB for 100 classes),
// which keeps undo exact and independent of how the edit was made.
#include <QUndoCommand>

#include "core/lbd/utilitymatrix.h"

namespace lbd::ui {

class UtilityDocument;

class UtilityEditCommand final : public QUndoCommand {
public:
    UtilityEditCommand(UtilityDocument* document, lbd::UtilityMatrix before, lbd::UtilityMatrix after,
                       const QString& text);

    void undo() override;
    void redo() override;

private:
    UtilityDocument* m_document;
    lbd::UtilityMatrix m_before;
    lbd::UtilityMatrix m_after;
};

} // namespace lbd::ui
