#pragma once
// The fields of a run's report.json that a study summary reads (studysummary.h's metrics, the
// FHR curve, a decision-only row's utility), checked against what the report's writer can produce
// before any is used: a field of the wrong type or out of range is an InputError naming the file
// and the field ("RUN/report.json: field evaluation.fhr.curve[2].head_classes must be an integer
// (found a string)"), so `lbd study --summarize` exits 2 instead of failing inside the JSON
// library, and no edited value reaches a table as NaN or as 7,500 %.
#include <nlohmann/json_fwd.hpp>

#include <string>

namespace lbd {

void checkStudyReport(const nlohmann::json& report, const std::string& path);

} // namespace lbd
