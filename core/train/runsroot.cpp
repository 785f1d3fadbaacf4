#include "core/train/runsroot.h"
#include "core/util/jsonfile.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>

namespace lbd {
namespace {

namespace fs = std::filesystem;

std::string environment(const char* name)
{
    const char* value = std::getenv(name);
    return value && *value ? std::string(value) : std::string();
}

std::string home()
{
    const std::string value = environment("HOME");
    return value.empty() ? std::string(".") : value;
}

// The settings file as JSON; an unreadable or damaged file counts as empty (the app rewrites it).
nlohmann::json readSettings()
{
    std::error_code ec;
    const std::string path = settingsFilePath();
    if (!fs::is_regular_file(path, ec)) {
        return nlohmann::json::object();
    }
    try {
        nlohmann::json json = readJsonFile(path);
        return json.is_object() ? json : nlohmann::json::object();
    } catch (const std::exception&) {
        return nlohmann::json::object();
    }
}

} // namespace

std::string settingsFilePath()
{
    if (const std::string dir = environment("LBD_CONFIG_DIR"); !dir.empty()) {
        return (fs::path(dir) / "settings.json").string();
    }
    const std::string xdg = environment("XDG_CONFIG_HOME");
    const fs::path base = xdg.empty() ? fs::path(home()) / ".config" : fs::path(xdg);
    return (base / "lbd-studio" / "settings.json").string();
}

std::string defaultRunsRoot()
{
    if (const std::string env = environment("LBD_RUNS_DIR"); !env.empty()) {
        return env;
    }
    const nlohmann::json settings = readSettings();
    if (settings.contains("runs_dir") && settings["runs_dir"].is_string() && !settings["runs_dir"].get<std::string>().empty()) {
        return settings["runs_dir"].get<std::string>();
    }
    return (fs::path(home()) / "LBDStudio" / "runs").string();
}

void setChosenRunsRoot(const std::string& directory)
{
    nlohmann::json settings = readSettings();
    settings["runs_dir"] = directory;
    const fs::path path = settingsFilePath();
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec) {
        throw InputError(path.parent_path().string() + ": cannot create the settings folder (" + ec.message() + ")");
    }
    try {
        writeFileAtomically(path.string(), settings.dump(2) + "\n");
    } catch (const RunError& error) {
        throw InputError(error.what());
    }
}

} // namespace lbd
