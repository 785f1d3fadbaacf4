#include "core/train/presets.h"

#include <nlohmann/json.hpp>

namespace lbd {

const ResourceKind& presetResources()
{
    static const ResourceKind kind{"presets", "LBD_PRESETS_DIR", "preset"};
    return kind;
}

std::vector<PresetInfo> listPresets() { return listResourceFiles(presetResources()); }
nlohmann::json loadPresetJson(const std::string& name) { return loadResourceJson(presetResources(), name); }

} // namespace lbd
