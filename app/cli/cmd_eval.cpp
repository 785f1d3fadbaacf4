// `lbd eval RUN`: re-decide a run's cached test probabilities under another utility matrix or
// rule, without retraining.
#include "app/cli/commands.h"
#include "app/cli/reportprinter.h"

#include "core/eval/evaluator.h"
#include "core/eval/reportjson.h"
#include "core/lbd/utilitymatrix.h"
#include "core/train/configjson.h"
#include "core/train/pythonexport.h"
#include "core/train/runfolder.h"
#include "core/train/runmanifest.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace lbd::cli {

int runEval(Args& args)
{
    const auto utilityText = args.value("utility");
    const auto ruleText = args.value("rule");
    const bool json = args.flag("json");
    args.rejectUnknown();
    if (args.positional().size() != 1) {
        throw InputError("usage: lbd eval RUN_DIR [--utility onehot|tail:c|FILE] [--rule argmax|lbd|expected] [--json]");
    }
    const RunFolder folder(args.positional().front());
    const TrainConfig config = loadTrainConfig(folder.path(RunFolder::kConfig));
    const RunManifest manifest = readRunManifest(folder);
    const TestProbabilities cached = loadTestProbabilities(folder.path(RunFolder::kTestProbabilities));
    const UtilityMatrix utility = parseUtilitySpec(utilityText.value_or(config.train.utility), manifest.classNames);
    const DecisionRule rule = parseDecisionRule(ruleText.value_or(config.train.decisionRule));
    const EvaluationReport report = evaluate(cached.probabilities, cached.labels, manifest.trainCounts, utility, rule);
    if (json) {
        nlohmann::json out = reportToJson(report);
        out["utility"] = utilityText.value_or(config.train.utility);
        std::cout << out.dump(2) << '\n';
    } else {
        printReport(std::cout, report, manifest.classNames,
                    folder.directory() + " with utility " + utilityText.value_or(config.train.utility));
    }
    return 0;
}

} // namespace lbd::cli
