// `lbd eval RUN`: re-decide a run's cached probabilities under another utility matrix, rule or
// defer utility, without retraining; or tune the tail penalty / prior tau / defer utility on the
// validation split and report the test split at the tuned value. --calibrate decides the
// temperature-scaled pbar (T fitted on the validation split, kept in RUN_DIR/temperature.json);
// with --per-particle it decides the particles scaled by their own T_j (particle_temperatures.json,
// also fitted on validation) and prints the single-T figures beside them.
#include "app/cli/command.h"
#include "app/cli/reportprinter.h"

#include "core/eval/particletemperature.h"
#include "core/eval/reportjson.h"
#include "core/infer/calibratedprediction.h"
#include "core/infer/runresults.h"
#include "core/infer/runtuning.h"
#include "core/lbd/priorutility.h"
#include "core/lbd/utilitymatrix.h"
#include "core/util/error.h"
#include "core/util/numbertext.h"

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
    bool perParticle = false;
};

// --calibrate: one T on pbar, and with --per-particle one T_j per particle (both fitted on the
// validation split, never on the test set); empty without --calibrate.
struct EvalCalibration {
    std::optional<TemperatureFit> single;
    std::optional<ParticleTemperatureFit> particles;

    // What is decided: the validation split for --tune, the test split for the report.
    RunResults scaled(const RunResults& results) const
    {
        return particles ? particleTemperatureScaledResults(results, particles->temperatures())
                         : single ? temperatureScaledResults(results, single->temperature) : results;
    }
};

EvalCalibration evalCalibration(const EvalOptions& o, const RunResults& results)
{
    EvalCalibration calibration;
    if (o.perParticle && !o.calibrate) {
        throw InputError("--per-particle is an option of --calibrate");
    }
    if (!o.calibrate) {
        return calibration;
    }
    if (results.split != ResultSplit::Test) {
        throw InputError("--calibrate fits T on the validation split and reports the test split; leave out --split");
    }
    calibration.single = runTemperature(o.run); // fitted on validation (and saved) when the run has none yet
    if (o.perParticle) {
        // Fitted jointly on validation (and saved) when the run has none yet; a file read back is
        // checked against the run's M and the fit's range there, in one place.
        calibration.particles = runParticleTemperatures(o.run, results.particles);
        if (!calibration.particles->note.empty()) {
            std::cerr << "lbd eval: note: " << calibration.particles->note << '\n';
        }
    }
    return calibration;
}

// A calibrated summary in the shape of report.json's "uncalibrated" (accuracy, nll, ece, mce,
// calibration_metrics), so before, per-particle and single-T read alike.
nlohmann::json summaryJson(const EvaluationReport& report)
{
    nlohmann::json out = {{"accuracy", report.overall.accuracy}, {"nll", report.nll}, {"ece", report.calibration.ece},
                          {"mce", report.calibration.mce}};
    const nlohmann::json full = reportToJson(report);
    if (full.contains("calibration_metrics")) {
        out["calibration_metrics"] = full["calibration_metrics"];
    }
    return out;
}

nlohmann::json particleFitJson(const ParticleTemperatureFit& fit)
{
    return {{"temperatures", fit.temperatures()}, {"fit", "joint"}, {"fitted_on", fit.split}, {"images", fit.images},
            {"nll_before", fit.nllBefore}, {"nll_after", fit.nllAfter}};
}

// "NLL a / b  ECE ..  Brier ..  accuracy .. / ..": before (the model's pbar) and after.
std::string beforeAfterText(const UncalibratedSummary& before, const EvaluationReport& after)
{
    char line[300];
    std::snprintf(line, sizeof line, "NLL %.4f / %.4f  ECE %.4f / %.4f  MCE %.4f / %.4f  accuracy %.2f %% / %.2f %%",
                  before.nll, after.nll, before.ece, after.calibration.ece, before.mce, after.calibration.mce,
                  100 * before.accuracy, 100 * after.overall.accuracy);
    std::string text = line;
    if (before.metrics && after.calibrationMetrics) {
        std::snprintf(line, sizeof line, "  Brier %.4f / %.4f", before.metrics->brier, after.calibrationMetrics->brier);
        text += line;
    }
    return text;
}

// The per-particle before / after, and the single T's after beside it (same images and rule).
void printParticleCalibration(const EvaluationReport& report, const EvalCalibration& calibration,
                              const std::optional<EvaluationReport>& single, DecisionRule rule)
{
    std::string list;
    for (const double t : calibration.particles->temperatures()) {
        list += (list.empty() ? "" : ", ") + numberText(t, 4);
    }
    std::cout << "  per-particle T  T_j = " << list
              << " (fitted jointly on validation; calibrated particle j = softmax(log p_j / T_j), pbar their mean)\n"
              << "    before / after  " << beforeAfterText(*report.uncalibrated, report) << '\n';
    if (single) {
        std::cout << "  single T        T = " << numberText(calibration.single->temperature, 4)
                  << " (calibrated pbar = softmax(log pbar / T))\n"
                  << "    before / after  " << beforeAfterText(*single->uncalibrated, *single) << '\n';
    } else {
        std::cout << "  single T        not applicable: the " << decisionRuleName(rule)
                  << " rule decides from each particle (one T scales pbar)\n";
    }
}

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
    if (o.utility && isPriorUtilitySpec(*o.utility)) {
        checkPriorUtilityRule(rule, "--utility " + *o.utility);
    }
    if (o.tune && *o.tune == "prior-tau") {
        checkPriorUtilityRule(rule, "--tune prior-tau");
    }
    std::optional<double> defer = o.defer ? o.defer : results.decisions.deferUtility;
    if (defer && !decisionRuleInfo(rule).supportsDefer) {
        if (o.defer) {
            throw InputError("--defer: the " + decisionRuleName(rule) + " rule has no defer option (use expected or argmax)");
        }
        defer.reset(); // the run's own defer utility does not apply to the rule asked for
    }

    const EvalCalibration calibration = evalCalibration(o, results);
    nlohmann::json tuning;
    std::string tuned;
    if (o.tune) {
        // Tuned on what will be decided: the calibrated validation probabilities (one T or T_j).
        const RunResults validation = calibration.scaled(loadRunResults(o.run, ResultSplit::Validation));
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

    // With --per-particle the particles scaled by their T_j are decided, and the single T's
    // report (rules that decide pbar only) stands beside it.
    std::optional<EvaluationReport> single;
    if (calibration.single && (!calibration.particles || ruleTakesCalibration(rule))) {
        single = evaluateCalibrated(results, calibration.single->temperature, utility, rule, defer);
    }
    const EvaluationReport report = calibration.particles
                                        ? evaluateParticleCalibrated(results, calibration.particles->temperatures(),
                                                                     utility, rule, defer)
                                        : single ? *single : evaluateRunResults(results, utility, rule, defer);
    warnOnStderr(report, results.decisions.notes);
    if (o.json) {
        nlohmann::json out = reportToJson(report);
        out["utility"] = utilityName;
        out["split"] = resultSplitName(split);
        out["notes"] = results.decisions.notes;
        if (o.tune) {
            out["tuning"] = tuning;
        }
        if (const auto& t = calibration.single) {
            out["temperature_fit"] = {{"temperature", t->temperature}, {"fitted_on", t->split}, {"images", t->images},
                                      {"nll_before", t->nllBefore}, {"nll_after", t->nllAfter}};
        }
        if (calibration.particles) {
            out["particle_temperatures"] = {{"values", calibration.particles->temperatures()},
                                            {"definition", "calibrated particle j = softmax(log p_j / T_j), log p_j "
                                                           "exact; calibrated pbar = their mean; T_1..T_M fitted "
                                                           "jointly on the validation NLL of that mean"}};
            out["particle_temperature_fit"] = particleFitJson(*calibration.particles);
            // The single T's figures on the same images and rule (null for mean-logit / eq7).
            out["single_temperature"] = single ? summaryJson(*single) : nlohmann::json(nullptr);
            if (single) {
                out["single_temperature"]["temperature"] = calibration.single->temperature;
            }
        }
        std::cout << out.dump(2) << '\n';
    } else {
        if (!tuned.empty()) {
            std::cout << tuned << '\n';
        }
        printReport(std::cout, report, names,
                    o.run + ", " + resultSplitName(split) + " split, utility " + utilityName
                        + (calibration.particles ? ", each particle temperature-scaled (below)" : ""));
        if (calibration.particles) {
            printParticleCalibration(report, calibration, single, rule);
        }
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
    c->add_flag("--per-particle", o->perParticle,
                "with --calibrate: decide with each particle scaled by its own T_j, softmax(log p_j / T_j), fitted on the "
                "validation split the first time (particle_temperatures.json; every rule); prints before / after beside "
                "the single T's");
    c->add_flag("--json", o->json, "the report as JSON");
    return {c, [o] { return runEval(*o); }};
}

} // namespace lbd::cli
