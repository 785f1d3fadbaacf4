// `lbd predict RUN IMAGE...`: classify image files with a trained ensemble, with uncertainty.
#include "app/cli/commands.h"

#include "core/infer/predictor.h"
#include "core/lbd/utilitymatrix.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace lbd::cli {

int runPredict(Args& args)
{
    const bool json = args.flag("json");
    const std::string device = args.value("device", "cpu");
    const auto utilityText = args.value("utility");
    const auto ruleText = args.value("rule");
    const auto deferText = args.value("defer");
    const int64_t topK = args.integer("top", 5);
    args.rejectUnknown();
    if (args.positional().size() < 2) {
        throw InputError("usage: lbd predict RUN_DIR IMAGE... [--json] [--top K] [--utility U] [--rule R] [--defer r] [--device D]");
    }
    Predictor predictor(args.positional().front(), device);
    for (const std::string& note : predictor.runDecisions().notes) {
        std::cerr << "lbd predict: note: " << note << '\n';
    }
    if (utilityText) {
        predictor.setUtility(parseUtilitySpec(*utilityText, predictor.classNames()));
    }
    if (ruleText) {
        const DecisionRule rule = parseDecisionRule(*ruleText);
        if (!decisionRuleInfo(rule).supportsDefer) {
            predictor.setDeferUtility(std::nullopt); // the run's defer utility cannot apply to this rule
        }
        predictor.setRule(rule);
    }
    if (deferText) {
        predictor.setDeferUtility(args.number("defer", 0.0));
    }
    if (const auto warning = decisionRuleWarning(predictor.rule(), predictor.utility())) {
        std::cerr << "lbd predict: warning: " << *warning << '\n';
    }
    const auto& names = predictor.classNames();
    nlohmann::json out = nlohmann::json::array();
    int failures = 0;
    for (size_t i = 1; i < args.positional().size(); ++i) {
        const std::string& path = args.positional()[i];
        try {
            const Prediction p = predictor.predictFile(path, static_cast<int>(topK));
            if (json) {
                nlohmann::json top = nlohmann::json::array();
                for (const auto& [cls, probability] : p.topK) {
                    top.push_back({{"class", cls}, {"name", names[cls]}, {"probability", probability}});
                }
                out.push_back({{"file", path},
                               {"argmax", names[p.argmaxClass]},
                               {"decision", p.deferred ? std::string("deferred") : names[p.decidedClass]},
                               {"decision_without_defer", names[p.decidedClass]},
                               {"decision_confidence", p.decisionConfidence},
                               {"defer_utility", p.deferUtility ? nlohmann::json(*p.deferUtility) : nlohmann::json(nullptr)},
                               {"deferred", p.deferred},
                               {"rule", decisionRuleName(p.rule)},
                               {"top", top},
                               {"probabilities", p.meanProbabilities},
                               {"particle_probabilities", p.particleProbabilities},
                               {"total_uncertainty", p.uncertainty.total},
                               {"aleatoric", p.uncertainty.aleatoric},
                               {"epistemic", p.uncertainty.epistemic},
                               {"vote_disagreement", p.uncertainty.voteDisagreement}});
            } else {
                if (p.deferred) {
                    std::printf("%s\n  decision (%s): deferred (confidence %.4f < r = %g; would be %s)   argmax: %s\n",
                                path.c_str(), decisionRuleName(p.rule).c_str(), p.decisionConfidence, *p.deferUtility,
                                names[p.decidedClass].c_str(), names[p.argmaxClass].c_str());
                } else {
                    std::printf("%s\n  decision (%s): %s   argmax: %s\n", path.c_str(), decisionRuleName(p.rule).c_str(),
                                names[p.decidedClass].c_str(), names[p.argmaxClass].c_str());
                }
                for (const auto& [cls, probability] : p.topK) {
                    std::printf("    %-24s %6.2f%%\n", names[cls].c_str(), 100.0 * probability);
                }
                std::printf("  uncertainty: total %.3f nats = aleatoric %.3f + epistemic %.3f; vote disagreement %.2f\n",
                            p.uncertainty.total, p.uncertainty.aleatoric, p.uncertainty.epistemic, p.uncertainty.voteDisagreement);
            }
        } catch (const InputError& error) {
            ++failures;
            std::cerr << "lbd predict: " << error.what() << '\n';
            if (json) {
                out.push_back({{"file", path}, {"error", error.what()}});
            }
        }
    }
    if (json) {
        std::cout << out.dump(2) << '\n';
    }
    return failures > 0 ? 2 : 0;
}

} // namespace lbd::cli
