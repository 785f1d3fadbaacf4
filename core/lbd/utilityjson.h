#pragma once
// A utility matrix from a JSON document already parsed ({"matrix": [[...]], "classes": [...]}):
// what parseUtilityJson does after parsing its text, for a config that holds the matrix by value
// (utilitySettingFromJson), so that a large matrix is not written back to text and parsed again
// (a 48 MB config.json cost some 110 MB more that way).
#include "core/lbd/utilitymatrix.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace lbd {

UtilityMatrix utilityFromJsonDocument(const nlohmann::json& document, const std::vector<std::string>& classNames,
                                      const std::string& sourceName);

} // namespace lbd
