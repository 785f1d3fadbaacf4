#pragma once
// Where runs go when nobody names a folder: ONE answer for `lbd train` and the app. In order:
// $LBD_RUNS_DIR (a session's explicit choice), the folder chosen in the app (kept in the
// project's own settings file, readable without Qt), ~/LBDStudio/runs.
#include <string>

namespace lbd {

std::string defaultRunsRoot();

// The folder the app's user chose; stored atomically in settingsFilePath(). InputError when the
// settings file cannot be written.
void setChosenRunsRoot(const std::string& directory);

// $LBD_CONFIG_DIR/settings.json, else $XDG_CONFIG_HOME/lbd-studio/settings.json, else
// ~/.config/lbd-studio/settings.json.
std::string settingsFilePath();

} // namespace lbd
