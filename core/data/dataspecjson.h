#pragma once
// DataSpec <-> the "data" object of a run config. The one parser for data settings: the command
// line turns its flags into this JSON, the GUI edits DataSpec directly.
#include <nlohmann/json_fwd.hpp>

#include <string>

#include "core/data/dataspec.h"

namespace lbd {

nlohmann::json toJson(const DataSpec& spec);
// Unknown keys and wrong types throw InputError naming "<context>.<key>".
DataSpec dataSpecFromJson(const nlohmann::json& json, const std::string& context = "data");

} // namespace lbd
