#include "core/train/trainingsession.h"
#include "core/train/trainingsessionstate.h"
#include "core/util/jsonfile.h"

#include "core/compat/capturegate.h"
#include "core/compat/torchcompat.h"
#include "core/data/augmentation.h"
#include "core/data/batchsource.h"
#include "core/data/datapreparation.h"
#include "core/data/epochorder.h"
#include "core/data/prefetchingbatchsource.h"
#include "core/data/runcaches.h"
#include "core/dist/communicator.h"
#include "core/dist/shardedevaluation.h"
#include "core/eval/degeneracy.h"
#include "core/eval/evaluator.h"
#include "core/eval/oodscore.h"
#include "core/eval/reportjson.h"
#include "core/lbd/utilitymatrix.h"
#include "core/lbd/utilitysetting.h"
#include "core/model/modelfactory.h"
#include "core/model/pretrainedload.h"
#include "core/train/checkpoint.h"
#include "core/train/configjson.h"
#include "core/train/divergencemonitor.h"
#include "core/train/epochmetricsjson.h"
#include "core/train/flatsgd.h"
#include "core/train/fusedmember.h"
#include "core/train/lrschedule.h"
#include "core/train/particleprobabilities.h"
#include "core/train/pythonexport.h"
#include "core/train/runfolder.h"
#include "core/train/runlock.h"
#include "core/train/runmanifest.h"
#include "core/train/runsroot.h"
#include "core/train/trainstep.h"
#include "core/util/device.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <mutex>
#include <sstream>
#include <thread>

namespace lbd {

TrainingSession::TrainingSession(TrainConfig& config, const RunFolder& folder, bool resume,
                                 const TrainingCallbacks& callbacks, TrainingControl* control,
                                 const DistributedSpec& distributed)
    : m_state(std::make_unique<State>(config, folder, resume, callbacks, control, distributed))
{
}

TrainingSession::~TrainingSession() = default;

// ---- stage 1: set-up ---------------------------------------------------------------------------

void TrainingSession::State::prepareDevice()
{
    if (config.train.threads > 0) {
        torch::set_num_threads(config.train.threads);
    } else {
        useAllCpuCores();
    }
    device = parseDevice(config.train.device);
    if (distributed.enabled()) {
        if (device.is_cuda()) {
            device = torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(distributed.localRank)); // a GPU per rank
        }
        message("rank " + std::to_string(distributed.rank) + " of " + std::to_string(distributed.worldSize) + ": joining "
                + distributed.masterAddress + ":" + std::to_string(distributed.masterPort));
        // Checked before anything is written: a refused run leaves no folder behind.
        if (config.train.batchSize < 2 * distributed.worldSize) {
            throw InputError("train.batch_size (" + std::to_string(config.train.batchSize) + ") must be at least 2 per rank ("
                             + std::to_string(distributed.worldSize) + " ranks): batch norm needs 2 images");
        }
        configureDevice(device); // this rank's GPU is current before NCCL starts
        communicator = std::make_unique<Communicator>(distributed, device);
        message("rank " + std::to_string(distributed.rank) + ": collectives through " + communicator->backendName());
    }
    configureDevice(device);
    autocast = autocastTypeFor(config.train.precision, device);
}

void TrainingSession::State::loadData()
{
    // The saved split when resuming, a fresh seeded one otherwise.
    message("loading " + config.data.dataset + " data");
    data = resume ? prepareData(config.data, loadLongTailSplit(folder.path(RunFolder::kSplit))) : prepareData(config.data);
    if (distributed.rank == 0) {
        // The counts it trains on, and the classes too small to learn or measure, before it starts.
        const DataSummary summary = summarizeData(data, config.data);
        for (const std::string& line : summary.lines) {
            message(line);
        }
        for (const std::string& warning : summary.warnings) {
            message("warning: " + warning);
        }
    }
    const Dataset& dataset = data.dataset;
    // Larger images are for the random resized crop (ImageNet's 256 -> 224): training crops and
    // resizes boxes of the whole image, evaluation takes the centre. Otherwise the border would be
    // lost to evaluation without training ever seeing it.
    const bool cropsResize = config.augment.enabled && config.augment.randomResizedCrop;
    if (!cropsResize && (dataset.format.height > config.augment.outputSize || dataset.format.width > config.augment.outputSize)) {
        throw InputError("augment.output_size (" + std::to_string(config.augment.outputSize) + ") is smaller than the images ("
                         + std::to_string(dataset.format.height) + "x" + std::to_string(dataset.format.width)
                         + "): raise it, or crop with augment.random_resized_crop");
    }
    normalization = computeSplitNormalization(dataset.train, dataset.format);
}

void TrainingSession::State::buildModelAndObjective()
{
    const Dataset& dataset = data.dataset;
    // Both matrices by value from here on: config.json records them so, and nothing reads the
    // user's files again (an edited or deleted file cannot change the run).
    if (!resume) {
        config.objective.utility = utilityByValue(config.objective.utility, dataset.classNames, "objective.utility");
        config.decision.utility = utilityByValue(config.decision.utility, dataset.classNames, "decision.utility");
    }
    const UtilityMatrix trainingUtility = resolveUtility(config.objective.utility, dataset.classNames, "objective.utility");
    decisionUtility = resolveUtility(config.decision.utility, dataset.classNames, "decision.utility");
    ObjectiveSpec objectiveSpec = trainingObjective(config, trainingUtility);
    objectiveSpec.validateFor(dataset.classCount());
    if (const auto warning = trainingUtilityWarning(objectiveSpec, trainingUtility)) {
        message("warning: " + *warning);
    }
    if (const auto warning = utilityScaleWarning(objectiveSpec, trainingUtility, data.trainCounts)) {
        message("warning: " + *warning);
    }
    if (const auto warning = decisionRuleWarning(config.decision.rule, decisionUtility)) {
        message("warning: " + *warning);
    }
    modelSpec = runModelSpec(config, dataset.format.channels, dataset.classCount());
    {
        // The initial weights come from LibTorch's one global generator: runs set up at once in
        // one process (a study's parallel runs) take turns, so each gets exactly its seed's draw.
        static std::mutex globalGeneratorMutex;
        const std::lock_guard<std::mutex> lock(globalGeneratorMutex);
        torch::manual_seed(config.train.seed);
        model = makeParticleModel(modelSpec);
    }
    if (!resume && !modelSpec.initFrom.empty()) {
        loadInitialModelWeights();
    }
    model->to(device);
    model->train();
    std::vector<torch::Tensor> parameters;
    for (auto& parameter : model->parameters()) {
        parameters.push_back(parameter);
    }
    optimizer = std::make_unique<FlatSgd>(parameters, config.optimizer.momentum, config.optimizer.nesterov,
                                          config.optimizer.weightDecay, config.train.channelsLast && device.is_cuda());
    objective = std::make_unique<LbdObjective>(objectiveSpec, data.trainCounts, device);
    divergence = std::make_unique<DivergenceMonitor>(objectiveSpec, objective->utilityActive(), dataset.classCount());
    divergence->setDataWarnings(dataset.report.checkWarnings);
}

// model.init_from, into the freshly built model on the CPU (a resumed run has its checkpoint).
void TrainingSession::State::loadInitialModelWeights()
{
    InitialWeightsReport report;
    try {
        report = loadInitialWeights(modelSpec.initFrom, *model, data.dataset.classNames);
    } catch (const InputError& error) {
        throw InputError(std::string("model.init_from: ") + error.what());
    }
    message("model.init_from: " + report.file + ": " + report.kind);
    for (const std::string& line : report.lines) {
        message("model.init_from: " + line);
    }
}

void TrainingSession::State::openOrStartFolder()
{
    if (!resume) {
        folder.create();
    }
    if (!lock) {
        lock.emplace(RunLock::acquire(folder.directory()));
    }
    torch::Tensor lossScaler;
    if (resume && !folder.exists(RunFolder::kCheckpoint)) {
        folder.writeJsonLines(RunFolder::kMetrics, history);
        message("no checkpoint yet (the run stopped before its first one): training again from epoch 1 on the saved split");
    } else if (resume) {
        const CheckpointState state =
            loadCheckpoint(folder.path(RunFolder::kCheckpoint), *model, optimizer.get(), config.train.epochs);
        firstEpoch = state.epoch + 1;
        checkpointEpoch = state.epoch;
        lossScaler = state.lossScaler;
        std::istringstream lines(state.historyJsonl);
        std::string line;
        while (std::getline(lines, line)) {
            if (!line.empty()) {
                history.push_back(parseJsonText(line, folder.path(RunFolder::kCheckpoint) + " (metric history)"));
            }
        }
        folder.writeJsonLines(RunFolder::kMetrics, history);
        message("resumed after epoch " + std::to_string(state.epoch));
    } else {
        folder.writeJson(RunFolder::kConfig, toJson(config));
        saveLongTailSplit(data.split, folder.path(RunFolder::kSplit));
        folder.writeJsonLines(RunFolder::kMetrics, history);
    }
    writeRunManifest(folder, data.dataset, data.trainCounts, data.testCounts, normalization, config.augment.outputSize,
                     deviceDescription(device));
    buildBatchesAndStep();
    if (lossScaler.defined()) {
        step->restoreLossScalerState(lossScaler);
    }
}

namespace {

// data.cache = auto: the dataset caches of the streamed splits, opened or built first (the log
// says which, and why a cache was rebuilt).
std::vector<std::shared_ptr<const DatasetCache>> openDataCaches(const TrainConfig& config, const PreparedData& data,
                                                                TrainingControl* control,
                                                                const std::function<void(const std::string&)>& message)
{
    if (config.data.cache != "auto") {
        return {};
    }
    const auto splits = streamedSplits(data.dataset, data.sourceTrain, !config.data.validationList.empty());
    if (splits.empty()) {
        message("dataset cache: not used (the data is held in memory, not streamed from files)");
        return {};
    }
    // One cache for every run and study on this data: beside the default runs folder (wherever
    // this run's folder is) unless data.cache_dir says where.
    const std::string directory = !config.data.cacheDirectory.empty() ? config.data.cacheDirectory
                                                                       : datasetCacheDirectoryBeside(defaultRunsRoot());
    return openRunCaches(data.dataset, splits, runCacheSettings(data.dataset, static_cast<int>(config.data.decodeThreads)),
                         directory, message, {}, control ? &control->stopRequested : nullptr);
}

} // namespace

void TrainingSession::State::buildBatchesAndStep()
{
    const Dataset& dataset = data.dataset;
    // The collectives between the ranks are not captured in a CUDA graph (Gloo's cannot be; NCCL's
    // could, with the communicator warmed up outside the capture: not done yet).
    // A fused run's step is shared with its group's threads: never captured (trainstep.h).
    const bool useGraph = config.train.cudaGraph && device.is_cuda() && !communicator && callbacks.fused == nullptr;
    BatchOptions trainOptions;
    trainOptions.batchSize = config.train.batchSize;
    trainOptions.seed = config.train.seed;
    // Every image each epoch (the published loaders' drop_last = False), on every path: the CUDA
    // graph replays the full batches and the remainder runs eagerly; data-parallel, every rank
    // takes a share of every batch, the remainder's included (epochorder.h planEpochBatches).
    if (communicator) {
        trainOptions.shardIndex = communicator->rank();
        trainOptions.shardCount = communicator->worldSize();
    }
    trainOptions.mergeSmallRemainder = true;
    // Data-parallel ranks on one machine share its cores: each decodes on its share unless
    // data.decode_threads says how many (ranks spread over several machines: set it).
    trainOptions.decodeThreads =
        config.data.decodeThreads > 0 ? static_cast<int>(config.data.decodeThreads)
                                      : std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / distributed.worldSize);
    trainOptions.caches =
        openDataCaches(config, data, control, [this](const std::string& line) { message(line); });
    const std::vector<PlannedBatch> plan = planEpochBatches(dataset.train.size(), trainOptions);
    message(describeEpochPlan(dataset.train.size(), plan, useGraph));
    // On CUDA the next batch is gathered and augmented on a second stream during each step.
    trainBatches = makePrefetchingBatchSource(
        makeBatchSource(dataset.train, dataset.format, device, config.augment, normalization, trainOptions), device);
    evalOptions.batchSize = std::max<int64_t>(256, config.train.batchSize);
    evalOptions.shuffle = false;
    evalOptions.augment = false;
    evalOptions.decodeThreads = trainOptions.decodeThreads;
    evalOptions.caches = trainOptions.caches;
    if (communicator) { // the ranks divide the evaluation (core/dist/shardedevaluation.h)
        evalOptions.shardIndex = communicator->rank();
        evalOptions.shardCount = communicator->worldSize();
    }
    testBatches = makeBatchSource(dataset.test, dataset.format, device, config.augment, normalization, evalOptions);
    if (dataset.validation.size() > 0) {
        validationBatches =
            makeBatchSource(dataset.validation, dataset.format, device, config.augment, normalization, evalOptions);
    }
    sideStream = std::make_unique<compat::ScopedSideStream>(device, useGraph);
    TrainStepOptions stepOptions;
    stepOptions.autocast = autocast;
    stepOptions.cudaGraph = useGraph;
    stepOptions.channelsLast = config.train.channelsLast && device.is_cuda();
    stepOptions.communicator = communicator.get();
    stepOptions.syncBatchNorm = config.train.syncBatchNorm && communicator;
    stepOptions.onGraphMessage = [this](const std::string& line) { message(line); };
    if (callbacks.fused != nullptr) {
        if (communicator) {
            throw InputError("a data-parallel run cannot be fused with other runs");
        }
        stepOptions.fusedMember = callbacks.fused;
        callbacks.fused->join(model, *optimizer);
    }
    step = std::make_unique<TrainStep>(model, *objective, *optimizer, device, stepOptions);
}

// Every rank starts from rank 0's state: its weights, momentum, batch-norm statistics, loss
// scale and epoch (a resumed run's checkpoint is read by rank 0 alone, whatever the rank count).
void TrainingSession::State::synchronizeRanks()
{
    if (!communicator) {
        return;
    }
    torch::NoGradGuard noGrad;
    communicator->broadcast(optimizer->flatParameters());
    communicator->broadcast(optimizer->momentumBuffer());
    for (auto& buffer : model->buffers()) {
        communicator->broadcast(buffer);
    }
    torch::Tensor lossScaler = step->lossScalerState();
    communicator->broadcast(lossScaler);
    step->restoreLossScalerState(lossScaler);
    torch::Tensor epochs = torch::tensor({static_cast<int64_t>(firstEpoch), static_cast<int64_t>(checkpointEpoch)});
    communicator->broadcast(epochs);
    firstEpoch = static_cast<int>(epochs[0].item<int64_t>());
    checkpointEpoch = static_cast<int>(epochs[1].item<int64_t>());
}

// A stop asked of any rank stops them all after the same batch (one small collective a step).
bool TrainingSession::State::stopAgreed() const
{
    if (!communicator) {
        return stopRequested();
    }
    torch::Tensor stop = torch::full({1}, stopRequested() ? 1.0F : 0.0F);
    communicator->allReduceSum(stop);
    return stop.item<float>() > 0;
}

void TrainingSession::setUp()
{
    State& s = *m_state;
    if (s.resume) {
        s.lock.emplace(RunLock::acquire(s.folder.directory())); // before reading what another trainer may write
    }
    // Safe points between the stages: a run starting while another captures waits there, not
    // for the whole set-up (reading the data may take minutes).
    s.prepareDevice();
    compat::yieldToCapture();
    s.loadData();
    compat::yieldToCapture();
    s.buildModelAndObjective();
    compat::yieldToCapture();
    s.openOrStartFolder();
    compat::yieldToCapture();
    s.synchronizeRanks();
    s.runStart = Clock::now();
    s.lastCheckpoint = s.runStart;
}

int TrainingSession::firstEpoch() const { return m_state->firstEpoch; }
int TrainingSession::lastCheckpointEpoch() const { return m_state->checkpointEpoch; }
std::string TrainingSession::graphStatus() const { return m_state->step ? m_state->step->graphStatus() : "off"; }
std::optional<EvaluationReport> TrainingSession::finalReport() const { return m_state->finalReport; }

// ---- stage 2: training -------------------------------------------------------------------------

bool TrainingSession::train(int epoch, EpochMetrics& metrics)
{
    State& s = *m_state;
    const int epochs = s.config.train.epochs;
    auto epochStart = Clock::now();
    const double learningRate = learningRateForEpoch(s.config.optimizer, epoch);
    s.optimizer->setLearningRate(learningRate);
    s.objective->setEpoch(epoch);
    s.trainBatches->startEpoch(epoch);
    s.step->resetEpochSums();
    const int64_t batchesPerEpoch = s.trainBatches->batchesPerEpoch();
    auto lastReport = Clock::now();
    Batch batch;
    int64_t images = 0;
    while (s.trainBatches->next(batch)) {
        const auto pausedAt = Clock::now();
        while (s.control && s.control->pauseRequested.load() && !s.stopRequested()) {
            compat::yieldToCapture(); // a paused run must not keep another run's capture waiting
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        // Time spent paused is not training: the images/s, the ETA and the elapsed time skip it.
        const auto paused = Clock::now() - pausedAt;
        epochStart += paused;
        s.runStart += paused;
        if (s.stopAgreed()) {
            return false;
        }
        // Between two steps nothing of this run is in flight on the host: another run's CUDA
        // graph may be captured here (core/compat/capturegate.h).
        compat::yieldToCapture();
        s.step->run(batch.images, batch.labels, batch.fixedShape);
        // Data-parallel: every rank's share of the batch, so that rank 0's progress (the
        // launcher's progress bar) gives the run's images/s and ETA.
        images += batch.globalSize;
        const auto now = Clock::now();
        // Reading the loss waits for the GPU: do it a few times a second, not every batch.
        if (std::chrono::duration<double>(now - lastReport).count() < 0.25 && batch.index + 1 != batchesPerEpoch) {
            continue;
        }
        lastReport = now;
        const double loss = s.step->lastLoss();
        if (!std::isfinite(loss)) {
            throw RunError("the loss became " + std::to_string(loss) + " at epoch " + std::to_string(epoch) + ", batch "
                           + std::to_string(batch.index + 1) + " (lower optimizer.lr or raise objective.alpha"
                           + (s.divergence ? s.divergence->dataCause() : std::string()) + "); the last good checkpoint is kept");
        }
        if (s.callbacks.onBatch) {
            BatchProgress progress;
            progress.epoch = epoch;
            progress.epochs = epochs;
            progress.batch = batch.index + 1;
            progress.batches = batchesPerEpoch;
            progress.loss = loss;
            progress.learningRate = learningRate;
            const double seconds = std::chrono::duration<double>(now - epochStart).count();
            progress.imagesPerSecond = seconds > 0 ? static_cast<double>(images) / seconds : 0;
            const double left = static_cast<double>(s.trainBatches->size()) * (epochs - epoch + 1) - static_cast<double>(images);
            progress.etaSeconds = progress.imagesPerSecond > 0 ? left / progress.imagesPerSecond : 0;
            s.callbacks.onBatch(progress);
        }
    }
    s.step->reduceEpochSums(); // data-parallel: the whole epoch, every rank's images
    images = s.step->epochImages();
    if (!s.countedEpoch) {
        // Once a session, the log shows that the epoch trained every image (and how many through
        // the CUDA graph): the plan's promise, counted where the images were trained.
        s.countedEpoch = true;
        const int64_t size = s.data.dataset.train.size();
        s.message("epoch " + std::to_string(epoch) + " trained " + std::to_string(images) + " of the " + std::to_string(size)
                  + " training images" + (images == size ? "" : " (an image was dropped or repeated: a bug)")
                  + (s.step->usingCudaGraph() ? ", " + std::to_string(s.step->epochGraphImages()) + " of them in the CUDA graph"
                                              : std::string()));
    }
    metrics.epoch = epoch;
    metrics.epochs = epochs;
    metrics.objective = s.step->epochMeans();
    metrics.learningRate = learningRate;
    metrics.trainAccuracy = s.step->epochTrainAccuracy();
    metrics.epochSeconds = std::chrono::duration<double>(Clock::now() - epochStart).count();
    metrics.imagesPerSecond = metrics.epochSeconds > 0 ? static_cast<double>(images) / metrics.epochSeconds : 0;
    // Streamed data: where the epoch's input time went, and whether the input or the device bounds it.
    const InputTimings timings = s.trainBatches->inputTimings();
    if (const std::string line = describeInputTimings(timings, metrics.epochSeconds); !line.empty()) {
        s.message("epoch " + std::to_string(epoch) + " " + line);
        metrics.boundBy = inputBound(timings, metrics.epochSeconds) ? "input" : "device";
    }
    return true;
}

std::string TrainingSession::stoppedMessage(int epoch) const
{
    // Only a checkpoint can be resumed from; with checkpoint_every > 1 it may be older than the
    // last finished epoch, or not exist yet.
    const State& s = *m_state;
    return s.checkpointEpoch > 0 ? "stopped during epoch " + std::to_string(epoch) + "; the checkpoint of epoch "
                                       + std::to_string(s.checkpointEpoch) + " is kept and --resume continues from it"
                                 : "stopped during epoch " + std::to_string(epoch)
                                       + " before the first checkpoint (train.checkpoint_every = "
                                       + std::to_string(s.config.train.checkpointEvery) + "): --resume starts it again from epoch 1";
}

// ---- stage 3: evaluation -----------------------------------------------------------------------

EvaluationReport TrainingSession::State::decide(const SplitProbabilities& probabilities, DecisionRule rule) const
{
    const bool withDefer = rule == config.decision.rule;
    EvaluationReport report = lbd::evaluate(probabilities.probabilities, probabilities.labels, data.trainCounts,
                                            decisionUtility, rule, withDefer ? config.decision.deferUtility : std::nullopt);
    report.warnings = warningsWithClassNames(report, data.dataset.classNames); // report.json names the piled classes
    return report;
}

SplitProbabilities TrainingSession::State::probabilitiesOf(BatchSource& source, int64_t splitSize)
{
    if (!communicator) {
        return particleProbabilities(model, source, autocast);
    }
    return gatherShardedProbabilities(model, source, evalOptions, splitSize, *communicator, autocast, device);
}

void TrainingSession::evaluate(EpochMetrics& metrics)
{
    State& s = *m_state;
    const bool last = s.finalEpoch(metrics.epoch);
    if (!last && metrics.epoch % s.config.train.evalEvery != 0) {
        return;
    }
    if (s.communicator) {
        // Batch norm keeps statistics per rank: every rank evaluates with rank 0's, as one model.
        torch::NoGradGuard noGrad;
        for (auto& buffer : s.model->buffers()) {
            s.communicator->broadcast(buffer);
        }
    }
    SplitProbabilities test = s.probabilitiesOf(*s.testBatches, s.data.dataset.test.size());
    std::optional<SplitProbabilities> validation;
    if (s.validationBatches) {
        compat::yieldToCapture();
        validation = s.probabilitiesOf(*s.validationBatches, s.data.dataset.validation.size());
    }
    if (!s.primary()) {
        return; // data-parallel: rank 0 decides and records
    }
    metrics.evaluation = s.decide(test, s.config.decision.rule);
    if (s.config.decision.rule != DecisionRule::Argmax) {
        metrics.argmaxEvaluation = s.decide(test, DecisionRule::Argmax);
    }
    if (validation) {
        metrics.validationEvaluation = s.decide(*validation, s.config.decision.rule);
        if (last) {
            s.finalValidation = std::move(*validation);
        }
    }
    if (last) {
        s.finalTest = std::move(test);
    }
}

// ---- stage 4: divergence -----------------------------------------------------------------------

void TrainingSession::checkDivergence(const EpochMetrics& metrics)
{
    State& s = *m_state;
    std::optional<double> heldOut;
    if (metrics.validationEvaluation) {
        heldOut = metrics.validationEvaluation->overall.accuracy;
    } else if (metrics.evaluation) {
        heldOut = metrics.evaluation->overall.accuracy;
    }
    const auto diverged = s.divergence->observe(metrics.epoch, metrics.objective, metrics.trainAccuracy, heldOut);
    if (!diverged) {
        return;
    }
    s.history.push_back(toJson(metrics)); // the evidence stays in metrics.jsonl
    s.folder.writeJsonLines(RunFolder::kMetrics, s.history);
    throw RunError(*diverged + "; the last good checkpoint"
                   + (s.checkpointEpoch > 0 ? " (epoch " + std::to_string(s.checkpointEpoch) + ")" : std::string())
                   + " is kept");
}

// ---- stage 5: records --------------------------------------------------------------------------

void TrainingSession::record(const EpochMetrics& recorded)
{
    State& s = *m_state;
    if (!s.primary()) {
        return; // data-parallel: rank 0 alone keeps the records
    }
    EpochMetrics metrics = recorded;
    metrics.elapsedSeconds = std::chrono::duration<double>(Clock::now() - s.runStart).count();
    s.history.push_back(toJson(metrics));
    s.folder.writeJsonLines(RunFolder::kMetrics, s.history);
    const bool last = s.finalEpoch(metrics.epoch);
    if (last || metrics.epoch % s.config.train.checkpointEvery == 0 || Clock::now() - s.lastCheckpoint >= kCheckpointAtLeastEvery) {
        std::string historyText;
        for (const auto& line : s.history) {
            historyText += line.dump() + "\n";
        }
        saveCheckpoint(s.folder.path(RunFolder::kCheckpoint), *s.model, *s.optimizer,
                       {metrics.epoch, historyText, toJson(s.config).dump(), s.step->lossScalerState()});
        s.checkpointEpoch = metrics.epoch;
        s.lastCheckpoint = Clock::now();
    }
    if (last) {
        s.writeFinalFiles(metrics);
    }
}

} // namespace lbd
