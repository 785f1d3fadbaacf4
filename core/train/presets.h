#pragma once
// Training presets: JSON configs shipped in resources/presets (installed to
// share/lbd-studio/presets). Looked up in $LBD_PRESETS_DIR, next to the executable's share
// folder, then in the source tree this binary was built from.
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace lbd {

struct PresetInfo {
    std::string name;        // file name without .json
    std::string path;
    std::string description;
};

std::vector<std::string> presetDirectories();
std::vector<PresetInfo> listPresets();
// The preset's JSON; InputError listing the available names when `name` is unknown.
nlohmann::json loadPresetJson(const std::string& name);

} // namespace lbd
