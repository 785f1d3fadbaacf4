#include "core/train/presets.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace lbd {
namespace fs = std::filesystem;

std::vector<std::string> presetDirectories()
{
    std::vector<std::string> directories;
    if (const char* env = std::getenv("LBD_PRESETS_DIR"); env && *env) {
        directories.emplace_back(env);
    }
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        directories.push_back((exe.parent_path().parent_path() / "share" / "lbd-studio" / "presets").string());
    }
#ifdef LBD_SOURCE_DIR
    directories.push_back(std::string(LBD_SOURCE_DIR) + "/resources/presets");
#endif
    return directories;
}

std::vector<PresetInfo> listPresets()
{
    std::vector<PresetInfo> presets;
    for (const auto& directory : presetDirectories()) {
        std::error_code ec;
        if (!fs::is_directory(directory, ec)) {
            continue;
        }
        for (const auto& entry : fs::directory_iterator(directory, ec)) {
            if (entry.path().extension() != ".json") {
                continue;
            }
            const std::string name = entry.path().stem().string();
            if (std::any_of(presets.begin(), presets.end(), [&](const PresetInfo& p) { return p.name == name; })) {
                continue; // an earlier directory wins
            }
            PresetInfo info{name, entry.path().string(), ""};
            try {
                info.description = nlohmann::json::parse(readTextFile(info.path)).value("description", "");
            } catch (const std::exception&) {
                info.description = "(unreadable preset file)";
            }
            presets.push_back(info);
        }
        if (!presets.empty()) {
            break; // one directory of presets, not a mix of installed and source copies
        }
    }
    std::sort(presets.begin(), presets.end(), [](const PresetInfo& a, const PresetInfo& b) { return a.name < b.name; });
    return presets;
}

nlohmann::json loadPresetJson(const std::string& name)
{
    const auto presets = listPresets();
    std::string known;
    for (const auto& preset : presets) {
        if (preset.name == name) {
            try {
                return nlohmann::json::parse(readTextFile(preset.path));
            } catch (const nlohmann::json::exception& error) {
                throw InputError(preset.path + ": not valid JSON (" + error.what() + ")");
            }
        }
        known += (known.empty() ? "" : ", ") + preset.name;
    }
    throw InputError("preset '" + name + "' not found (available: " + (known.empty() ? "none installed" : known) + ")");
}

} // namespace lbd
