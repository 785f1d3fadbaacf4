#pragma once
// Training presets: JSON configs shipped in resources/presets (installed to
// share/lbd-studio/presets; $LBD_PRESETS_DIR first; see core/util/resourcefiles.h).
#include "core/util/resourcefiles.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace lbd {

using PresetInfo = ResourceFile;

const ResourceKind& presetResources();
std::vector<PresetInfo> listPresets();
// The preset's JSON; InputError listing the available names when `name` is unknown.
nlohmann::json loadPresetJson(const std::string& name);

} // namespace lbd
