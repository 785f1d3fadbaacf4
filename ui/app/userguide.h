#pragma once
// The user guide (docs/user-guide.md) inside the app: F1 and Help > User guide. Shown in a
// window of its own (Markdown with its screenshots) rather than handed to the desktop, which may
// have no Markdown viewer; the installed copy (share/doc/lbd-studio) first, then the source tree.
#include <QString>

class QWidget;

namespace lbd::ui {

class UserGuide {
public:
    // The guide's path, or empty when neither copy exists.
    static QString path();
    // Opens (or raises) the guide window; false when there is no guide to show.
    static bool show(QWidget* parent);
};

} // namespace lbd::ui
