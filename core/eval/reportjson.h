#pragma once
// EvaluationReport <-> JSON, the format of eval.json in a run folder and of `lbd eval --json`.
// Undefined values (AUROC without positives or negatives) are null; nothing is NaN.
#include "core/eval/evaluationreport.h"

#include <nlohmann/json_fwd.hpp>

namespace lbd {

// Full: everything (report.json, `lbd eval --json`). Summary: without the points of the risk-coverage
// curves (their AURC stays), for the per-epoch lines of metrics.jsonl, which are rewritten every
// epoch and copied into every checkpoint.
enum class ReportDetail { Full, Summary };

nlohmann::json reportToJson(const EvaluationReport& report, ReportDetail detail = ReportDetail::Full);
// Throws InputError naming the missing or malformed key; `source` names the file.
EvaluationReport reportFromJson(const nlohmann::json& json, const std::string& source = "evaluation report");

// For nlohmann's `json j = report;` / `j.get<EvaluationReport>()`.
void to_json(nlohmann::json& json, const EvaluationReport& report);
void from_json(const nlohmann::json& json, EvaluationReport& report);

} // namespace lbd
