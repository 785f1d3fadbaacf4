#include "ui/utility/utilitycommands.h"

#include "ui/utility/utilitydocument.h"

namespace lbd::ui {

UtilityEditCommand::UtilityEditCommand(UtilityDocument* document, lbd::UtilityMatrix before, lbd::UtilityMatrix after,
                                       const QString& text)
    : QUndoCommand(text), m_document(document), m_before(std::move(before)), m_after(std::move(after))
{
}

// Both matrices were checked against the document when the command was made, and the editor
// clears its stack whenever the class list (and so the size) changes; setMatrix cannot refuse.
void UtilityEditCommand::undo() { m_document->setMatrix(m_before); }
void UtilityEditCommand::redo() { m_document->setMatrix(m_after); }

} // namespace lbd::ui
