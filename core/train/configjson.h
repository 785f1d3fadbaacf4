#pragma once
// TrainConfig <-> JSON: the one config parser (presets, config.json, `lbd train --config`,
// flags turned into JSON, the GUI's presets menu). Every invalid value names its key.
#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

#include "core/train/trainconfig.h"

namespace lbd {

nlohmann::json toJson(const TrainConfig& config);

// Keys not given keep their defaults, except that a "baseline" key in "objective" first applies
// what that method defines (applyBaseline); the other keys of "objective" then override it.
// Unknown keys, wrong types and invalid values throw InputError.
TrainConfig trainConfigFromJson(const nlohmann::json& json, const std::string& source = "config");

TrainConfig loadTrainConfig(const std::string& path);

// The "objective" keys a baseline defines (applyBaseline): what `--baseline` removes from a preset
// before it applies, so that the preset's other values (alpha, tau, the utility) stay.
const std::vector<std::string>& baselineObjectiveKeys();

// What `--baseline NAME` (and a study's baseline level) does to a config JSON: the method's keys
// (baselineObjectiveKeys) and, unless `keepParticles`, model.particles are removed, then
// objective.baseline is set, so that the preset's other values (alpha, tau, the utility) stay.
void setBaselineInConfigJson(nlohmann::json& config, const std::string& baseline, bool keepParticles);

// applyProtocol on a config JSON: "protocol" and the keys it fixes.
void applyProtocolToJson(nlohmann::json& config, Protocol protocol);

// Merges a user's overrides (`lbd train --set`, a study's `--set`) into a config that may name a
// protocol. When the overrides contradict the named protocol and do not name one themselves, the
// config's protocol becomes "app" and the returned note says why, so that a changed setting is
// never reported under a paper protocol it no longer follows.
std::optional<std::string> mergeOverrides(nlohmann::json& config, const nlohmann::json& patch);

// Merges `patch` into `base` (objects recursively, other values replaced).
void mergeJson(nlohmann::json& base, const nlohmann::json& patch);

} // namespace lbd
