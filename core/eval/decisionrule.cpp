#include "core/eval/decisionrule.h"

#include "core/lbd/utilitymatrix.h"
#include "core/util/error.h"
#include "core/util/numbertext.h"

#include <cmath>

namespace lbd {

const std::vector<DecisionRuleInfo>& decisionRules()
{
    static const std::vector<DecisionRuleInfo> rules = {
        {DecisionRule::Expected, "expected", "expected utility (Bayes)",
         "Decide the class d with the largest expected utility EU(d) = sum_t pbar(t) U[t,d] under the ensemble's "
         "mean distribution pbar. The Bayes decision (paper Appendix A); with a one-hot U it is argmax pbar. The default.",
         true, true, false},
        {DecisionRule::Argmax, "argmax", "argmax pbar",
         "Decide the most probable class of the mean distribution pbar; the utility matrix is ignored.", false, true,
         false},
        {DecisionRule::MeanLogit, "mean-logit", "mean log-probability (published code)",
         "Decide argmax_k (1/M) sum_j log p_j(k): the published code's test-time decision, which is the paper's Eq. 7 "
         "with a one-hot U. Ignores the utility matrix.",
         false, false, false},
        {DecisionRule::Eq7, "eq7", "Eq. 7 with U (experimental)",
         "The paper's Eq. 7 with any matrix: argmax_d sum_k U[d,k] (1/M) sum_j log p_j(k). Experimental: with negative "
         "utilities it sends almost every image to the last classes (lbd-math.md section 5).",
         true, false, true},
    };
    return rules;
}

const DecisionRuleInfo& decisionRuleInfo(DecisionRule rule)
{
    for (const auto& info : decisionRules()) {
        if (info.rule == rule) {
            return info;
        }
    }
    return decisionRules().front();
}

std::string decisionRuleNameList()
{
    std::string list;
    const auto& rules = decisionRules();
    for (size_t i = 0; i < rules.size(); ++i) {
        list += (i == 0 ? "" : i + 1 == rules.size() ? " or " : ", ") + rules[i].name;
    }
    return list;
}

DecisionRule parseDecisionRule(const std::string& text)
{
    for (const auto& info : decisionRules()) {
        if (info.name == text) {
            return info.rule;
        }
    }
    if (text == "lbd") {
        return DecisionRule::Eq7; // run folders written before the registry called Eq. 7 "lbd"
    }
    throw InputError("decision rule '" + text + "' is not known (use " + decisionRuleNameList() + ")");
}

std::string decisionRuleName(DecisionRule rule)
{
    return decisionRuleInfo(rule).name;
}

void checkDeferUtility(double deferUtility, DecisionRule rule, const std::string& context)
{
    if (!std::isfinite(deferUtility) || std::abs(deferUtility) > kMaxUtilityMagnitude) {
        throw InputError(context + " must be a number between -1e6 and 1e6 (the limit of every utility), got "
                         + numberText(deferUtility));
    }
    if (!decisionRuleInfo(rule).supportsDefer) {
        throw InputError(context + ": the " + decisionRuleName(rule)
                         + " rule does not score decisions by expected utility, so it has no defer option (use expected "
                           "or argmax)");
    }
}

std::optional<std::string> priorUtilityRefusal(DecisionRule rule)
{
    if (rule != DecisionRule::Eq7) {
        return std::nullopt;
    }
    return std::string("prior:<tau> (post-hoc logit adjustment) is an expected-utility decision, argmax pbar_d / pi_d^tau; "
                       "the eq7 rule would multiply each class's mean log probability by (min pi / pi_d)^tau, which is "
                       "smallest for the head classes, so the head class wins, the opposite of the adjustment "
                       "(lbd-math.md section 9, vector H); use the expected rule");
}

void checkPriorUtilityRule(DecisionRule rule, const std::string& context)
{
    if (const auto refusal = priorUtilityRefusal(rule)) {
        throw InputError(context + ": " + *refusal);
    }
}

std::optional<std::string> decisionRuleWarning(DecisionRule rule, const UtilityMatrix& utility)
{
    if (rule != DecisionRule::Eq7 || !hasNegativeEntry(utility)) {
        return std::nullopt;
    }
    return std::string("the eq7 rule is degenerate with negative utilities: it decides almost every image as one of "
                       "the last classes (lbd-math.md section 5); use the expected rule");
}

} // namespace lbd
