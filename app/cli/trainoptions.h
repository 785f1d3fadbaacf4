#pragma once
// `lbd train` flags -> the config JSON that core's one parser validates.
#include <nlohmann/json.hpp>

#include "app/cli/args.h"

namespace lbd::cli {

// The base config (a preset, a --config file or the default preset) with every flag applied.
nlohmann::json trainConfigJsonFromArgs(Args& args);

} // namespace lbd::cli
