#include "ui/runs/configdiff.h"

#include "core/train/runfolder.h"

#include <nlohmann/json.hpp>

#include <exception>
#include <set>

namespace lbd::ui {

FlatConfig readFlatConfig(const QString& runDirectory)
{
    FlatConfig out;
    try {
        const lbd::RunFolder folder(runDirectory.toStdString());
        // flatten() names each leaf by its JSON pointer, "/optimizer/learning_rate"; dots read better.
        const nlohmann::json flat = folder.readJson(lbd::RunFolder::kConfig).flatten(); // items() only refers to it
        for (const auto& [pointer, value] : flat.items()) {
            std::string key = pointer.substr(pointer.empty() ? 0 : 1);
            for (char& c : key) {
                c = c == '/' ? '.' : c;
            }
            out[key] = value.is_string() ? value.get<std::string>() : value.dump();
        }
    } catch (const std::exception&) {
        out.clear();
    }
    return out;
}

std::vector<std::string> differingKeys(const std::vector<FlatConfig>& configs)
{
    if (configs.size() < 2) {
        return {};
    }
    std::set<std::string> keys;
    for (const FlatConfig& config : configs) {
        for (const auto& entry : config) {
            keys.insert(entry.first);
        }
    }
    std::vector<std::string> out;
    for (const std::string& key : keys) {
        const auto first = configs.front().find(key);
        for (const FlatConfig& config : configs) {
            const auto it = config.find(key);
            const bool same = (it == config.end()) == (first == configs.front().end())
                              && (it == config.end() || it->second == first->second);
            if (!same) {
                out.push_back(key);
                break;
            }
        }
    }
    return out;
}

} // namespace lbd::ui
