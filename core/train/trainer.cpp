#include "core/train/trainer.h"

#include "core/compat/torchcompat.h"
#include "core/data/prefetchingbatchsource.h"
#include "core/data/augmentation.h"
#include "core/data/batchsource.h"
#include "core/data/datapreparation.h"
#include "core/data/dataspecjson.h"
#include "core/eval/evaluator.h"
#include "core/eval/reportjson.h"
#include "core/lbd/utilitymatrix.h"
#include "core/lbd/utilitysetting.h"
#include "core/model/modelfactory.h"
#include "core/train/checkpoint.h"
#include "core/train/configjson.h"
#include "core/train/divergencemonitor.h"
#include "core/train/epochmetricsjson.h"
#include "core/train/flatsgd.h"
#include "core/train/lrschedule.h"
#include "core/train/particleprobabilities.h"
#include "core/train/pythonexport.h"
#include "core/train/runfolder.h"
#include "core/train/runmanifest.h"
#include "core/train/trainstep.h"
#include "core/util/buildinfo.h"
#include "core/util/device.h"
#include "core/util/error.h"
#include "core/util/machineinfo.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <sstream>
#include <cmath>
#include <thread>

namespace lbd {

using Clock = std::chrono::steady_clock;

struct Trainer::State {
    TrainConfig config;
    RunFolder folder;
    bool resume = false;

    State(TrainConfig c, std::string directory, bool r) : config(std::move(c)), folder(std::move(directory)), resume(r) {}
};

Trainer::Trainer(TrainConfig config, std::string runDirectory, bool resume)
    : m_state(std::make_unique<State>(std::move(config), std::move(runDirectory), resume))
{
    if (resume) {
        if (!m_state->folder.exists(RunFolder::kCheckpoint)) {
            throw InputError(m_state->folder.path(RunFolder::kCheckpoint) + ": no checkpoint to resume from");
        }
        m_state->config = loadTrainConfig(m_state->folder.path(RunFolder::kConfig));
    }
    m_state->config.validate();
    if (!resume) {
        m_state->folder.create();
    }
}

Trainer::~Trainer() = default;

namespace {

std::string describeCudaError(const std::string& message)
{
    if (message.find("out of memory") != std::string::npos) {
        // PyTorch's text goes on about allocator settings; keep what was asked for and what was
        // free ("Tried to allocate 10.25 GiB. GPU 0 has a total capacity of ... is free.").
        std::string detail = message.substr(0, message.find('\n'));
        const auto tried = detail.find("Tried to allocate");
        const auto freeEnd = detail.find(" is free.", tried == std::string::npos ? 0 : tried);
        if (tried != std::string::npos && freeEnd != std::string::npos) {
            detail = detail.substr(tried, freeEnd + 8 - tried);
        }
        return "the GPU ran out of memory (" + detail
            + "); lower train.batch_size or the particle count, or train on the CPU";
    }
    return message.substr(0, message.find('\n'));
}

} // namespace

TrainingResult Trainer::run(const TrainingCallbacks& callbacks, TrainingControl* control)
{
    TrainConfig& config = m_state->config;
    const RunFolder& folder = m_state->folder;
    const auto message = [&](const std::string& text) {
        if (callbacks.onMessage) {
            callbacks.onMessage(text);
        }
    };
    const auto stopRequested = [&] { return control && control->stopRequested.load(); };

    // Resuming a run that already trained every epoch has nothing to do: say so and leave the
    // folder exactly as it is (no rewritten manifest, metrics or report).
    if (m_state->resume && folder.exists(RunFolder::kStatus)) {
        const auto status = folder.readJson(RunFolder::kStatus);
        if (status.value("state", "") == "finished" && status.value("epochs_done", 0) >= config.train.epochs) {
            message("nothing to do: the run already finished all " + std::to_string(config.train.epochs) + " epochs");
            TrainingResult done;
            done.runDirectory = folder.directory();
            done.epochsCompleted = status.value("epochs_done", 0);
            done.alreadyFinished = true;
            return done;
        }
    }

    if (config.train.threads > 0) {
        torch::set_num_threads(config.train.threads);
    } else {
        useAllCpuCores();
    }
    const torch::Device device = parseDevice(config.train.device);
    configureDevice(device);
    torch::manual_seed(config.train.seed);

    // Data: the saved split when resuming, a fresh seeded one otherwise.
    message("loading " + datasetKindName(config.data.kind) + " data");
    PreparedData data = m_state->resume
        ? prepareData(config.data, loadLongTailSplit(folder.path(RunFolder::kSplit)))
        : prepareData(config.data);
    const Dataset& dataset = data.dataset;
    const int64_t classCount = dataset.classCount();

    ModelSpec modelSpec = config.model;
    modelSpec.inputChannels = dataset.format.channels;
    modelSpec.numClasses = classCount;
    modelSpec.inputSize = config.augment.outputSize;
    if (dataset.format.height > config.augment.outputSize || dataset.format.width > config.augment.outputSize) {
        throw InputError("augment.output_size (" + std::to_string(config.augment.outputSize) + ") is smaller than the images ("
                         + std::to_string(dataset.format.height) + "x" + std::to_string(dataset.format.width) + ")");
    }

    // Both matrices by value from here on: config.json records them so, and nothing reads the
    // user's files again (an edited or deleted file cannot change the run).
    if (!m_state->resume) {
        config.objective.utility = utilityByValue(config.objective.utility, dataset.classNames, "objective.utility");
        config.decision.utility = utilityByValue(config.decision.utility, dataset.classNames, "decision.utility");
    }
    const UtilityMatrix trainingUtility = resolveUtility(config.objective.utility, dataset.classNames, "objective.utility");
    const UtilityMatrix utility = resolveUtility(config.decision.utility, dataset.classNames, "decision.utility");
    const DecisionRule rule = config.decision.rule;
    const std::optional<double> deferUtility = config.decision.deferUtility;
    ObjectiveSpec objectiveSpec = trainingObjective(config, trainingUtility);
    objectiveSpec.validateFor(classCount);
    if (const auto warning = trainingUtilityWarning(objectiveSpec, trainingUtility)) {
        message("warning: " + *warning);
    }
    if (const auto warning = decisionRuleWarning(rule, utility)) {
        message("warning: " + *warning);
    }

    const Normalization normalization = computeSplitNormalization(dataset.train, dataset.format);

    ParticleModel model = makeParticleModel(modelSpec);
    model->to(device);
    model->train();
    std::vector<torch::Tensor> parameters;
    for (auto& parameter : model->parameters()) {
        parameters.push_back(parameter);
    }
    const bool channelsLast = config.train.channelsLast && device.is_cuda();
    FlatSgd optimizer(parameters, config.optimizer.momentum, config.optimizer.nesterov, config.optimizer.weightDecay,
                      channelsLast);
    LbdObjective objective(objectiveSpec, data.trainCounts, device);

    std::vector<nlohmann::json> history;
    int startEpoch = 1;
    torch::Tensor resumedLossScaler;
    if (m_state->resume) {
        const CheckpointState state = loadCheckpoint(folder.path(RunFolder::kCheckpoint), *model, &optimizer);
        startEpoch = state.epoch + 1;
        resumedLossScaler = state.lossScaler;
        std::istringstream lines(state.historyJsonl);
        std::string line;
        while (std::getline(lines, line)) {
            if (!line.empty()) {
                history.push_back(nlohmann::json::parse(line));
            }
        }
        folder.writeJsonLines(RunFolder::kMetrics, history);
        message("resumed after epoch " + std::to_string(state.epoch));
    } else {
        folder.writeJson(RunFolder::kConfig, toJson(config));
        saveLongTailSplit(data.split, folder.path(RunFolder::kSplit));
        folder.writeJsonLines(RunFolder::kMetrics, history);
    }
    writeRunManifest(folder, dataset, data.trainCounts, data.testCounts, normalization, config.augment.outputSize,
                     deviceDescription(device));

    const int epochs = config.train.epochs;
    folder.writeStatus("running", startEpoch - 1, epochs, {}, startEpoch - 1);

    const bool useGraph = config.train.cudaGraph && device.is_cuda();
    const torch::ScalarType autocastType = !device.is_cuda()            ? torch::kFloat32
                                           : config.train.precision == "fp16" ? torch::kHalf
                                           : config.train.precision == "bf16" ? torch::kBFloat16
                                                                              : torch::kFloat32;
    BatchOptions trainOptions;
    trainOptions.batchSize = config.train.batchSize;
    trainOptions.seed = config.train.seed;
    trainOptions.dropLast = useGraph; // every batch the captured shape
    // On CUDA the next batch is gathered and augmented on a second stream during each step.
    auto trainBatches = makePrefetchingBatchSource(
        makeBatchSource(dataset.train, dataset.format, device, config.augment, normalization, trainOptions), device);
    BatchOptions testOptions;
    testOptions.batchSize = std::max<int64_t>(256, config.train.batchSize);
    testOptions.shuffle = false;
    testOptions.augment = false;
    auto testBatches = makeBatchSource(dataset.test, dataset.format, device, config.augment, normalization, testOptions);
    const bool hasValidation = dataset.validation.size() > 0;
    std::unique_ptr<BatchSource> validationBatches;
    if (hasValidation) {
        validationBatches =
            makeBatchSource(dataset.validation, dataset.format, device, config.augment, normalization, testOptions);
    }

    compat::ScopedSideStream sideStream(device, useGraph);
    TrainStepOptions stepOptions;
    stepOptions.autocast = autocastType;
    stepOptions.cudaGraph = useGraph;
    stepOptions.channelsLast = channelsLast;
    TrainStep step(model, objective, optimizer, device, stepOptions);
    if (resumedLossScaler.defined()) {
        step.restoreLossScalerState(resumedLossScaler);
    }

    TrainingResult result;
    result.runDirectory = folder.directory();
    result.epochsCompleted = startEpoch - 1;
    result.checkpointEpoch = startEpoch - 1; // a resumed run starts from its checkpoint
    const auto runStart = Clock::now();
    const int64_t batchesPerEpoch = trainBatches->batchesPerEpoch();
    double lastCheckedLoss = 0;

    const auto evaluateNow = [&](EpochMetrics& metrics, SplitProbabilities* keepTest, SplitProbabilities* keepValidation) {
        SplitProbabilities probabilities = particleProbabilities(model, *testBatches, autocastType);
        metrics.evaluation =
            evaluate(probabilities.probabilities, probabilities.labels, data.trainCounts, utility, rule, deferUtility);
        if (rule != DecisionRule::Argmax) {
            metrics.argmaxEvaluation =
                evaluate(probabilities.probabilities, probabilities.labels, data.trainCounts, utility, DecisionRule::Argmax);
        }
        if (keepTest) {
            *keepTest = std::move(probabilities);
        }
        if (validationBatches) {
            SplitProbabilities validation = particleProbabilities(model, *validationBatches, autocastType);
            metrics.validationEvaluation =
                evaluate(validation.probabilities, validation.labels, data.trainCounts, utility, rule, deferUtility);
            if (keepValidation) {
                *keepValidation = std::move(validation);
            }
        }
    };
    DivergenceMonitor divergence(objectiveSpec, objective.utilityActive(), classCount);

    try {
        for (int epoch = startEpoch; epoch <= epochs; ++epoch) {
            const auto epochStart = Clock::now();
            const double learningRate = learningRateForEpoch(config.optimizer, epoch);
            optimizer.setLearningRate(learningRate);
            objective.setEpoch(epoch);
            trainBatches->startEpoch(epoch);
            step.resetEpochSums();
            auto lastReport = Clock::now();
            Batch batch;
            int64_t imagesThisEpoch = 0;
            while (trainBatches->next(batch)) {
                while (control && control->pauseRequested.load() && !stopRequested()) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(50));
                }
                if (stopRequested()) {
                    break;
                }
                step.run(batch.images, batch.labels);
                imagesThisEpoch += batch.labels.size(0);
                const auto now = Clock::now();
                const bool lastBatch = batch.index + 1 == batchesPerEpoch;
                // Reading the loss waits for the GPU: do it a few times a second, not every batch.
                if (std::chrono::duration<double>(now - lastReport).count() >= 0.25 || lastBatch) {
                    lastReport = now;
                    lastCheckedLoss = step.lastLoss();
                    if (!std::isfinite(lastCheckedLoss)) {
                        throw RunError("the loss became " + std::to_string(lastCheckedLoss) + " at epoch " + std::to_string(epoch)
                                       + ", batch " + std::to_string(batch.index + 1)
                                       + " (lower optimizer.lr or raise objective.alpha); the last good checkpoint is kept");
                    }
                    if (callbacks.onBatch) {
                        BatchProgress progress;
                        progress.epoch = epoch;
                        progress.epochs = epochs;
                        progress.batch = batch.index + 1;
                        progress.batches = batchesPerEpoch;
                        progress.loss = lastCheckedLoss;
                        progress.learningRate = learningRate;
                        const double epochSeconds = std::chrono::duration<double>(now - epochStart).count();
                        progress.imagesPerSecond = epochSeconds > 0 ? imagesThisEpoch / epochSeconds : 0;
                        const double totalImages = static_cast<double>(trainBatches->size()) * (epochs - epoch + 1) - imagesThisEpoch;
                        progress.etaSeconds = progress.imagesPerSecond > 0 ? totalImages / progress.imagesPerSecond : 0;
                        callbacks.onBatch(progress);
                    }
                }
            }
            if (stopRequested()) {
                result.stopped = true;
                // Only a checkpoint can be resumed from; with checkpoint_every > 1 it may be
                // older than the last finished epoch, or not exist yet.
                message(result.checkpointEpoch > 0
                            ? "stopped during epoch " + std::to_string(epoch) + "; the checkpoint of epoch "
                                  + std::to_string(result.checkpointEpoch) + " is kept and --resume continues from it"
                            : "stopped during epoch " + std::to_string(epoch)
                                  + " before the first checkpoint (train.checkpoint_every = "
                                  + std::to_string(config.train.checkpointEvery) + "): there is nothing to resume");

                break;
            }
            EpochMetrics metrics;
            metrics.epoch = epoch;
            metrics.epochs = epochs;
            metrics.objective = step.epochMeans();
            if (!std::isfinite(metrics.objective.total)) {
                throw RunError("the loss became non-finite during epoch " + std::to_string(epoch)
                               + " (lower optimizer.lr or raise objective.alpha); the last good checkpoint is kept");
            }
            metrics.learningRate = learningRate;
            metrics.trainAccuracy = step.epochTrainAccuracy();
            metrics.epochSeconds = std::chrono::duration<double>(Clock::now() - epochStart).count();
            metrics.imagesPerSecond = metrics.epochSeconds > 0 ? imagesThisEpoch / metrics.epochSeconds : 0;
            const bool finalEpoch = epoch == epochs;
            SplitProbabilities finalProbabilities;
            SplitProbabilities finalValidation;
            if (finalEpoch || epoch % config.train.evalEvery == 0) {
                evaluateNow(metrics, finalEpoch ? &finalProbabilities : nullptr, finalEpoch ? &finalValidation : nullptr);
            }
            // Before the checkpoint: a diverged epoch must not replace the last good one.
            std::optional<double> heldOutAccuracy;
            if (metrics.validationEvaluation) {
                heldOutAccuracy = metrics.validationEvaluation->overall.accuracy;
            } else if (metrics.evaluation) {
                heldOutAccuracy = metrics.evaluation->overall.accuracy;
            }
            if (const auto diverged = divergence.observe(epoch, metrics.objective, metrics.trainAccuracy, heldOutAccuracy)) {
                history.push_back(toJson(metrics)); // the evidence stays in metrics.jsonl
                folder.writeJsonLines(RunFolder::kMetrics, history);
                throw RunError(*diverged + "; the last good checkpoint"
                               + (result.checkpointEpoch > 0 ? " (epoch " + std::to_string(result.checkpointEpoch) + ")" : std::string())
                               + " is kept");
            }
            metrics.elapsedSeconds = std::chrono::duration<double>(Clock::now() - runStart).count();
            history.push_back(toJson(metrics));
            folder.writeJsonLines(RunFolder::kMetrics, history);
            if (finalEpoch || epoch % config.train.checkpointEvery == 0) {
                std::string historyText;
                for (const auto& line : history) {
                    historyText += line.dump() + "\n";
                }
                saveCheckpoint(folder.path(RunFolder::kCheckpoint), *model, optimizer,
                               {epoch, historyText, toJson(config).dump(), step.lossScalerState()});
                result.checkpointEpoch = epoch;
            }
            result.epochsCompleted = epoch;
            if (finalEpoch) {
                nlohmann::json report = {{"evaluation", reportToJson(*metrics.evaluation)},
                                         {"training_utility", config.objective.utility.describe()},
                                         {"training_utility_form", utilityFormName(config.objective.utilityForm)},
                                         {"training_utility_active", objective.utilityActive()},
                                         {"alpha", config.objective.alpha},
                                         {"decision_utility", config.decision.utility.describe()},
                                         {"decision_rule", decisionRuleName(rule)},
                                         {"defer", deferUtility ? nlohmann::json(*deferUtility) : nlohmann::json(nullptr)},
                                         {"epochs", epochs},
                                         {"train_seconds", metrics.elapsedSeconds},
                                         {"device", deviceDescription(device)},
                                         {"cuda_graph", step.graphStatus()},
                                         {"precision", autocastType == torch::kHalf       ? "fp16"
                                                       : autocastType == torch::kBFloat16 ? "bf16"
                                                                                          : "fp32"}};
                if (autocastType == torch::kHalf) {
                    // Steps of this session skipped by the loss scaler (overflowing gradients).
                    report["fp16_skipped_steps"] = step.skippedSteps();
                }
                if (metrics.argmaxEvaluation) {
                    report["evaluation_argmax"] = reportToJson(*metrics.argmaxEvaluation);
                }
                if (metrics.validationEvaluation) {
                    report["evaluation_validation"] = reportToJson(*metrics.validationEvaluation);
                    saveTestProbabilities(folder.path(RunFolder::kValidationProbabilities), finalValidation.probabilities,
                                          finalValidation.labels, dataset.classNames);
                }
                saveTestProbabilities(folder.path(RunFolder::kTestProbabilities), finalProbabilities.probabilities,
                                      finalProbabilities.labels, dataset.classNames);
                exportPythonWeights(folder.path(RunFolder::kWeights), *model, dataset.classNames, modelSpec, normalization);
                folder.writeJson(RunFolder::kReport, report);
                result.finalReport = metrics.evaluation;
            }
            folder.writeStatus("running", epoch, epochs, {}, result.checkpointEpoch);
            if (callbacks.onEpoch) {
                callbacks.onEpoch(metrics);
            }
        }
    } catch (const RunError& error) {
        folder.writeStatus("failed", result.epochsCompleted, epochs, error.what(), result.checkpointEpoch);
        throw;
    } catch (const c10::Error& error) {
        const std::string text = describeCudaError(error.what_without_backtrace());
        folder.writeStatus("failed", result.epochsCompleted, epochs, text, result.checkpointEpoch);
        throw RunError(text + "; the last good checkpoint is kept");
    } catch (const std::exception& error) {
        folder.writeStatus("failed", result.epochsCompleted, epochs, error.what(), result.checkpointEpoch);
        throw;
    }
    folder.writeStatus(result.stopped ? "stopped" : "finished", result.epochsCompleted, epochs, {}, result.checkpointEpoch);
    message(step.graphStatus() == "off" ? std::string("done") : "CUDA graph: " + step.graphStatus());
    return result;
}

} // namespace lbd
