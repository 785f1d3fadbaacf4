#include "core/eval/decisionrule.h"

#include "core/util/error.h"

namespace lbd {

DecisionRule parseDecisionRule(const std::string& text)
{
    if (text == "argmax") {
        return DecisionRule::Argmax;
    }
    if (text == "lbd") {
        return DecisionRule::Lbd;
    }
    if (text == "expected") {
        return DecisionRule::ExpectedUtility;
    }
    throw InputError("decision rule '" + text + "' is not known (use 'argmax', 'lbd' or 'expected')");
}

std::string decisionRuleName(DecisionRule rule)
{
    switch (rule) {
    case DecisionRule::Argmax:
        return "argmax";
    case DecisionRule::Lbd:
        return "lbd";
    case DecisionRule::ExpectedUtility:
        return "expected";
    }
    return "argmax";
}

} // namespace lbd
