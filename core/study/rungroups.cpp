#include "core/study/rungroups.h"

#include "core/util/jsonfile.h"

#include <filesystem>
#include <map>
#include <optional>

namespace lbd {
namespace {

std::optional<nlohmann::json> readConfig(const std::string& runDirectory)
{
    const std::filesystem::path path = std::filesystem::path(runDirectory) / "config.json";
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) {
        return std::nullopt;
    }
    try {
        nlohmann::json config = readJsonFile(path.string());
        return config.is_object() ? std::optional<nlohmann::json>(std::move(config)) : std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt; // the Runs page lists the damage itself; here it only stays alone
    }
}

int64_t trainSeed(const nlohmann::json& config)
{
    const auto train = config.find("train");
    if (train == config.end() || !train->is_object()) {
        return 0;
    }
    const auto seed = train->find("seed");
    return seed != train->end() && seed->is_number_integer() ? seed->get<int64_t>() : 0;
}

} // namespace

nlohmann::json seedFreeConfig(nlohmann::json config)
{
    if (!config.is_object()) {
        return config;
    }
    config.erase("name");
    if (auto train = config.find("train"); train != config.end() && train->is_object()) {
        train->erase("seed");
    }
    if (auto data = config.find("data"); data != config.end() && data->is_object()) {
        data->erase("seed");
        if (auto synthetic = data->find("synthetic"); synthetic != data->end() && synthetic->is_object()) {
            synthetic->erase("seed");
        }
    }
    return config;
}

std::vector<RunGroup> groupRunsBySeed(const std::vector<RunSummary>& runs)
{
    std::vector<RunGroup> groups;
    std::map<std::string, size_t> byKey;
    for (size_t i = 0; i < runs.size(); ++i) {
        const std::optional<nlohmann::json> config = readConfig(runs[i].directory);
        // An unreadable config cannot be compared: the run's own directory is its key.
        const std::string key = config ? seedFreeConfig(*config).dump() : "\x01" + runs[i].directory;
        auto [it, inserted] = byKey.emplace(key, groups.size());
        if (inserted) {
            RunGroup group;
            group.name = !runs[i].name.empty() ? runs[i].name : runs[i].folderName;
            groups.push_back(std::move(group));
        }
        RunGroup& group = groups[it->second];
        group.members.push_back(i);
        group.seeds.push_back(config ? trainSeed(*config) : 0);
    }
    return groups;
}

} // namespace lbd
