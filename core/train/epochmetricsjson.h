#pragma once
// EpochMetrics <-> one line of metrics.jsonl.
#include <nlohmann/json_fwd.hpp>

#include "core/train/epochmetrics.h"

namespace lbd {

nlohmann::json toJson(const EpochMetrics& metrics);
EpochMetrics epochMetricsFromJson(const nlohmann::json& json);

} // namespace lbd
