#pragma once
// Where the `lbd` command line is, for the GUI's work that runs it as a child process
// (data-parallel training: `lbd train --gpus N`).
#include <QString>

namespace lbd::ui {

// $LBD_EXECUTABLE when set; else `lbd` next to this program (installed side by side in bin/ and
// built into one folder); else `lbd` on the PATH. Empty when none is found.
QString lbdExecutable();

} // namespace lbd::ui
