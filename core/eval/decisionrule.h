#pragma once
// The decision rules of lbd-math.md section 5 as ONE registry: the command line, every GUI page
// and the tests list the rules from here (names, titles, descriptions, order), so that a rule is
// spelled and explained the same way everywhere. Torch-free, so value types and Qt pages can name
// a rule without the engine.
#include <optional>
#include <string>
#include <vector>

namespace lbd {

class UtilityMatrix;

enum class DecisionRule {
    Expected,  // Bayes decision: argmax_d EU(d) = sum_t pbar(t) U[t,d]; the default everywhere
    Argmax,    // argmax pbar; ignores U
    MeanLogit, // argmax_k (1/M) sum_j log p_j(k): the published code's test-time decision
    Eq7,       // the paper's Eq. 7 with any U: argmax_d sum_k U[d,k] L_k (experimental, degenerate
               // with negative utilities)
};

inline constexpr DecisionRule kDefaultDecisionRule = DecisionRule::Expected;

struct DecisionRuleInfo {
    DecisionRule rule;
    std::string name;        // "expected", "argmax", "mean-logit", "eq7": config files and the CLI
    std::string title;       // short label for menus and plot legends
    std::string description; // one or two sentences for tooltips and --help
    bool usesUtility;        // the decision depends on the utility matrix
    bool supportsDefer;      // scores with expected utility, so a defer utility r can compete
    bool experimental;       // offered with a visible warning (eq7)
};

// Every rule, in the order every list shows them (the default first).
const std::vector<DecisionRuleInfo>& decisionRules();
const DecisionRuleInfo& decisionRuleInfo(DecisionRule rule);

// Accepts the registry names, and "lbd" (the name of Eq. 7 in run folders written before the
// registry). Throws InputError naming the text and the accepted names.
DecisionRule parseDecisionRule(const std::string& text);
std::string decisionRuleName(DecisionRule rule);
// "expected, argmax, mean-logit or eq7": for messages and usage lines.
std::string decisionRuleNameList();

// The one check of a defer utility r, for config files, `--defer` of every command, the GUI and
// decide(): finite, magnitude at most kMaxUtilityMagnitude (1e6, as every utility), and only for a
// rule that scores by expected utility. Throws InputError naming `context` ("--defer", "decision.defer").
void checkDeferUtility(double deferUtility, DecisionRule rule, const std::string& context);

// Post-hoc logit adjustment, the utility prior:tau (core/lbd/priorutility.h), is an expected-utility
// decision, argmax_d pbar_d / pi_d^tau. Under eq7 its diagonal U = diag((min pi / pi_d)^tau) scales
// each class's mean log probability L_d <= 0 by a number that is smallest for the head classes, so
// the head wins: the opposite of the adjustment (lbd-math.md section 9, vector H: counts (100, 10,
// 1), pbar (0.2, 0.3, 0.5) decide 0). The reason, for eq7; nothing for the other rules. Every place
// a prior utility meets a rule asks here: `lbd eval`, `lbd predict`, config files, study decision
// cells, tunePriorTau and the Decision lab.
std::optional<std::string> priorUtilityRefusal(DecisionRule rule);
// InputError "<context>: <the refusal>" for eq7.
void checkPriorUtilityRule(DecisionRule rule, const std::string& context);

// The warning every place that lets a user pick a rule must show (panel, Decision lab, Classify,
// CLI stderr, report.json), or nothing: eq7 with a matrix that has a negative entry is degenerate
// (lbd-math.md section 5: almost every image goes to the last classes).
std::optional<std::string> decisionRuleWarning(DecisionRule rule, const UtilityMatrix& utility);

} // namespace lbd
