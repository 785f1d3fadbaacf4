#include "core/train/trainingbenchmark.h"

#include "core/compat/torchcompat.h"
#include "core/data/batchsource.h"
#include "core/data/prefetchingbatchsource.h"
#include "core/data/syntheticdataset.h"
#include "core/dist/communicator.h"
#include "core/dist/gradientreducer.h"
#include "core/lbd/objective.h"
#include "core/lbd/utilitymatrix.h"
#include "core/model/batchnormrelu.h"
#include "core/model/modelfactory.h"
#include "core/train/flatsgd.h"
#include "core/train/trainstep.h"
#include "core/util/device.h"
#include "core/util/error.h"

#include <chrono>
#include <cmath>

namespace lbd {
namespace {

using Clock = std::chrono::steady_clock;

// Data-parallel ranks must take the same number of steps (each step is a collective): rank 0
// decides when the time is up and tells the others. Waits for the device.
// "in 12 buckets (11 started during the backward pass)" or "in one all-reduce after the backward pass".
std::string bucketText(const TrainStep& step)
{
    const GradientReducer* reducer = step.gradientReducer();
    if (reducer == nullptr) {
        return "in one all-reduce after the backward pass";
    }
    return "in " + std::to_string(reducer->bucketCount()) + " buckets ("
           + std::to_string(reducer->bucketsStartedDuringBackward()) + " started during the backward pass)";
}

bool timeIsUp(double elapsed, double seconds, Communicator* communicator, const torch::Device& device)
{
    if (communicator == nullptr) {
        return elapsed >= seconds;
    }
    auto flag = torch::full({1}, elapsed >= seconds ? 1.0f : 0.0f, torch::TensorOptions().device(device));
    communicator->broadcast(flag, 0);
    return flag.item<float>() > 0.5f;
}

// The measured model, its optimiser and the full objective (margins, DRW weights, utility term,
// repulsion), seeded alike on every rank.
struct BenchedModel {
    ParticleModel model{nullptr};
    std::unique_ptr<FlatSgd> optimizer;
    std::unique_ptr<LbdObjective> objective;

    BenchedModel(const TrainingBenchmarkOptions& options, const Dataset& data, const torch::Device& device, bool fast)
    {
        ModelSpec spec;
        spec.arch = options.arch;
        spec.particles = options.particles;
        spec.inputChannels = options.channels;
        spec.numClasses = options.classes;
        spec.inputSize = options.imageSize;
        torch::manual_seed(0);
        model = makeParticleModel(spec);
        model->to(device);
        model->train();
        std::vector<torch::Tensor> parameters;
        for (auto& p : model->parameters()) {
            parameters.push_back(p);
        }
        optimizer = std::make_unique<FlatSgd>(parameters, 0.9, true, 5e-4, fast && device.is_cuda());
        optimizer->setLearningRate(0.01);
        ObjectiveSpec objectiveSpec;
        objectiveSpec.drwEpoch = 0;
        objectiveSpec.utilityAfterDrwOnly = false;
        objectiveSpec.alpha = 0.002;
        objectiveSpec.utilityMatrix = UtilityMatrix::tailSensitive(options.classes, 0.5).values();
        objective = std::make_unique<LbdObjective>(objectiveSpec, countPerClass(data.train.labels, options.classes), device);
        objective->setEpoch(1);
    }
};

TrainingBenchmarkResult timeMode(const TrainingBenchmarkOptions& options, const Dataset& data, const torch::Device& device,
                                 bool fast, Communicator* communicator)
{
    BenchedModel benched(options, data, device, fast);
    AugmentSpec augment;
    augment.outputSize = options.imageSize;
    const Normalization normalization = computeNormalization(data.train.images);
    BatchOptions batchOptions;
    batchOptions.batchSize = options.batchSize;
    batchOptions.dropLast = true;
    if (communicator != nullptr) { // each rank its own share of every epoch, as in training
        batchOptions.shardIndex = communicator->rank();
        batchOptions.shardCount = communicator->worldSize();
    }
    // Straightforward mode augments on the host and copies each batch to the device.
    const torch::Device dataDevice = fast ? device : torch::Device(torch::kCPU);
    auto batches = makeBatchSource(data.train, data.format, dataDevice, augment, normalization, batchOptions);
    if (fast) {
        batches = makePrefetchingBatchSource(std::move(batches), device); // as the trainer does
    }

    const bool cuda = device.is_cuda();
    compat::ScopedSideStream stream(device, fast && cuda);
    TrainStepOptions stepOptions;
    const torch::ScalarType autocast = autocastTypeFor(options.precision, device);
    stepOptions.autocast = fast && cuda ? autocast : torch::kFloat32;
    stepOptions.cudaGraph = fast && cuda && communicator == nullptr && options.cudaGraph; // as TrainingSession
    stepOptions.communicator = communicator;
    stepOptions.gradientBucketBytes = std::llround(options.gradientBucketMegabytes * 1024 * 1024);
    stepOptions.separateParticles = !fast;
    stepOptions.channelsLast = fast && cuda;
    TrainStep step(benched.model, *benched.objective, *benched.optimizer, device, stepOptions);

    int64_t epoch = 1;
    batches->startEpoch(epoch);
    const auto nextBatch = [&](Batch& batch) {
        if (!batches->next(batch)) {
            batches->startEpoch(++epoch);
            batches->next(batch);
        }
        if (!fast) {
            batch.images = batch.images.to(device);
            batch.labels = batch.labels.to(device);
        }
    };
    Batch batch;
    for (int i = 0; i < 8; ++i) { // warm-up: cuDNN autotuning, allocator, graph capture
        nextBatch(batch);
        step.run(batch.images, batch.labels);
    }
    compat::synchronize(device);
    TrainingBenchmarkResult result;
    result.mode = fast ? "fast" : "straightforward";
    const auto start = Clock::now();
    bool done = false;
    while (!done) {
        nextBatch(batch);
        step.run(batch.images, batch.labels);
        ++result.steps;
        // The images trained: the global batch, of which this rank took its share (each rank a
        // share of every batch: epochorder.h shardOfBatch), not the share times the ranks.
        result.images += batch.globalSize;
        result.imagesThisRank += batch.images.size(0);
        if (result.steps % 20 == 0 || (!cuda && communicator == nullptr)) {
            compat::synchronize(device);
            done = timeIsUp(std::chrono::duration<double>(Clock::now() - start).count(), options.seconds, communicator, device);
        }
    }
    compat::synchronize(device);
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    result.ranks = communicator != nullptr ? communicator->worldSize() : 1;
    result.collectives = communicator != nullptr ? communicator->backendName() : "";
    // Every rank took the same `steps` steps of the same global batches, each its share of them:
    // the run trained steps x global batch images (counting each share once per rank counted
    // every image `ranks` times, the figures of issue 33).
    result.imagesPerSecond = static_cast<double>(result.images) / result.seconds;
    result.epochSeconds = static_cast<double>(options.trainImages) / result.imagesPerSecond;
    const double loss = step.lastLoss();
    const std::string precision = autocast == torch::kHalf ? "fp16 autocast with loss scaling" : autocast == torch::kBFloat16 ? "bf16 autocast" : "fp32";
    const bool fusedBn = cuda && autocast == torch::kHalf && fusedBatchNormEnabled();
    result.details = fast ? std::string("fused particles, device augmentation prefetched on a second stream")
                                + (communicator != nullptr ? ", " + std::to_string(communicator->worldSize()) + " ranks, gradients all-reduced through "
                                                                 + communicator->backendName() + " " + bucketText(step)
                                                           : "")
                                + (cuda ? ", " + precision + (fusedBn ? ", cuDNN batch norm + add + ReLU fused" : "")
                                              + ", CUDA graph: " + step.graphStatus()
                                        : "")
                          : "particles one after another, fp32, host augmentation + copy";
    if (!std::isfinite(loss)) {
        throw RunError("benchmark loss became non-finite in " + result.mode + " mode");
    }
    return result;
}

} // namespace

std::vector<TrainingBenchmarkResult> benchmarkTraining(const TrainingBenchmarkOptions& options)
{
    if (options.batchSize < 1 || options.particles < 1 || !(options.seconds > 0)) {
        throw InputError("benchmark: batch, particles and seconds must be positive");
    }
    torch::Device device = parseDevice(options.device);
    std::unique_ptr<Communicator> communicator;
    if (options.distributed.enabled() && device.is_cuda()) {
        device = torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(options.distributed.localRank)); // a GPU per rank
    }
    configureDevice(device);
    if (options.distributed.enabled()) {
        communicator = std::make_unique<Communicator>(options.distributed, device);
    }
    SyntheticSpec synthetic;
    synthetic.classes = options.classes;
    synthetic.trainPerClass = std::max<int64_t>(1, options.trainImages / options.classes);
    synthetic.testPerClass = 1;
    synthetic.channels = options.channels;
    synthetic.size = options.imageSize;
    const Dataset data = makeSyntheticDataset(synthetic);
    std::vector<TrainingBenchmarkResult> results;
    results.push_back(timeMode(options, data, device, true, communicator.get()));
    if (options.straightforward && !communicator) {
        results.push_back(timeMode(options, data, device, false, nullptr));
    }
    return results;
}

} // namespace lbd
