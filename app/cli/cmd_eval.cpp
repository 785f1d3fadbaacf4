// `lbd eval RUN`: re-decide a run's cached probabilities under another utility matrix, rule or
// defer utility, without retraining; or tune the tail penalty / prior tau / defer utility on the
// validation split and report the test split at the tuned value. --calibrate decides the
// temperature-scaled pbar (T fitted on the validation split, kept in RUN_DIR/temperature.json).
#include "app/cli/command.h"
#include "app/cli/reportprinter.h"

#include "core/eval/reportjson.h"
#include "core/infer/runresults.h"
#include "core/infer/runtuning.h"
#include "core/lbd/priorutility.h"
#include "core/lbd/utilitymatrix.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

namespace lbd::cli {
namespace {

void warnOnStderr(const EvaluationReport& report, const std::vector<std::string>& notes)
{
    for (const std::string& note : notes) {
        std::cerr << "lbd eval: note: " << note << '\n';
    }
    for (const std::string& warning : report.warnings) {
        std::cerr << "lbd eval: warning: " << warning << '\n';
    }
}

struct EvalOptions {
    std::string run;
    std::optional<std::string> utility;
    std::optional<std::string> rule;
    std::optional<double> defer;
    std::string split = "test";
    std::optional<std::string> tune;
    double maxLossPoints = 1.0;
    double coverage = 0.9;
    bool json = false;
    bool calibrate = false;
};

int runEval(const EvalOptions& o)
{
    const ResultSplit split = o.split == "test" ? ResultSplit::Test : ResultSplit::Validation;
    if (o.tune && split != ResultSplit::Test) {
        throw InputError("--tune reads the validation split and reports the test split; leave out --split");
    }
    if (o.defer) {
        // Before the run is read: the same check as a config's decision.defer (1e308 was accepted here).
        checkDeferUtility(*o.defer, o.rule ? parseDecisionRule(*o.rule) : DecisionRule::Expected, "--defer");
    }
    RunResults results = loadRunResults(o.run, split);
    const std::vector<std::string>& names = results.classNames;
    UtilityMatrix utility =
        o.utility ? parseUtilitySpec(*o.utility, names, results.trainCounts) : results.decisions.decisionUtility;
    std::string utilityName = o.utility ? *o.utility : results.decisions.decisionDescription;
    const DecisionRule rule = o.rule ? parseDecisionRule(*o.rule) : results.decisions.rule;
    std::optional<double> defer = o.defer ? o.defer : results.decisions.deferUtility;
    if (defer && !decisionRuleInfo(rule).supportsDefer) {
        if (o.defer) {
            throw InputError("--defer: the " + decisionRuleName(rule) + " rule has no defer option (use expected or argmax)");
        }
        defer.reset(); // the run's own defer utility does not apply to the rule asked for
    }

    std::optional<TemperatureFit> temperature;
    if (o.calibrate) {
        if (split != ResultSplit::Test) {
            throw InputError("--calibrate fits T on the validation split and reports the test split; leave out --split");
        }
        temperature = runTemperature(o.run); // fitted on validation (and saved) when the run has none yet
    }

    nlohmann::json tuning;
    std::string tuned;
    if (o.tune) {
        RunResults validation = loadRunResults(o.run, ResultSplit::Validation);
        if (temperature) { // tune on what will be decided: the calibrated validation pbar
            validation = temperatureScaledResults(validation, temperature->temperature);
        }
        char text[200];
        if (*o.tune == "tail-penalty") {
            const TunedTailPenalty t = tuneTailPenalty(validation, rule, o.maxLossPoints / 100.0);
            utility = UtilityMatrix::tailSensitive(static_cast<int64_t>(names.size()), t.penalty);
            utilityName = tailSpec(t.penalty);
            std::snprintf(text, sizeof text, "tuned on the validation split (%lld images): c = %g, the lowest FHR curve mean "
                          "within %.2f points of one-hot's validation accuracy", static_cast<long long>(validation.images),
                          t.penalty, o.maxLossPoints);
            nlohmann::json candidates = nlohmann::json::array();
            for (const auto& c : t.candidates) {
                candidates.push_back({{"penalty", c.penalty}, {"accuracy", c.accuracy}, {"fhr_curve_mean", c.fhrCurveMean}});
            }
            tuning = {{"what", "tail-penalty"}, {"penalty", t.penalty}, {"max_accuracy_loss", t.maxAccuracyLoss},
                      {"validation_baseline_accuracy", t.baselineAccuracy}, {"candidates", candidates}};
        } else if (*o.tune == "prior-tau") {
            const TunedPriorTau t = tunePriorTau(validation, rule);
            utility = priorAdjusted(results.trainCounts, t.tau);
            utilityName = priorSpec(t.tau);
            double balanced = 0.0;
            for (const auto& c : t.candidates) {
                balanced = c.tau == t.tau ? c.balancedAccuracy : balanced;
            }
            std::snprintf(text, sizeof text, "tuned on the validation split (%lld images): tau = %g, the highest balanced "
                          "(mean per-class) accuracy, %.2f %%", static_cast<long long>(validation.images), t.tau,
                          100 * balanced);
            nlohmann::json candidates = nlohmann::json::array();
            for (const auto& c : t.candidates) {
                candidates.push_back({{"tau", c.tau}, {"accuracy", c.accuracy}, {"balanced_accuracy", c.balancedAccuracy},
                                      {"fhr_curve_mean", c.fhrCurveMean}});
            }
            tuning = {{"what", "prior-tau"}, {"tau", t.tau}, {"candidates", candidates}};
        } else {
            const TunedDeferUtility t = tuneDeferUtility(validation, utility, rule, o.coverage);
            defer = t.deferUtility;
            std::snprintf(text, sizeof text, "tuned on the validation split (%lld images): r = %.6g reaches coverage %.2f %% "
                          "(target %.2f %%) with selective accuracy %.2f %%", static_cast<long long>(validation.images),
                          t.deferUtility, 100 * t.coverage, 100 * o.coverage, 100 * t.selectiveAccuracy);
            tuning = {{"what", "defer"}, {"defer_utility", t.deferUtility}, {"target_coverage", o.coverage},
                      {"validation_coverage", t.coverage}, {"validation_selective_accuracy", t.selectiveAccuracy}};
        }
        tuned = text;
        tuning["validation_images"] = validation.images;
    }

    const EvaluationReport report = temperature ? evaluateCalibrated(results, temperature->temperature, utility, rule, defer)
                                                : evaluateRunResults(results, utility, rule, defer);
    warnOnStderr(report, results.decisions.notes);
    if (o.json) {
        nlohmann::json out = reportToJson(report);
        out["utility"] = utilityName;
        out["split"] = resultSplitName(split);
        out["notes"] = results.decisions.notes;
        if (o.tune) {
            out["tuning"] = tuning;
        }
        if (temperature) {
            out["temperature_fit"] = {{"temperature", temperature->temperature}, {"fitted_on", temperature->split},
                                      {"images", temperature->images}, {"nll_before", temperature->nllBefore},
                                      {"nll_after", temperature->nllAfter}};
        }
        std::cout << out.dump(2) << '\n';
    } else {
        if (!tuned.empty()) {
            std::cout << tuned << '\n';
        }
        printReport(std::cout, report, names, o.run + ", " + resultSplitName(split) + " split, utility " + utilityName);
    }
    return 0;
}

} // namespace

Command addEvalCommand(CLI::App& lbd)
{
    auto o = std::make_shared<EvalOptions>();
    CLI::App* c = lbd.add_subcommand("eval", "re-decide a run's cached probabilities under another utility, rule or defer "
                                             "utility, without retraining; or tune on the validation split");
    c->add_option("run", o->run, "the run folder")->required()->type_name("RUN_DIR");
    c->add_option("--utility", o->utility, "decision utility matrix: onehot, tail:<c>, prior:<tau> (logit adjustment: "
                                           "diag(1 / pi_y^tau), pi = training frequencies) or a .csv / .json file "
                                           "(default: the run's)")
        ->type_name("onehot|tail:<c>|prior:<tau>|FILE");
    std::vector<std::string> rules;
    for (const auto& info : decisionRules()) {
        rules.push_back(info.name);
    }
    rules.push_back("lbd"); // the name of eq7 in run folders from before the registry
    choices(c->add_option("--rule", o->rule, "decision rule (default: the run's)"), rules);
    c->add_option("--defer", o->defer, "defer (reject) when the best expected utility is below r (expected / argmax)")
        ->type_name("r");
    choices(c->add_option("--split", o->split, "which cached probabilities: test, or validation (runs trained with a "
                                               "validation split)"),
            {"test", "validation"});
    choices(c->add_option("--tune", o->tune, "choose the tail penalty c, the logit-adjustment tau (prior:tau, highest "
                                             "balanced accuracy) or the defer utility r on the validation split, then "
                                             "report the test split"),
            {"tail-penalty", "prior-tau", "defer"});
    c->add_option("--max-accuracy-loss", o->maxLossPoints, "--tune tail-penalty: validation accuracy budget in points (1)")
        ->check(CLI::Range(0.0, 100.0));
    c->add_option("--coverage", o->coverage, "--tune defer: the validation coverage to reach (0.9)")
        ->check(CLI::Range(1e-6, 1.0));
    c->add_flag("--calibrate", o->calibrate, "decide with temperature-scaled probabilities, softmax(log pbar / T), T "
                                             "fitted on the validation split (saved as temperature.json; never on the "
                                             "test set); prints before / after");
    c->add_flag("--json", o->json, "the report as JSON");
    return {c, [o] { return runEval(*o); }};
}

} // namespace lbd::cli
