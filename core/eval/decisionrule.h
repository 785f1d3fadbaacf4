#pragma once
// The three decision rules of lbd-math.md section 5, kept free of torch so that value types
// (EvaluationReport, UI settings) can name the rule.
#include <string>

namespace lbd {

enum class DecisionRule {
    Argmax,          // d = argmax pbar; ignores U
    Lbd,             // paper Eq. 7: argmax_d (1/M) sum_j sum_k U[d,k] log p_j(k|x)
    ExpectedUtility, // classical Bayes: argmax_d sum_t pbar(t) U[t,d]
};

// "argmax", "lbd", "expected"; throws InputError naming the text and the accepted names.
DecisionRule parseDecisionRule(const std::string& text);
std::string decisionRuleName(DecisionRule rule);

} // namespace lbd
