// The run's final files (report.json, the probabilities, the weights, the out-of-distribution fit),
// written by rank 0 after the last epoch or when a killed run is completed.
#include "core/train/trainingsession.h"
#include "core/train/trainingsessionstate.h"

#include "core/eval/oodfitfile.h"
#include "core/eval/oodimages.h"
#include "core/eval/reportjson.h"
#include "core/train/configjson.h"
#include "core/train/epochmetricsjson.h"
#include "core/train/pythonexport.h"
#include "core/util/device.h"

namespace lbd {

void TrainingSession::State::writeFinalFiles(const EpochMetrics& metrics)
{
    nlohmann::json report = {{"evaluation", reportToJson(*metrics.evaluation)},
                             {"protocol", protocolName(config.protocol)},
                             // Which held-out set the report is about (ImageNet-LT: the validation list by default).
                             {"evaluated_on", config.data.testList.empty() ? std::string("test split")
                                                                           : "list " + config.data.testList},
                             {"training_utility", config.objective.utility.describe()},
                             {"training_utility_form", utilityFormName(config.objective.utilityForm)},
                             {"training_utility_active", objective->utilityActive()},
                             {"alpha", config.objective.alpha},
                             {"decision_utility", config.decision.utility.describe()},
                             {"decision_rule", decisionRuleName(config.decision.rule)},
                             {"defer", config.decision.deferUtility ? nlohmann::json(*config.decision.deferUtility)
                                                                    : nlohmann::json(nullptr)},
                             {"epochs", config.train.epochs},
                             {"train_seconds", metrics.elapsedSeconds},
                             {"device", deviceDescription(device)},
                             {"cuda_graph", step->graphStatus()},
                             {"precision", device.is_cuda() ? precisionName(config.train.precision) : "fp32"}};
    if (autocast == torch::kHalf) {
        report["fp16_skipped_steps"] = step->skippedSteps(); // this session's steps skipped by the loss scaler
    }
    if (metrics.argmaxEvaluation) {
        report["evaluation_argmax"] = reportToJson(*metrics.argmaxEvaluation);
    }
    const std::vector<std::string>& names = data.dataset.classNames;
    if (metrics.validationEvaluation) {
        report["evaluation_validation"] = reportToJson(*metrics.validationEvaluation);
        saveTestProbabilities(folder.path(RunFolder::kValidationProbabilities), finalValidation.probabilities,
                              finalValidation.labels, names);
    }
    saveTestProbabilities(folder.path(RunFolder::kTestProbabilities), finalTest.probabilities, finalTest.labels, names);
    exportPythonWeights(folder.path(RunFolder::kWeights), *model, names, modelSpec, normalization);
    // The out-of-distribution caution (core/eval/oodscore.h), fitted on the final model and on
    // images it did not train on (core/eval/oodimages.h). A failure leaves the run without it,
    // which Classify and `lbd predict` then say, instead of failing a trained run; `lbd ood RUN
    // --fit` can fit it later.
    try {
        const OodImages oodImages = chooseOodImages(data, config.data);
        const OodFit fit = fitOodOnImages(model, oodImages, data.dataset.format, device, config.augment, normalization,
                                          metrics.epoch);
        saveOodFit(fit, folder.path(kOodFitFile));
        message("out-of-distribution caution fitted on " + std::to_string(fit.images) + " " + fit.source
                + (fit.heldOut.note.empty() ? std::string() : " (" + fit.heldOut.note + ")"));
    } catch (const std::exception& error) {
        message(std::string("no out-of-distribution fit: ") + error.what());
    }
    // report.json last: its presence says the run's results are complete.
    folder.writeJson(RunFolder::kReport, report);
    finalReport = metrics.evaluation;
}

std::optional<EvaluationReport> TrainingSession::completeFinalFiles()
{
    State& s = *m_state;
    s.message("the run's last epoch is trained but its results were not all written: writing them");
    EpochMetrics metrics;
    if (!s.history.empty()) {
        metrics = epochMetricsFromJson(s.history.back());
    }
    metrics.epoch = s.config.train.epochs;
    metrics.epochs = s.config.train.epochs;
    evaluate(metrics);
    s.writeFinalFiles(metrics);
    return s.finalReport;
}

bool hasAllFinalFiles(const RunFolder& folder, bool withValidation)
{
    for (const char* file : {RunFolder::kTestProbabilities, RunFolder::kWeights, RunFolder::kReport}) {
        if (!folder.exists(file)) {
            return false;
        }
    }
    return !withValidation || folder.exists(RunFolder::kValidationProbabilities);
}

} // namespace lbd
