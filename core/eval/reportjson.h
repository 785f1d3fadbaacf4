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
// Throws InputError naming the file (`source`) and the path of the missing or malformed field
// ("RUN/report.json: field evaluation.accuracy.total must be an integer (found a string)"), never
// the JSON library's exception. `field` is where `json` sits in its file ("evaluation"; empty: the top).
EvaluationReport reportFromJson(const nlohmann::json& json, const std::string& source = "evaluation report",
                                const std::string& field = {});
// A report.json as a whole: its "evaluation" object, read as above (the file must be an object
// holding one: "PATH: field evaluation is missing").
EvaluationReport reportFromFile(const nlohmann::json& file, const std::string& path);

// For nlohmann's `json j = report;` / `j.get<EvaluationReport>()`.
void to_json(nlohmann::json& json, const EvaluationReport& report);
void from_json(const nlohmann::json& json, EvaluationReport& report);

} // namespace lbd
