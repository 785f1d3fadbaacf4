// `lbd eval RUN`: re-decide a run's cached probabilities under another utility matrix, rule or
// defer utility, without retraining; or tune the tail penalty / defer utility on the validation
// split and report the test split at the tuned value.
#include "app/cli/commands.h"
#include "app/cli/reportprinter.h"

#include "core/eval/reportjson.h"
#include "core/infer/runresults.h"
#include "core/infer/runtuning.h"
#include "core/lbd/utilitymatrix.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace lbd::cli {
namespace {

ResultSplit parseSplit(const std::string& text)
{
    if (text == "test") {
        return ResultSplit::Test;
    }
    if (text == "validation" || text == "val") {
        return ResultSplit::Validation;
    }
    throw InputError("--split '" + text + "' is not known (use test or validation)");
}

void warnOnStderr(const EvaluationReport& report, const std::vector<std::string>& notes)
{
    for (const std::string& note : notes) {
        std::cerr << "lbd eval: note: " << note << '\n';
    }
    for (const std::string& warning : report.warnings) {
        std::cerr << "lbd eval: warning: " << warning << '\n';
    }
}

} // namespace

int runEval(Args& args)
{
    const auto utilityText = args.value("utility");
    const auto ruleText = args.value("rule");
    const auto deferText = args.value("defer");
    const std::string splitText = args.value("split", "test");
    const auto tune = args.value("tune");
    const double maxLossPoints = args.number("max-accuracy-loss", 1.0);
    const double coverage = args.number("coverage", 0.9);
    const bool json = args.flag("json");
    args.rejectUnknown();
    if (args.positional().size() != 1) {
        throw InputError("usage: lbd eval RUN_DIR [--utility onehot|tail:c|FILE] [--rule " + decisionRuleNameList()
                         + "] [--defer r] [--split test|validation] [--tune tail-penalty|defer] [--json]");
    }
    const std::string directory = args.positional().front();
    const ResultSplit split = parseSplit(splitText);
    if (tune && split != ResultSplit::Test) {
        throw InputError("--tune reads the validation split and reports the test split; leave out --split");
    }
    RunResults results = loadRunResults(directory, split);
    const std::vector<std::string>& names = results.classNames;
    UtilityMatrix utility = utilityText ? parseUtilitySpec(*utilityText, names) : results.decisions.decisionUtility;
    std::string utilityName = utilityText ? *utilityText : results.decisions.decisionDescription;
    const DecisionRule rule = ruleText ? parseDecisionRule(*ruleText) : results.decisions.rule;
    std::optional<double> defer = results.decisions.deferUtility;
    if (deferText) {
        defer = args.number("defer", 0.0);
    }
    if (defer && !decisionRuleInfo(rule).supportsDefer) {
        if (deferText) {
            throw InputError("--defer: the " + decisionRuleName(rule) + " rule has no defer option (use expected or argmax)");
        }
        defer.reset(); // the run's own defer utility does not apply to the rule asked for
    }

    nlohmann::json tuning;
    std::string tuned;
    if (tune) {
        const RunResults validation = loadRunResults(directory, ResultSplit::Validation);
        char text[200];
        if (*tune == "tail-penalty") {
            const TunedTailPenalty t = tuneTailPenalty(validation, rule, maxLossPoints / 100.0);
            utility = UtilityMatrix::tailSensitive(static_cast<int64_t>(names.size()), t.penalty);
            utilityName = tailSpec(t.penalty);
            std::snprintf(text, sizeof text, "tuned on the validation split (%lld images): c = %g, the lowest FHR curve mean "
                          "within %.2f points of one-hot's validation accuracy", static_cast<long long>(validation.images),
                          t.penalty, maxLossPoints);
            nlohmann::json candidates = nlohmann::json::array();
            for (const auto& c : t.candidates) {
                candidates.push_back({{"penalty", c.penalty}, {"accuracy", c.accuracy}, {"fhr_curve_mean", c.fhrCurveMean}});
            }
            tuning = {{"what", "tail-penalty"}, {"penalty", t.penalty}, {"max_accuracy_loss", t.maxAccuracyLoss},
                      {"validation_baseline_accuracy", t.baselineAccuracy}, {"candidates", candidates}};
        } else if (*tune == "defer") {
            const TunedDeferUtility t = tuneDeferUtility(validation, utility, rule, coverage);
            defer = t.deferUtility;
            std::snprintf(text, sizeof text, "tuned on the validation split (%lld images): r = %.6g reaches coverage %.2f %% "
                          "(target %.2f %%) with selective accuracy %.2f %%", static_cast<long long>(validation.images),
                          t.deferUtility, 100 * t.coverage, 100 * coverage, 100 * t.selectiveAccuracy);
            tuning = {{"what", "defer"}, {"defer_utility", t.deferUtility}, {"target_coverage", coverage},
                      {"validation_coverage", t.coverage}, {"validation_selective_accuracy", t.selectiveAccuracy}};
        } else {
            throw InputError("--tune '" + *tune + "' is not known (use tail-penalty or defer)");
        }
        tuned = text;
        tuning["validation_images"] = validation.images;
    }

    const EvaluationReport report = evaluateRunResults(results, utility, rule, defer);
    warnOnStderr(report, results.decisions.notes);
    if (json) {
        nlohmann::json out = reportToJson(report);
        out["utility"] = utilityName;
        out["split"] = resultSplitName(split);
        out["notes"] = results.decisions.notes;
        if (tune) {
            out["tuning"] = tuning;
        }
        std::cout << out.dump(2) << '\n';
    } else {
        if (!tuned.empty()) {
            std::cout << tuned << '\n';
        }
        printReport(std::cout, report, names,
                    directory + ", " + resultSplitName(split) + " split, utility " + utilityName);
    }
    return 0;
}

} // namespace lbd::cli
