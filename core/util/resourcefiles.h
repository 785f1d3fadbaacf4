#pragma once
// JSON files shipped in resources/<kind> (presets, studies), installed to share/lbd-studio/<kind>.
// Looked up in $<env> when set, next to the executable's share folder, then in the source tree
// this binary was built from; the first folder that holds any file wins (never a mix of an
// installed and a source copy).
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace lbd {

struct ResourceFile {
    std::string name;        // file name without .json
    std::string path;
    std::string description; // its "description" key
};

struct ResourceKind {
    std::string folder;      // "presets"
    std::string envVariable; // "LBD_PRESETS_DIR"
    std::string noun;        // "preset", for messages
};

std::vector<std::string> resourceDirectories(const ResourceKind& kind);
std::vector<ResourceFile> listResourceFiles(const ResourceKind& kind); // sorted by name
// The file's JSON; InputError listing the available names when `name` is unknown.
nlohmann::json loadResourceJson(const ResourceKind& kind, const std::string& name);

} // namespace lbd
