// No training image is dropped in an epoch, on any path (lbd-math.md section 8; the published
// loaders' drop_last = False). The batch plan (epochorder.h planEpochBatches: which images go
// into which step, and which steps have the CUDA graph's fixed shape) is a pure function, checked
// here on the CPU; the batchers, the trainer's eager path and the data-parallel shares follow it.
// What the CPU cannot exercise: the captured CUDA graph replaying the fixed-shape batches while
// the remainder runs eagerly beside it (TrainStep with cudaGraph), and the prefetching source of
// CUDA runs. The two CUDA tests below train through exactly that path and count the images; they
// skip on a machine without CUDA, saying so.
#include "core/data/batchsource.h"
#include "core/data/datapreparation.h"
#include "core/data/epochorder.h"
#include "core/data/prefetchingbatchsource.h"
#include "core/lbd/objective.h"
#include "core/model/modelfactory.h"
#include "core/train/flatsgd.h"
#include "core/train/trainer.h"
#include "core/train/trainstep.h"
#include "tests/support/expect.h"
#include "tests/support/tinyconfig.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <regex>

using namespace lbd;

namespace {

BatchOptions trainingOptions(int64_t batchSize, int ranks = 1, int rank = 0)
{
    BatchOptions options;
    options.batchSize = batchSize;
    options.mergeSmallRemainder = true;
    options.shardCount = ranks;
    options.shardIndex = rank;
    return options;
}

// Every image of [0, size) in exactly one batch, batches in order and contiguous.
bool coversEachImageOnce(int64_t size, const std::vector<PlannedBatch>& plan)
{
    int64_t next = 0;
    for (const PlannedBatch& batch : plan) {
        if (batch.start != next || batch.count < 1) {
            return false;
        }
        next += batch.count;
    }
    return next == size;
}

// `size` random 1 x 16 x 16 images whose label is their index (a batch's labels say which images it holds).
Dataset numberedImages(int64_t size)
{
    torch::manual_seed(7);
    Dataset data;
    data.name = "numbered";
    data.format.channels = 1;
    data.format.height = 16;
    data.format.width = 16;
    data.train.images = torch::randint(0, 256, {size, 1, 16, 16}, torch::kUInt8);
    data.train.labels = torch::arange(size, torch::kInt64);
    return data;
}

TrainConfig countingConfig()
{
    TrainConfig config = test::tinyConfig(2);
    config.train.batchSize = 16;
    return config;
}

int64_t trainingSetSize(const TrainConfig& config)
{
    return prepareData(config.data).dataset.train.size();
}

// The log's count of the first epoch: "epoch 1 trained X of the Y training images[, Z of them in
// the CUDA graph]".
struct LoggedCount {
    int64_t trained = -1, size = -1, inGraph = -1;
};
LoggedCount loggedCount(const std::vector<std::string>& messages)
{
    static const std::regex pattern(R"(^epoch \d+ trained (\d+) of the (\d+) training images(?:, (\d+) of them in the CUDA graph)?$)");
    LoggedCount count;
    for (const std::string& message : messages) {
        std::smatch match;
        if (std::regex_match(message, match, pattern)) {
            count.trained = std::stoll(match[1]);
            count.size = std::stoll(match[2]);
            count.inGraph = match[3].matched ? std::stoll(match[3]) : -1;
        }
    }
    return count;
}

} // namespace

class TestEpochPlan : public QObject {
    Q_OBJECT

private slots:
    void planCoversEveryImageOnce_data()
    {
        QTest::addColumn<qint64>("size");
        QTest::addColumn<qint64>("batchSize");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<qint64>("batches");
        QTest::addColumn<qint64>("lastBatch");
        // The published CIFAR-10-LT split: 104 x 128 + 110. The graph path used to drop the 110.
        QTest::newRow("13422 / 128, one process") << qint64(13422) << qint64(128) << 1 << qint64(105) << qint64(110);
        QTest::newRow("a multiple of the batch") << qint64(1280) << qint64(128) << 1 << qint64(10) << qint64(128);
        // A remainder of 1 joins the batch before it (batch norm needs 2 images); it used to be dropped.
        QTest::newRow("remainder 1, one process") << qint64(257) << qint64(128) << 1 << qint64(2) << qint64(129);
        QTest::newRow("remainder 2, one process") << qint64(258) << qint64(128) << 1 << qint64(3) << qint64(2);
        // Data-parallel: a remainder smaller than 2 per rank joins the batch before it.
        QTest::newRow("remainder 3 < 4 ranks") << qint64(163) << qint64(16) << 4 << qint64(10) << qint64(19);
        QTest::newRow("remainder 7 < 2 x 4 ranks") << qint64(167) << qint64(16) << 4 << qint64(10) << qint64(23);
        QTest::newRow("remainder 8 = 2 x 4 ranks") << qint64(168) << qint64(16) << 4 << qint64(11) << qint64(8);
        QTest::newRow("13422 / 128, 8 ranks") << qint64(13422) << qint64(128) << 8 << qint64(105) << qint64(110);
        QTest::newRow("smaller than a batch") << qint64(5) << qint64(128) << 2 << qint64(1) << qint64(5);
    }

    void planCoversEveryImageOnce()
    {
        QFETCH(qint64, size);
        QFETCH(qint64, batchSize);
        QFETCH(int, ranks);
        QFETCH(qint64, batches);
        QFETCH(qint64, lastBatch);
        const std::vector<PlannedBatch> plan = planEpochBatches(size, trainingOptions(batchSize, ranks));
        QVERIFY(coversEachImageOnce(size, plan));
        QCOMPARE(plannedDropped(size, plan), int64_t(0));
        QCOMPARE(int64_t(plan.size()), batches);
        QCOMPARE(batchCount(size, trainingOptions(batchSize, ranks)), batches);
        QCOMPARE(plan.back().count, lastBatch);
        for (const PlannedBatch& batch : plan) {
            // The graph replays exactly the batches of the configured size; every other runs eagerly.
            QCOMPARE(batch.fixedShape, batch.count == batchSize);
            // Every rank's share of every batch holds at least 2 images, and the shares are the batch.
            int64_t shares = 0;
            for (int r = 0; r < ranks; ++r) {
                const ShardRange share = shardOfBatch(batch.count, trainingOptions(batchSize, ranks, r));
                QVERIFY2(share.count >= 2, qPrintable(QString("rank %1 gets %2 of a batch of %3").arg(r).arg(share.count).arg(batch.count)));
                QCOMPARE(share.offset, shares);
                shares += share.count;
            }
            QCOMPARE(shares, batch.count);
        }
    }

    // Evaluation keeps the plain remainder (no batch norm statistics are taken); dropLast, which
    // only benchmarks use, says what it leaves out; a training set too small for the ranks is refused.
    void evaluationDropLastAndTooSmallSets()
    {
        BatchOptions evaluation;
        evaluation.batchSize = 128;
        const auto plan = planEpochBatches(257, evaluation);
        QVERIFY(coversEachImageOnce(257, plan));
        QCOMPARE(plan.back().count, int64_t(1));
        evaluation.dropLast = true;
        QCOMPARE(plannedDropped(257, planEpochBatches(257, evaluation)), int64_t(1));
        QCOMPARE(plannedDropped(13422, planEpochBatches(13422, evaluation)), int64_t(110));
        QVERIFY(planEpochBatches(0, trainingOptions(16)).empty());
        QVERIFY(test::throwsInputError([] { planEpochBatches(3, trainingOptions(16, 2)); }, {"3 image(s)", "2 rank(s)"}));
        QVERIFY(test::throwsInputError([] { planEpochBatches(10, trainingOptions(0)); }, {"batch size 0"}));
    }

    // The device batcher follows the plan: over an epoch, the ranks' shares of each batch are its
    // planned rows, each image once, the remainder flagged as not the fixed shape.
    void batcherSharesHoldEveryImageOnce()
    {
        const int64_t size = 163; // 10 x 16 + 3: the 3 join the last batch (4 ranks)
        const Dataset data = numberedImages(size);
        AugmentSpec augment;
        augment.outputSize = 16;
        const Normalization normalization = computeNormalization(data.train.images);
        const std::vector<PlannedBatch> plan = planEpochBatches(size, trainingOptions(16, 4));
        for (int64_t epoch = 1; epoch <= 2; ++epoch) {
            std::vector<torch::Tensor> seen;
            int64_t batches = 0;
            std::vector<std::unique_ptr<BatchSource>> ranks;
            for (int r = 0; r < 4; ++r) {
                ranks.push_back(makeBatchSource(data.train, data.format, torch::kCPU, augment, normalization, trainingOptions(16, 4, r)));
                ranks.back()->startEpoch(epoch);
                QCOMPARE(ranks.back()->batchesPerEpoch(), int64_t(plan.size()));
            }
            Batch share;
            for (size_t b = 0; b < plan.size(); ++b) {
                int64_t images = 0;
                for (auto& rank : ranks) {
                    QVERIFY(rank->next(share));
                    QCOMPARE(share.globalSize, plan[b].count);
                    QCOMPARE(share.fixedShape, plan[b].fixedShape);
                    QVERIFY(share.labels.size(0) >= 2);
                    images += share.labels.size(0);
                    seen.push_back(share.labels);
                }
                QCOMPARE(images, plan[b].count);
                ++batches;
            }
            for (auto& rank : ranks) {
                QVERIFY(!rank->next(share));
            }
            QCOMPARE(batches, int64_t(10)); // the remainder of 3 rode with the tenth batch
            const torch::Tensor all = std::get<0>(torch::cat(seen).sort());
            QVERIFY(torch::equal(all, torch::arange(size, torch::kInt64)));
        }
    }

    // The trainer's eager path (the CPU's, and CUDA's without the graph): every image each epoch,
    // counted where the images were trained and logged, with a set that is no multiple of the batch.
    void eagerTrainingSeesEveryImageEachEpoch()
    {
        TrainConfig config = countingConfig();
        const int64_t size = trainingSetSize(config);
        QVERIFY2(size % config.train.batchSize > 1, qPrintable(QString("%1 images: pick a size with a remainder").arg(size)));
        QTemporaryDir folder;
        std::vector<std::string> messages;
        std::vector<EpochMetrics> epochs;
        TrainingCallbacks callbacks;
        callbacks.onMessage = [&](const std::string& text) { messages.push_back(text); };
        callbacks.onEpoch = [&](const EpochMetrics& metrics) { epochs.push_back(metrics); };
        Trainer(config, folder.path().toStdString()).run(callbacks);
        const LoggedCount count = loggedCount(messages);
        QCOMPARE(count.trained, size);
        QCOMPARE(count.size, size);
        QCOMPARE(count.inGraph, int64_t(-1));
        QCOMPARE(int(epochs.size()), 2);
        for (const EpochMetrics& metrics : epochs) {
            QCOMPARE(qRound64(metrics.imagesPerSecond * metrics.epochSeconds), qint64(size));
        }
    }

    // CUDA: the step as the session builds it (device batcher behind the prefetching source,
    // TrainStep with a captured graph), two epochs over a set of 7 x 16 + 5 images: every image
    // trained each epoch, the 7 full batches of the second epoch all replayed by the graph and the
    // remainder of 5 eagerly beside it.
    void cudaGraphStepTrainsEveryImage()
    {
        if (!torch::cuda::is_available()) {
            QSKIP("no CUDA device: the CUDA graph's replays and the eager remainder beside them are not exercised here "
                  "(the plan they follow is, above)");
        }
        const torch::Device device(torch::kCUDA);
        const int64_t size = 7 * 16 + 5;
        Dataset data = numberedImages(size);
        data.train.labels = data.train.labels.remainder(3);
        AugmentSpec augment;
        augment.outputSize = 16;
        auto batches = makePrefetchingBatchSource(
            makeBatchSource(data.train, data.format, device, augment, computeNormalization(data.train.images), trainingOptions(16)),
            device);
        ModelSpec modelSpec;
        modelSpec.arch = "smallcnn";
        modelSpec.particles = 2;
        modelSpec.inputChannels = data.format.channels;
        modelSpec.numClasses = 3;
        modelSpec.inputSize = 16;
        torch::manual_seed(1);
        ParticleModel model = makeParticleModel(modelSpec);
        model->to(device);
        model->train();
        std::vector<torch::Tensor> parameters;
        for (auto& parameter : model->parameters()) {
            parameters.push_back(parameter);
        }
        FlatSgd optimizer(parameters, 0.9, true, 5e-4);
        optimizer.setLearningRate(0.01);
        ObjectiveSpec objectiveSpec;
        objectiveSpec.drwEpoch = 1;
        LbdObjective objective(objectiveSpec, {40, 40, 37}, device);
        TrainStepOptions options;
        options.cudaGraph = true;
        TrainStep step(model, objective, optimizer, device, options);
        for (int epoch = 1; epoch <= 2; ++epoch) {
            objective.setEpoch(epoch);
            batches->startEpoch(epoch);
            step.resetEpochSums();
            Batch batch;
            while (batches->next(batch)) {
                step.run(batch.images, batch.labels, batch.fixedShape);
            }
            QCOMPARE(step.epochImages(), size);
            QVERIFY2(std::isfinite(step.lastLoss()), "the loss is not finite");
        }
        QVERIFY2(step.usingCudaGraph(), step.graphStatus().c_str());
        QCOMPARE(step.epochGraphImages(), int64_t(7 * 16));
    }

    // CUDA: the whole trainer with its CUDA graph on: the first epoch's count in the log is the
    // training set, and the graph trained all but the warm-up steps and the remainder.
    void cudaGraphTrainerLogsEveryImage()
    {
        if (!torch::cuda::is_available()) {
            QSKIP("no CUDA device: the trainer's CUDA-graph path is not exercised here");
        }
        TrainConfig config = countingConfig();
        config.train.device = "cuda";
        config.train.cudaGraph = true;
        const int64_t size = trainingSetSize(config);
        const int64_t fullBatches = size / config.train.batchSize;
        QVERIFY2(fullBatches > 3, "the tiny set must outlast the graph's 3 warm-up steps");
        QVERIFY2(size % config.train.batchSize > 1, "the remainder must be a batch of its own");
        QTemporaryDir folder;
        std::vector<std::string> messages;
        TrainingCallbacks callbacks;
        callbacks.onMessage = [&](const std::string& text) { messages.push_back(text); };
        Trainer(config, folder.path().toStdString()).run(callbacks);
        const LoggedCount count = loggedCount(messages);
        QCOMPARE(count.trained, size);
        QCOMPARE(count.size, size);
        QCOMPARE(count.inGraph, (fullBatches - 3) * config.train.batchSize);
        QVERIFY(std::any_of(messages.begin(), messages.end(),
                            [](const std::string& m) { return m.find("outside the CUDA graph") != std::string::npos; }));
    }
};

QTEST_APPLESS_MAIN(TestEpochPlan)
#include "test_epochplan.moc"
