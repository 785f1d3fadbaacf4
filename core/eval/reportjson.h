#pragma once
// EvaluationReport <-> JSON, the format of eval.json in a run folder and of `lbd eval --json`.
// Undefined values (AUROC without positives or negatives) are null; nothing is NaN.
#include "core/eval/evaluationreport.h"

#include <nlohmann/json_fwd.hpp>

namespace lbd {

nlohmann::json reportToJson(const EvaluationReport& report);
// Throws InputError naming the missing or malformed key; `source` names the file.
EvaluationReport reportFromJson(const nlohmann::json& json, const std::string& source = "evaluation report");

// For nlohmann's `json j = report;` / `j.get<EvaluationReport>()`.
void to_json(nlohmann::json& json, const EvaluationReport& report);
void from_json(const nlohmann::json& json, EvaluationReport& report);

} // namespace lbd
