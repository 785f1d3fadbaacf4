#pragma once
// Data-set flags shared by `lbd data` and `lbd train`, turned into the config's "data" object
// so that core's one parser (dataSpecFromJson) validates them.
#include <nlohmann/json.hpp>

#include "app/cli/args.h"

namespace lbd::cli {

// Adds the data flags present in `args` to `data` (a "data" config object), overriding its keys.
void applyDataFlags(Args& args, nlohmann::json& data);

} // namespace lbd::cli
