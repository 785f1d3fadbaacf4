#pragma once
// Options of `lbd train` and `lbd data` that each set one key of the training config. The help,
// the value type and the allowed values come from the config field table (core/train/
// configfields.h), so a setting is described in one place; `--set key=value` reaches every key.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace lbd::cli {

class ConfigFlags {
public:
    // --flag VALUE sets `key`. Returns the option (for groups and extra checks).
    CLI::Option* add(CLI::App& command, const std::string& flag, const std::string& key);
    // --flag (no value) sets `key` to `value`.
    CLI::Option* addSwitch(CLI::App& command, const std::string& flag, const std::string& key, nlohmann::json value,
                           const std::string& help);
    // --set key=value, repeatable; applied after the named flags.
    CLI::Option* addSet(CLI::App& command);

    // The settings given, as a JSON patch of the config; throws InputError naming the flag and
    // the value (or the key of --set) when a value does not fit its setting.
    nlohmann::json patch() const;
    // Keys given by any flag or --set.
    std::vector<std::string> givenKeys() const;
    bool given(const std::string& key) const;

private:
    struct Entry {
        std::string flag;
        std::string key;
        std::optional<nlohmann::json> fixed; // a switch's value
        CLI::Option* option = nullptr;
    };
    std::deque<std::string> m_values; // stable storage CLI11 writes into
    std::vector<std::pair<Entry, std::string*>> m_entries;
    std::vector<std::string> m_sets;
};

// The data-set flags shared by `lbd data` and `lbd train` (--dataset, --data-dir, --profile, ...).
void addDataFlags(CLI::App& command, ConfigFlags& flags);

} // namespace lbd::cli
