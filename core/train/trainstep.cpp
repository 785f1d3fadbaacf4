#include "core/train/trainstep.h"

#include "core/compat/capturegate.h"
#include "core/compat/torchcompat.h"
#include "core/dist/communicator.h"
#include "core/dist/gradientreducer.h"
#include "core/dist/syncbatchnorm.h"
#include "core/train/fusedmember.h"
#include "core/util/error.h"

#include <algorithm>
#include <optional>

namespace lbd {

torch::ScalarType autocastTypeFor(Precision precision, const torch::Device& device)
{
    if (!device.is_cuda()) {
        return torch::kFloat32;
    }
    switch (precision) {
    case Precision::Fp16: return torch::kHalf;
    case Precision::Bf16: return torch::kBFloat16;
    case Precision::Fp32: return torch::kFloat32;
    }
    return torch::kFloat32;
}

struct TrainStep::Graph {
#ifdef LBD_HAVE_CUDA
    at::cuda::CUDAGraph graph;
    compat::GraphPoolId pool = compat::newGraphPool(); // known here, so that a failed capture can close it
#endif
    torch::Tensor images; // static inputs the graph reads
    torch::Tensor labels;
    bool captured = false;
    bool failed = false;
};

TrainStep::TrainStep(ParticleModel model, LbdObjective& objective, FlatSgd& optimizer, const torch::Device& device,
                     TrainStepOptions options)
    : m_model(std::move(model)), m_objective(objective), m_optimizer(optimizer), m_device(device), m_options(options)
{
    const auto floatOptions = torch::TensorOptions().dtype(torch::kFloat32).device(device);
    m_sums = torch::zeros({6}, floatOptions.dtype(torch::kFloat64));
    m_correct = torch::zeros({}, floatOptions.dtype(torch::kInt64));
    m_lastLoss = torch::zeros({}, floatOptions);
    m_lossScale = torch::full({1}, 65536.0, floatOptions);
    m_growthTracker = torch::zeros({1}, floatOptions.dtype(torch::kInt32));
    m_foundInf = torch::zeros({1}, floatOptions);
    m_skippedSteps = torch::zeros({1}, floatOptions);
    m_globalCounts = torch::zeros({m_objective.classCount()}, floatOptions);
    if (!device.is_cuda()) {
        m_options.autocast = torch::kFloat32;
        m_options.cudaGraph = false;
        m_options.channelsLast = false;
    }
#ifndef LBD_HAVE_CUDA
    m_options.cudaGraph = false;
#endif
    if (m_options.separateParticles || m_options.fusedMember != nullptr) {
        m_options.cudaGraph = false;
    }
    if (m_options.communicator != nullptr && m_options.gradientBucketBytes > 0) {
        GradientBucketSizes sizes;
        sizes.bucketBytes = m_options.gradientBucketBytes;
        sizes.firstBucketBytes = std::min(sizes.firstBucketBytes, sizes.bucketBytes);
        m_reducer = std::make_unique<GradientReducer>(m_optimizer.parameters(), m_optimizer.flatGradients(),
                                                      *m_options.communicator, sizes);
    }
    if (m_options.cudaGraph) {
        m_graph = std::make_unique<Graph>();
        m_graphStatus = "waiting for warm-up";
    }
}

TrainStep::~TrainStep()
{
    if (m_graph && m_graph->failed) {
        // LibTorch's allocators may still hold a filter that points at a graph whose capture
        // failed part-way; it stays alive (a few bytes, once per failure) so that it never
        // points at freed memory. Its tensors are let go.
        m_graph->images = torch::Tensor();
        m_graph->labels = torch::Tensor();
        (void)m_graph.release();
    }
}

void TrainStep::eagerStep(const torch::Tensor& images, const torch::Tensor& labels)
{
    m_optimizer.zeroGrad();
    std::optional<GlobalBatch> global;
    if (m_options.communicator != nullptr) {
        // The weights are known from the labels before the forward pass: the global batch's label
        // counts, one small all-reduce, let each rank normalise its share by the global batch.
        torch::NoGradGuard noGrad;
        m_globalCounts.zero_();
        m_globalCounts.index_add_(0, labels, torch::ones({labels.size(0)}, m_globalCounts.options()));
        m_options.communicator->allReduceSum(m_globalCounts);
        global = GlobalBatch{m_globalCounts, m_options.communicator->worldSize()};
    }
    torch::Tensor logits;
    const bool autocast = m_options.autocast != torch::kFloat32;
    const bool scaled = m_options.autocast == torch::kHalf;
    if (autocast) {
        compat::setAutocast(m_device, true, m_options.autocast);
    }
    const auto input = m_options.channelsLast ? images.contiguous(at::MemoryFormat::ChannelsLast) : images;
    {
        const SyncBatchNormScope syncBatchNorm(m_options.syncBatchNorm ? m_options.communicator : nullptr);
        logits = m_options.fusedMember != nullptr ? m_options.fusedMember->forward(input)
            : m_options.separateParticles        ? m_model->forwardSeparately(input).logits
                                                 : m_model->forward(input);
    }
    if (autocast) {
        compat::setAutocast(m_device, false);
    }
    logits = logits.to(torch::kFloat32);
    const ObjectiveTerms terms =
        m_objective.compute(logits, labels, m_model->classifierWeights(), global ? &*global : nullptr);
    if (scaled) {
        backward(terms.total * m_lossScale);
        m_optimizer.stepUnscaled(m_lossScale, m_growthTracker, m_foundInf);
        torch::NoGradGuard noGrad;
        m_skippedSteps.add_(m_foundInf);
    } else {
        backward(terms.total);
        m_optimizer.step();
    }
    torch::NoGradGuard noGrad;
    m_sums.add_(LbdObjective::pack(terms));
    m_correct.add_(logits.detach().mean(0).argmax(-1).eq(labels).sum());
    m_lastLoss.copy_(terms.total.detach());
}

void TrainStep::backward(const torch::Tensor& loss)
{
    if (m_reducer) {
        m_reducer->beginBackward();
    }
    loss.backward();
    if (m_options.fusedMember != nullptr) {
        m_options.fusedMember->backward(); // the fused model's share of this run's gradients
    }
    averageGradientsOverRanks(); // every rank then finds the same overflow and takes the same step
}

void TrainStep::averageGradientsOverRanks()
{
    if (m_options.communicator == nullptr) {
        return;
    }
    if (m_reducer) {
        m_reducer->finish();
        return;
    }
    // The parameters' gradients are views into this one buffer (flatsgd.h): one all-reduce.
    torch::Tensor& gradients = m_optimizer.flatGradients();
    m_options.communicator->allReduceSum(gradients);
    gradients.div_(m_options.communicator->worldSize());
}

void TrainStep::reduceEpochSums()
{
    if (m_options.communicator == nullptr) {
        return;
    }
    // Every rank took the same steps (one batch plan, every rank a share of each batch), and each
    // rank's values are `ranks` times its share of the global batch's (GlobalBatch): the mean of
    // the ranks' sums is the sum of the global batches' values.
    torch::Tensor sums = m_sums.to(torch::kCPU, torch::kDouble);
    torch::Tensor counts = torch::stack({m_correct.to(torch::kCPU).to(torch::kDouble),
                                         torch::tensor(static_cast<double>(m_images), torch::kDouble)});
    m_options.communicator->allReduceSum(sums);
    m_options.communicator->allReduceSum(counts);
    m_sums.copy_(sums / m_options.communicator->worldSize());
    m_correct.copy_(counts[0]);
    m_images = static_cast<int64_t>(counts[1].item<double>());
}

void TrainStep::run(const torch::Tensor& images, const torch::Tensor& labels, bool fixedShape)
{
    m_images += images.size(0);
    ++m_steps;
#ifdef LBD_HAVE_CUDA
    // Only the plan's fixed shape is captured and replayed: the remainder runs eagerly below, and
    // never becomes the captured shape (were it the step that ends the warm-up).
    if (m_graph && !m_graph->failed && fixedShape) {
        const bool sameShape = m_graph->images.defined() && images.sizes() == m_graph->images.sizes();
        if (m_graph->captured && sameShape) {
            m_graph->images.copy_(images, /*non_blocking=*/true);
            m_graph->labels.copy_(labels, true);
            m_graph->graph.replay();
            m_graphImages += images.size(0);
            return;
        }
        // Warm up eagerly (cuDNN autotuning, allocator) before capturing; real steps all the same.
        if (!m_graph->captured && m_eagerStepsDone >= 3) {
            // While the step is recorded no other thread of the process may make a CUDA call
            // (capturegate.h): this waits until every other run is between two batches, and
            // holds them there until the capture is done. The device-wide synchronisation below
            // then meets no capture in progress either.
            const compat::ExclusiveCaptureHold exclusive;
            bool began = false;
            try {
                m_graph->images = images.clone();
                m_graph->labels = labels.clone();
                compat::synchronize(m_device);
                compat::setAutocastCacheEnabled(false);
                compat::beginGraphCapture(m_graph->graph, m_graph->pool);
                began = true;
                eagerStep(m_graph->images, m_graph->labels);
                m_graph->graph.capture_end();
                began = false;
                compat::setAutocastCacheEnabled(true);
                m_graph->captured = true;
                m_graphStatus = "captured";
                // Capturing recorded the step without running it: run it now.
                m_graph->graph.replay();
                m_graphImages += images.size(0);
                return;
            } catch (const c10::Error& error) {
                compat::setAutocastCacheEnabled(true);
                m_graph->failed = true;
                m_graph->captured = false;
                // A capture that failed part-way leaves the stream recording (every later launch
                // on it, the eager redo's included, would fail too) and LibTorch's capture pool
                // open: both are closed before the step is redone eagerly below.
                const std::string cleanup = began ? compat::abandonGraphCapture(m_graph->graph, m_graph->pool, m_device) : "";
                const std::string what = error.what_without_backtrace();
                m_graphStatus = "capture failed, running eagerly: " + what.substr(0, what.find('\n')) + cleanup;
                if (m_options.onGraphMessage) {
                    m_options.onGraphMessage("CUDA graph " + m_graphStatus);
                }
            }
        }
    }
#endif
    eagerStep(images, labels);
    ++m_eagerStepsDone;
    if (m_options.autocast != torch::kFloat32) {
        compat::clearAutocastCache();
    }
}

void TrainStep::resetEpochSums()
{
    m_sums.zero_();
    m_correct.zero_();
    m_images = 0;
    m_graphImages = 0;
    m_steps = 0;
}

ObjectiveValues TrainStep::epochMeans() const
{
    return LbdObjective::unpack(m_sums / static_cast<double>(std::max<int64_t>(1, m_steps)));
}

double TrainStep::epochTrainAccuracy() const
{
    return m_images == 0 ? 0.0 : static_cast<double>(m_correct.item<int64_t>()) / static_cast<double>(m_images);
}

double TrainStep::lastLoss() const
{
    return m_lastLoss.item<double>();
}

int64_t TrainStep::skippedSteps() const
{
    return static_cast<int64_t>(m_skippedSteps.item<float>());
}

torch::Tensor TrainStep::lossScalerState() const
{
    return torch::cat({m_lossScale, m_growthTracker.to(torch::kFloat32), m_skippedSteps}).cpu();
}

void TrainStep::restoreLossScalerState(const torch::Tensor& state)
{
    if (!state.defined() || state.numel() != 3 || !state.is_floating_point()
        || !torch::isfinite(state).all().item<bool>() || !(state[0].item<double>() > 0)) {
        throw InputError("checkpoint: 'train/loss_scaler' must hold a positive scale, a growth count and a skip count");
    }
    // In place: a captured graph keeps reading the same storage.
    torch::NoGradGuard noGrad;
    const auto values = state.to(torch::kFloat32).to(m_device);
    m_lossScale.copy_(values.narrow(0, 0, 1));
    m_growthTracker.copy_(values.narrow(0, 1, 1));
    m_skippedSteps.copy_(values.narrow(0, 2, 1));
}

bool TrainStep::usingCudaGraph() const
{
    return m_graph && m_graph->captured && !m_graph->failed;
}

} // namespace lbd
