#pragma once
// Human-readable summary of an EvaluationReport (stdout of `lbd train` and `lbd eval`).
#include <ostream>
#include <string>
#include <vector>

#include "core/eval/evaluationreport.h"

namespace lbd::cli {

void printReport(std::ostream& out, const EvaluationReport& report, const std::vector<std::string>& classNames,
                 const std::string& title);

} // namespace lbd::cli
