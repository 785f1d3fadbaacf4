#include "core/study/redecidedrun.h"

#include "core/eval/reportjson.h"
#include "core/infer/runresults.h"
#include "core/infer/runtuning.h"
#include "core/lbd/priorutility.h"
#include "core/study/decisioncell.h"
#include "core/train/runfolder.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace lbd {

RedecidedRun redecideRun(const std::string& source, const std::string& sourceName, const std::string& target,
                         const StudyDecision& decision)
{
    const RunResults results = loadRunResults(source, ResultSplit::Test);
    const DecisionRule rule = parseDecisionRule(decision.rule);
    RedecidedRun out;
    nlohmann::json tuning;
    UtilityMatrix utility;
    std::string how;
    if (decision.utility == kPriorTuneUtility) {
        // Tau is a choice made on data: the validation split's, never the test split reported.
        const RunResults validation = loadRunResults(source, ResultSplit::Validation);
        const TunedPriorTau tuned = tunePriorTau(validation, rule);
        utility = priorAdjusted(results.trainCounts, tuned.tau);
        out.utility = priorSpec(tuned.tau);
        nlohmann::json candidates = nlohmann::json::array();
        for (const PriorTauCandidate& c : tuned.candidates) {
            candidates.push_back({{"tau", c.tau}, {"accuracy", c.accuracy}, {"balanced_accuracy", c.balancedAccuracy},
                                  {"fhr_curve_mean", c.fhrCurveMean}});
        }
        tuning = {{"what", "prior-tau"}, {"tau", tuned.tau}, {"split", "validation"},
                  {"validation_images", validation.images}, {"candidates", candidates}};
        char text[96];
        std::snprintf(text, sizeof text, " (tau = %.2f tuned on validation)", tuned.tau);
        how = text;
    } else {
        utility = parseUtilitySpec(decision.utility, results.classNames, results.trainCounts);
        out.utility = decision.utility;
    }
    // No defer option: the row is the decision alone, as `lbd eval --utility` of a run without one.
    const EvaluationReport report = evaluateRunResults(results, utility, rule, std::nullopt);
    out.accuracy = report.overall.accuracy;
    out.note = "re-decided from " + sourceName + ", utility " + out.utility + how + ", rule " + decision.rule;

    nlohmann::json evaluation = reportToJson(report);
    // The published metrics are the published code's own decision (mean-logit) on these same
    // probabilities: the source run's figures, not this row's. Left out, so that the study table
    // shows "-" there instead of CE's numbers in the post-hoc row.
    evaluation.erase("published");
    nlohmann::json file = {{"evaluation", evaluation}, {"decided_from", sourceName},
                           {"utility", out.utility}, {"rule", decision.rule}, {"study_utility", decision.utility},
                           {"note", out.note}};
    if (!tuning.is_null()) {
        file["tuning"] = tuning;
    }
    const RunFolder folder(target);
    folder.create();
    folder.writeJson(RunFolder::kReport, file);
    folder.writeStatus("finished", 0, 0, out.note);
    return out;
}

} // namespace lbd
