#include "core/util/resourcefiles.h"
#include "core/util/jsonfile.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace lbd {
namespace fs = std::filesystem;

std::vector<std::string> resourceDirectories(const ResourceKind& kind)
{
    std::vector<std::string> directories;
    if (const char* env = std::getenv(kind.envVariable.c_str()); env && *env) {
        directories.emplace_back(env);
    }
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        directories.push_back((exe.parent_path().parent_path() / "share" / "lbd-studio" / kind.folder).string());
    }
#ifdef LBD_SOURCE_DIR
    directories.push_back(std::string(LBD_SOURCE_DIR) + "/resources/" + kind.folder);
#endif
    return directories;
}

std::vector<ResourceFile> listResourceFiles(const ResourceKind& kind)
{
    std::vector<ResourceFile> files;
    for (const auto& directory : resourceDirectories(kind)) {
        std::error_code ec;
        if (!fs::is_directory(directory, ec)) {
            continue;
        }
        for (const auto& entry : fs::directory_iterator(directory, ec)) {
            if (entry.path().extension() != ".json") {
                continue;
            }
            const std::string name = entry.path().stem().string();
            if (std::any_of(files.begin(), files.end(), [&](const ResourceFile& f) { return f.name == name; })) {
                continue; // an earlier directory wins
            }
            ResourceFile file{name, entry.path().string(), ""};
            try {
                file.description = readJsonFile(file.path).value("description", "");
            } catch (const std::exception&) {
                file.description = "(unreadable " + kind.noun + " file)";
            }
            files.push_back(file);
        }
        if (!files.empty()) {
            break;
        }
    }
    std::sort(files.begin(), files.end(), [](const ResourceFile& a, const ResourceFile& b) { return a.name < b.name; });
    return files;
}

nlohmann::json loadResourceJson(const ResourceKind& kind, const std::string& name)
{
    std::string known;
    for (const auto& file : listResourceFiles(kind)) {
        if (file.name == name) {
            return readJsonFile(file.path);
        }
        known += (known.empty() ? "" : ", ") + file.name;
    }
    throw InputError(kind.noun + " '" + name + "' not found (available: " + (known.empty() ? "none installed" : known) + ")");
}

} // namespace lbd
