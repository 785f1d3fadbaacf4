// `lbd predict RUN IMAGE...`: classify image files with a trained ensemble, with uncertainty.
#include "app/cli/command.h"

#include "core/infer/calibratedprediction.h"
#include "core/infer/predictor.h"
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

// The out-of-distribution check, or why there is none (never a check that was not made).
nlohmann::json oodJson(const Prediction& p)
{
    if (!p.ood) {
        return {{"checked", false}, {"caution", nullptr}, {"note", p.oodNote}};
    }
    return {{"checked", true},
            {"caution", p.ood->caution},
            {"score", p.ood->score},
            {"threshold", p.ood->threshold},
            {"method", p.ood->method},
            {"fitted_on", p.ood->fittedOn},
            {"pass_rate", p.ood->passRate}};
}

struct PredictOptions {
    std::string run;
    std::vector<std::string> images;
    bool json = false;
    bool calibrate = false;
    bool perParticle = false;
    std::string device = "cpu";
    std::optional<std::string> utilityText;
    std::optional<std::string> ruleText;
    std::optional<double> defer;
    int topK = 5;
};

// How the probabilities were calibrated: one T on pbar, or one T per particle.
struct Calibration {
    std::optional<double> temperature;
    std::vector<double> particleTemperatures;

    bool any() const { return temperature || !particleTemperatures.empty(); }
    nlohmann::json json() const
    {
        return temperature ? nlohmann::json(*temperature)
                           : particleTemperatures.empty() ? nlohmann::json(nullptr) : nlohmann::json(particleTemperatures);
    }
};

nlohmann::json predictionJson(const Prediction& p, const std::string& path, const std::vector<std::string>& names,
                              const Calibration& calibration)
{
    nlohmann::json top = nlohmann::json::array();
    for (const auto& [cls, probability] : p.topK) {
        top.push_back({{"class", cls}, {"name", names[cls]}, {"probability", probability}});
    }
    return {{"file", path},
            {"argmax", names[p.argmaxClass]},
            {"decision", p.deferred ? std::string("deferred") : names[p.decidedClass]},
            {"decision_without_defer", names[p.decidedClass]},
            {"decision_confidence", p.decisionConfidence},
            {"defer_utility", p.deferUtility ? nlohmann::json(*p.deferUtility) : nlohmann::json(nullptr)},
            {"deferred", p.deferred},
            {"rule", decisionRuleName(p.rule)},
            {"top", top},
            // With --calibrate: pbar = softmax(log pbar / T), T from the run's temperature.json;
            // with --per-particle too, the mean of softmax(log p_j / T_j) ("temperature" a list).
            {"probabilities", p.meanProbabilities},
            {"temperature", calibration.json()},
            {"particle_probabilities", p.particleProbabilities},
            {"total_uncertainty", p.uncertainty.total},
            {"aleatoric", p.uncertainty.aleatoric},
            {"epistemic", p.uncertainty.epistemic},
            {"vote_disagreement", p.uncertainty.voteDisagreement},
            {"input", p.inputDescription},
            {"ood", oodJson(p)}};
}

void printPrediction(const Prediction& p, const std::string& path, const std::vector<std::string>& names,
                     const Calibration& calibration)
{
    if (p.deferred) {
        std::printf("%s\n  decision (%s): deferred (confidence %.4f < r = %g; would be %s)   argmax: %s\n", path.c_str(),
                    decisionRuleName(p.rule).c_str(), p.decisionConfidence, *p.deferUtility, names[p.decidedClass].c_str(),
                    names[p.argmaxClass].c_str());
    } else {
        std::printf("%s\n  decision (%s): %s   argmax: %s\n", path.c_str(), decisionRuleName(p.rule).c_str(),
                    names[p.decidedClass].c_str(), names[p.argmaxClass].c_str());
    }
    if (calibration.temperature) {
        std::printf("  calibrated probabilities: softmax(log pbar / T), T = %.4g (fitted on validation)\n",
                    *calibration.temperature);
    } else if (calibration.any()) {
        std::string list;
        for (const double t : calibration.particleTemperatures) {
            list += (list.empty() ? "" : ", ") + numberText(t, 4);
        }
        std::printf("  calibrated per particle: mean of softmax(log p_j / T_j), T = %s (fitted on validation)\n", list.c_str());
    }
    for (const auto& [cls, probability] : p.topK) {
        std::printf("    %-24s %6.2f%%\n", names[cls].c_str(), 100.0 * probability);
    }
    std::printf("  uncertainty: total %.3f nats = aleatoric %.3f + epistemic %.3f; vote disagreement %.2f\n",
                p.uncertainty.total, p.uncertainty.aleatoric, p.uncertainty.epistemic, p.uncertainty.voteDisagreement);
    std::printf("  input: %s\n", p.inputDescription.c_str());
    if (p.ood && p.ood->caution) {
        std::printf("  CAUTION: this image is unlike the run's training images (%s score %.4g > threshold %.4g, which "
                    "%.0f %% of the %s pass): the decision above may be meaningless\n",
                    p.ood->method.c_str(), p.ood->score, p.ood->threshold, 100 * p.ood->passRate, p.ood->fittedOn.c_str());
    } else if (p.ood) {
        std::printf("  familiar: like the run's training images (%s score %.4g <= threshold %.4g, set on the %s)\n",
                    p.ood->method.c_str(), p.ood->score, p.ood->threshold, p.ood->fittedOn.c_str());
    } else {
        std::printf("  not checked for being unlike the training data: %s\n", p.oodNote.c_str());
    }
}

// The run's decision settings with the command line's changes.
void applyDecisionOptions(const PredictOptions& o, Predictor& predictor)
{
    if (o.utilityText && isPriorUtilitySpec(*o.utilityText)) {
        // Refused with eq7 for its own reason before the count-free parser refuses prior:<tau> here.
        checkPriorUtilityRule(o.ruleText ? parseDecisionRule(*o.ruleText) : predictor.rule(), "--utility " + *o.utilityText);
    }
    if (o.utilityText) {
        predictor.setUtility(parseUtilitySpec(*o.utilityText, predictor.classNames()));
    }
    if (o.ruleText) {
        const DecisionRule rule = parseDecisionRule(*o.ruleText);
        if (!decisionRuleInfo(rule).supportsDefer) {
            predictor.setDeferUtility(std::nullopt); // the run's defer utility cannot apply to this rule
        }
        predictor.setRule(rule);
    }
    if (o.defer) {
        predictor.setDeferUtility(*o.defer);
    }
}

int runPredict(const PredictOptions& o)
{
    Predictor predictor(o.run, o.device);
    for (const std::string& note : predictor.runDecisions().notes) {
        std::cerr << "lbd predict: note: " << note << '\n';
    }
    if (!predictor.hasOodFit()) {
        std::cerr << "lbd predict: note: " << predictor.oodSummary() << '\n';
    }
    applyDecisionOptions(o, predictor);
    if (const auto warning = decisionRuleWarning(predictor.rule(), predictor.utility())) {
        std::cerr << "lbd predict: warning: " << *warning << '\n';
    }
    // Checked before any image: a missing temperature.json or a per-particle rule is the
    // command's error, not each image's.
    Calibration calibration;
    if (o.perParticle && !o.calibrate) {
        throw InputError("--per-particle is an option of --calibrate");
    }
    if (o.perParticle) {
        // Checked against the run's M and the fit's range where the file is read.
        const ParticleTemperatureFit fit = runParticleTemperatures(o.run, predictor.particleCount());
        if (!fit.note.empty()) {
            std::cerr << "lbd predict: note: " << fit.note << '\n';
        }
        calibration.particleTemperatures = fit.temperatures();
    } else if (o.calibrate) {
        calibration.temperature = predictionTemperature(o.run);
        if (!ruleTakesCalibration(predictor.rule())) {
            throw InputError("--calibrate: the " + decisionRuleName(predictor.rule())
                             + " rule decides from each particle, and the temperature scales pbar; use --rule expected or "
                               "--rule argmax");
        }
    }
    const auto& names = predictor.classNames();
    nlohmann::json out = nlohmann::json::array();
    int failures = 0;
    for (const std::string& path : o.images) {
        try {
            Prediction p = predictor.predictFile(path, o.topK);
            if (calibration.temperature) {
                p = calibratedPrediction(p, *calibration.temperature, predictor.utility(), predictor.rule(),
                                         predictor.deferUtility());
            } else if (calibration.any()) {
                p = particleCalibratedPrediction(p, calibration.particleTemperatures, predictor.utility(), predictor.rule(),
                                                 predictor.deferUtility());
            }
            if (o.json) {
                out.push_back(predictionJson(p, path, names, calibration));
            } else {
                printPrediction(p, path, names, calibration);
            }
        } catch (const InputError& error) {
            ++failures;
            std::cerr << "lbd predict: " << error.what() << '\n';
            if (o.json) {
                out.push_back({{"file", path}, {"error", error.what()}});
            }
        }
    }
    if (o.json) {
        std::cout << out.dump(2) << '\n';
    }
    return failures > 0 ? 2 : 0;
}

} // namespace

Command addPredictCommand(CLI::App& lbd)
{
    auto o = std::make_shared<PredictOptions>();
    CLI::App* c = lbd.add_subcommand("predict", "classify image files with a trained run, with the ensemble's uncertainty");
    c->add_option("run", o->run, "the run folder")->required()->type_name("RUN_DIR");
    c->add_option("images", o->images, "image files (PNG, JPEG, ...; any size, grey or colour)")->required()->type_name("IMAGE");
    c->add_flag("--json", o->json, "the predictions as JSON");
    c->add_flag("--calibrate", o->calibrate,
                "decide with calibrated probabilities, softmax(log pbar / T), T from the run's temperature.json (fitted on "
                "the validation split by lbd eval RUN --calibrate); expected and argmax rules");
    c->add_flag("--per-particle", o->perParticle,
                "with --calibrate: one T per particle, softmax(log p_j / T_j), fitted on the validation split the first "
                "time (particle_temperatures.json); every rule");
    c->add_option("--top", o->topK, "classes listed per image (1..1000)")->check(CLI::Range(1, 1000));
    c->add_option("--utility", o->utilityText, "decision utility: onehot, tail:<c> or a file (default: the run's)")
        ->type_name("onehot|tail:<c>|FILE");
    std::vector<std::string> rules;
    for (const auto& info : decisionRules()) {
        rules.push_back(info.name);
    }
    choices(c->add_option("--rule", o->ruleText, "decision rule (default: the run's)"), rules);
    c->add_option("--defer", o->defer, "defer (refer to a person) when the best expected utility is below r")->type_name("r");
    c->add_option("--device", o->device, "cpu, cuda[:N] or auto");
    return {c, [o] { return runPredict(*o); }};
}

} // namespace lbd::cli
