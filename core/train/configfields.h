#pragma once
// Every setting of a TrainConfig, declared ONCE: its dotted key ("objective.alpha"), a one-line
// help text, and how to read and write it as JSON. config.json, presets, `lbd train --set
// key=value`, the flags of `lbd train` and their help all come from this table, so a setting is
// never spelled twice (qBittorrent's one declaration per option, applied to the config file).
#include "core/train/trainconfig.h"

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <string>
#include <vector>

namespace lbd {

struct ConfigField {
    std::string key;  // "objective.alpha"
    std::string help; // one line, for --help and tooltips
    std::string type; // "number", "integer", "text", "true|false", a list of names, ...
    std::function<nlohmann::json(const TrainConfig&)> read;
    // Throws InputError saying what is wrong without the key ("must be a number"); the caller
    // names the key and the file.
    std::function<void(TrainConfig&, const nlohmann::json&)> write;
    // Whether config.json writes the field (list-file settings only for list data, ...).
    std::function<bool(const TrainConfig&)> written;
};

// The table, in the order `lbd train --help` lists settings.
const std::vector<ConfigField>& configFields();
// nullptr when no field has this key.
const ConfigField* findConfigField(const std::string& key);

// The JSON value of `text` as the field's type reads it (`--set objective.alpha=0.5`, the flags
// of `lbd train`): numbers, integers, true/false, comma-separated lists, "none" for a null
// defer, text otherwise. Throws InputError naming the key and the text.
nlohmann::json parseConfigValue(const ConfigField& field, const std::string& text);

} // namespace lbd
