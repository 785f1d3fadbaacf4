#pragma once
// TrainConfig <-> JSON: the one config parser (presets, config.json, `lbd train --config`,
// flags turned into JSON, the GUI's presets menu). Every invalid value names its key.
#include <nlohmann/json_fwd.hpp>

#include <string>

#include "core/train/trainconfig.h"

namespace lbd {

nlohmann::json toJson(const TrainConfig& config);

// Keys not given keep their defaults, except that a "baseline" key in "objective" first loads
// that baseline's preset. Unknown keys, wrong types and invalid values throw InputError.
TrainConfig trainConfigFromJson(const nlohmann::json& json, const std::string& source = "config");

TrainConfig loadTrainConfig(const std::string& path);

// Merges `patch` into `base` (objects recursively, other values replaced).
void mergeJson(nlohmann::json& base, const nlohmann::json& patch);

} // namespace lbd
