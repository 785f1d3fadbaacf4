// Data-parallel training steps (TrainStep with a Communicator): two ranks, each on its half of
// every batch, take exactly the step of one process that averages the gradients of the two halves
// (batch norm per rank: each half's forward sees its own batch statistics), and stay identical;
// with synchronised batch norm they take one process's step on the whole batch.
#include "core/data/datapreparation.h"
#include "core/data/epochorder.h"
#include "core/dist/communicator.h"
#include "core/dist/gradientreducer.h"
#include "core/dist/syncbatchnorm.h"
#include "core/lbd/objective.h"
#include "core/model/modelfactory.h"
#include "core/train/flatsgd.h"
#include "core/train/trainer.h"
#include "core/train/trainstep.h"
#include "tests/support/expect.h"
#include "tests/support/tinyconfig.h"

#include <QTemporaryDir>
#include <QtTest>

#include <future>
#include <mutex>


using namespace lbd;

namespace {

constexpr int kSteps = 4;
constexpr int64_t kBatch = 12;

ModelSpec tinyModel()
{
    ModelSpec spec;
    spec.arch = "smallcnn";
    spec.particles = 2;
    spec.inputChannels = 1;
    spec.numClasses = 3;
    spec.inputSize = 16;
    return spec;
}

ObjectiveSpec objectiveSpec(int drwEpoch = 0)
{
    ObjectiveSpec spec;
    spec.drwEpoch = drwEpoch; // 0: re-weighting from the first step
    spec.ldamMargins = true;
    spec.repulsive = true;  // a term of the parameters alone: the same on every rank
    return spec;
}

const std::vector<int64_t> kCounts = {40, 12, 4};

struct Replica {
    ParticleModel model{nullptr};
    std::unique_ptr<FlatSgd> optimizer;
    std::unique_ptr<LbdObjective> objective;
};

Replica makeReplica(int drwEpoch = 0, double learningRate = 0.05)
{
    static std::mutex generator;
    const std::lock_guard<std::mutex> lock(generator);
    torch::manual_seed(3);
    Replica replica;
    replica.model = makeParticleModel(tinyModel());
    replica.model->train();
    std::vector<torch::Tensor> parameters;
    for (auto& parameter : replica.model->parameters()) {
        parameters.push_back(parameter);
    }
    replica.optimizer = std::make_unique<FlatSgd>(parameters, 0.9, true, 5e-4);
    replica.optimizer->setLearningRate(learningRate);
    replica.objective = std::make_unique<LbdObjective>(objectiveSpec(drwEpoch), kCounts, torch::kCPU);
    replica.objective->setEpoch(1);
    return replica;
}

struct Batches {
    std::vector<torch::Tensor> images, labels;
};

Batches fixedBatches()
{
    torch::manual_seed(11);
    Batches batches;
    for (int step = 0; step < kSteps; ++step) {
        batches.images.push_back(torch::randn({kBatch, 1, 16, 16}));
        batches.labels.push_back(torch::randint(0, 3, {kBatch}, torch::kInt64));
    }
    return batches;
}


DistributedSpec rankOf(int rank, int port)
{
    DistributedSpec spec;
    spec.rank = rank;
    spec.worldSize = 2;
    spec.masterPort = port;
    spec.timeout = std::chrono::seconds(30);
    return spec;
}

// Runs `rank(0)` here and `rank(1)` on a second thread, as the two ranks of one group.
template <typename Rank>
void runTwoRanks(Rank rank)
{
    auto second = std::async(std::launch::async, rank, 1);
    rank(0);
    second.get();
}

// Rank r of 2 trains its half of every batch with a TrainStep of these options.
void trainHalves(Replica& replica, const Batches& batches, int rank, TrainStepOptions options)
{
    TrainStep trainStep(replica.model, *replica.objective, *replica.optimizer, torch::kCPU, options);
    const int64_t half = kBatch / 2;
    for (int step = 0; step < kSteps; ++step) {
        trainStep.run(batches.images[step].narrow(0, rank * half, half), batches.labels[step].narrow(0, rank * half, half));
    }
}

} // namespace

class TestDataParallel : public QObject {
    Q_OBJECT

private slots:
    // The layer alone: each rank's half through syncBatchNorm gives the whole batch's batch norm,
    // forward and backward (the input gradients of the loss summed over the ranks).
    void syncBatchNormIsBatchNormOfTheWholeBatch()
    {
        if (!distributedAvailable()) {
            QSKIP("this LibTorch has no c10d/Gloo");
        }
        torch::manual_seed(5);
        const torch::Tensor x = torch::randn({8, 3, 5, 5}) * 2 + 1;
        const torch::Tensor upstream = torch::randn({8, 3, 5, 5});
        const torch::Tensor weight = torch::rand({3}) + 0.5;
        const torch::Tensor bias = torch::randn({3});
        torch::Tensor wholeX = x.clone().requires_grad_(true);
        torch::Tensor wholeMean = torch::zeros({3}), wholeVar = torch::ones({3});
        const torch::Tensor y = torch::batch_norm(wholeX, weight, bias, wholeMean, wholeVar, true, 0.1, 1e-5, false);
        (y * upstream).sum().backward();

        const int port = freeLocalPort();
        std::vector<torch::Tensor> outputs(2), gradients(2), means(2);
        runTwoRanks([&](int r) {
            Communicator communicator(rankOf(r, port));
            torch::Tensor half = x.narrow(0, r * 4, 4).clone().requires_grad_(true);
            torch::Tensor mean = torch::zeros({3}), var = torch::ones({3});
            const torch::Tensor out = syncBatchNorm(half, weight, bias, mean, var, 0.1, 1e-5, communicator);
            (out * upstream.narrow(0, r * 4, 4)).sum().backward();
            outputs[r] = out.detach();
            gradients[r] = half.grad();
            means[r] = torch::cat({mean, var});
        });
        QVERIFY(torch::allclose(torch::cat(outputs), y.detach(), 1e-5, 1e-5));
        QVERIFY(torch::allclose(torch::cat(gradients), wholeX.grad(), 1e-5, 1e-5));
        QVERIFY(torch::allclose(means[0], torch::cat({wholeMean, wholeVar}), 1e-5, 1e-5));
    }

    // Gradients averaged in DDP-style buckets started from the backward pass (the default, and
    // buckets of a few parameters each) or in one all-reduce after it: the same step.
    void twoRanksTakeTheAveragedStepOfTheirHalves_data()
    {
        QTest::addColumn<qint64>("bucketBytes");
        QTest::newRow("default buckets (25 MB: one here)") << qint64(TrainStepOptions{}.gradientBucketBytes);
        QTest::newRow("64-byte buckets, overlapped") << qint64(64);
        QTest::newRow("one all-reduce after backward") << qint64(0);
    }

    void twoRanksTakeTheAveragedStepOfTheirHalves()
    {
        QFETCH(qint64, bucketBytes);
        if (!distributedAvailable()) {
            QSKIP("this LibTorch has no c10d/Gloo");
        }
        torch::set_num_threads(1);
        const Batches batches = fixedBatches();
        const int64_t half = kBatch / 2;

        // One process: for each batch, the gradients of its two halves, each normalised by the
        // whole batch's sum of weights (objective.h GlobalBatch), averaged, then one step.
        Replica reference = makeReplica();
        for (int step = 0; step < kSteps; ++step) {
            torch::Tensor sum = torch::zeros_like(reference.optimizer->flatGradients());
            const GlobalBatch global{torch::bincount(batches.labels[step], {}, 3).to(torch::kFloat), 2};
            for (int64_t rank = 0; rank < 2; ++rank) {
                reference.optimizer->zeroGrad();
                const torch::Tensor images = batches.images[step].narrow(0, rank * half, half);
                const torch::Tensor labels = batches.labels[step].narrow(0, rank * half, half);
                const torch::Tensor logits = reference.model->forward(images).to(torch::kFloat32);
                reference.objective->compute(logits, labels, reference.model->classifierWeights(), &global).total.backward();
                sum += reference.optimizer->flatGradients();
            }
            reference.optimizer->flatGradients().copy_(sum / 2);
            reference.optimizer->step();
        }

        // Two ranks, each with its own replica, its half, and the gradients averaged by Gloo.
        Replica replicas[2] = {makeReplica(), makeReplica()};
        const int port = freeLocalPort();
        std::vector<int64_t> images(2), buckets(2), overlapped(2);
        runTwoRanks([&](int r) {
            Communicator communicator(rankOf(r, port));
            TrainStepOptions options;
            options.communicator = &communicator;
            options.gradientBucketBytes = bucketBytes;
            TrainStep trainStep(replicas[r].model, *replicas[r].objective, *replicas[r].optimizer, torch::kCPU, options);
            for (int step = 0; step < kSteps; ++step) {
                trainStep.run(batches.images[step].narrow(0, r * half, half), batches.labels[step].narrow(0, r * half, half));
            }
            trainStep.reduceEpochSums();
            images[r] = trainStep.epochImages();
            const GradientReducer* reducer = trainStep.gradientReducer();
            buckets[r] = reducer ? reducer->bucketCount() : 0;
            overlapped[r] = reducer ? reducer->bucketsStartedDuringBackward() : 0;
        });
        if (bucketBytes == 0) {
            QCOMPARE(buckets, (std::vector<int64_t>{0, 0}));
        } else if (bucketBytes < 1024) {
            // About a bucket per parameter, and most of them start while backward still runs
            // (the ones whose parameters it reaches last, the stem's, start at its end).
            QVERIFY2(buckets[0] >= 4, qPrintable(QString("%1 buckets").arg(buckets[0])));
            QVERIFY2(overlapped[0] >= buckets[0] / 2,
                     qPrintable(QString("%1 of %2 buckets started during backward").arg(overlapped[0]).arg(buckets[0])));
        }
        // The epoch's count covers both ranks' images.
        QCOMPARE(images, (std::vector<int64_t>{kSteps * kBatch, kSteps * kBatch}));

        const torch::Tensor& first = replicas[0].optimizer->flatParameters();
        QVERIFY(torch::equal(first, replicas[1].optimizer->flatParameters()));
        const double difference = (first - reference.optimizer->flatParameters()).abs().max().item<double>();
        QVERIFY2(difference < 1e-5, qPrintable(QString("largest difference %1").arg(difference)));
        // And the test can tell: without averaging (one half's gradient alone) the weights differ.
        Replica alone = makeReplica();
        for (int step = 0; step < kSteps; ++step) {
            alone.optimizer->zeroGrad();
            const torch::Tensor logits = alone.model->forward(batches.images[step].narrow(0, 0, half)).to(torch::kFloat32);
            alone.objective->compute(logits, batches.labels[step].narrow(0, 0, half), alone.model->classifierWeights()).total.backward();
            alone.optimizer->step();
        }
        QVERIFY((first - alone.optimizer->flatParameters()).abs().max().item<double>() > 1e-4);
    }

    // With synchronised batch norm and equal per-rank loss normalisers (no re-weighting yet: every
    // image weighs 1), two ranks on their halves compute exactly one process's step on the whole
    // batch: the weights and the batch-norm running statistics agree.
    void withSyncBatchNormTwoRanksEqualOneProcessOnTheWholeBatch()
    {
        if (!distributedAvailable()) {
            QSKIP("this LibTorch has no c10d/Gloo");
        }
        torch::set_num_threads(1);
        const Batches batches = fixedBatches();
        const int64_t half = kBatch / 2;
        constexpr int kNoReweighting = 100;
        // At 0.05 this tiny model on random data amplifies float rounding about 80-fold a step
        // (measured: 2e-7 after one step, 3e-4 after four): the comparison would measure chaos,
        // not the distribution. At 0.005 the difference stays at rounding (1.2e-7 after four).
        constexpr double kGentle = 0.005;

        Replica whole = makeReplica(kNoReweighting, kGentle);
        {
            TrainStep trainStep(whole.model, *whole.objective, *whole.optimizer, torch::kCPU, TrainStepOptions{});
            for (int step = 0; step < kSteps; ++step) {
                trainStep.run(batches.images[step], batches.labels[step]);
            }
        }
        Replica replicas[2] = {makeReplica(kNoReweighting, kGentle), makeReplica(kNoReweighting, kGentle)};
        const int port = freeLocalPort();
        runTwoRanks([&](int r) {
            Communicator communicator(rankOf(r, port));
            TrainStepOptions options;
            options.communicator = &communicator;
            options.syncBatchNorm = true;
            trainHalves(replicas[r], batches, r, options);
        });
        const double weights =
            (replicas[0].optimizer->flatParameters() - whole.optimizer->flatParameters()).abs().max().item<double>();
        QVERIFY2(weights < 1e-6, qPrintable(QString("weights differ by %1").arg(weights)));
        QVERIFY(torch::equal(replicas[0].optimizer->flatParameters(), replicas[1].optimizer->flatParameters()));
        // And the test can tell: without synchronised batch norm the two ranks' step differs.
        Replica perRank = makeReplica(kNoReweighting, kGentle);
        for (int step = 0; step < kSteps; ++step) {
            torch::Tensor sum = torch::zeros_like(perRank.optimizer->flatGradients());
            for (int64_t r = 0; r < 2; ++r) {
                perRank.optimizer->zeroGrad();
                const torch::Tensor logits = perRank.model->forward(batches.images[step].narrow(0, r * half, half));
                perRank.objective->compute(logits, batches.labels[step].narrow(0, r * half, half), perRank.model->classifierWeights())
                    .total.backward();
                sum += perRank.optimizer->flatGradients();
            }
            perRank.optimizer->flatGradients().copy_(sum / 2);
            perRank.optimizer->step();
        }
        QVERIFY((perRank.optimizer->flatParameters() - whole.optimizer->flatParameters()).abs().max().item<double>() > 1e-5);
        const auto buffers = replicas[0].model->buffers();
        const auto reference = whole.model->buffers();
        QCOMPARE(buffers.size(), reference.size());
        for (size_t i = 0; i < buffers.size(); ++i) {
            if (buffers[i].is_floating_point()) {
                const double difference = (buffers[i] - reference[i]).abs().max().item<double>();
                QVERIFY2(difference < 1e-5, qPrintable(QString("running statistic %1 differs by %2").arg(i).arg(difference)));
            }
        }
    }

    // The objective alone: shares of one batch normalised by the global batch (GlobalBatch) are,
    // averaged, the whole batch's objective and its parts, for every utility form, with DRW
    // weights on; normalised by their own shares (nullptr) they are not.
    void sharesOfTheGlobalBatchAverageToItsObjective_data()
    {
        QTest::addColumn<int>("form");
        QTest::newRow("bounded") << int(UtilityForm::Bounded);
        QTest::newRow("published") << int(UtilityForm::Published);
        QTest::newRow("paper") << int(UtilityForm::Paper);
    }

    void sharesOfTheGlobalBatchAverageToItsObjective()
    {
        QFETCH(int, form);
        ObjectiveSpec spec = objectiveSpec(0);
        spec.utilityForm = static_cast<UtilityForm>(form);
        spec.utilityMatrix = {1.0, -0.5, 0.0, 0.3, 1.0, -0.4, 0.6, 0.2, 1.0};
        spec.alpha = 0.5;
        LbdObjective objective(spec, {200, 20, 2}, torch::kCPU);
        objective.setEpoch(2);
        QVERIFY(objective.utilityActive());
        torch::manual_seed(23);
        const torch::Tensor logits = torch::randn({2, 9, 3}) * 5;
        const torch::Tensor labels = torch::tensor({0, 0, 0, 0, 1, 2, 1, 2, 2}, torch::kInt64);
        const torch::Tensor classifier = torch::randn({2, 3, 4});
        const ObjectiveValues whole = LbdObjective::values(objective.compute(logits, labels, classifier));
        const GlobalBatch global{torch::bincount(labels, {}, 3).to(torch::kFloat), 3};
        const std::vector<std::pair<int64_t, int64_t>> shares = {{0, 4}, {4, 2}, {6, 3}}; // uneven, as a remainder's
        ObjectiveValues mean, ownMean;
        for (const auto& [offset, count] : shares) {
            const auto part = [&](const GlobalBatch* g) {
                return LbdObjective::values(
                    objective.compute(logits.narrow(1, offset, count), labels.narrow(0, offset, count), classifier, g));
            };
            const ObjectiveValues share = part(&global), own = part(nullptr);
            mean.total += share.total / 3;
            mean.weightedCe += share.weightedCe / 3;
            mean.utility += share.utility / 3;
            mean.repulsive += share.repulsive / 3;
            ownMean.total += own.total / 3;
        }
        QVERIFY2(std::abs(mean.total - whole.total) < 1e-5, qPrintable(QString("%1 vs %2").arg(mean.total).arg(whole.total)));
        QVERIFY(std::abs(mean.weightedCe - whole.weightedCe) < 1e-5);
        QVERIFY(std::abs(mean.utility - whole.utility) < 1e-5);
        QVERIFY(std::abs(mean.repulsive - whole.repulsive) < 1e-6);
        QVERIFY2(std::abs(ownMean.total - whole.total) > 1e-2, qPrintable(QString::number(ownMean.total - whole.total)));
        QVERIFY(test::throwsInputError([&] { GlobalBatch bad{torch::ones({2}), 3}; objective.compute(logits, labels, classifier, &bad); },
                                       {"classCounts", "C = 3"}));
    }

    // lbd-math.md section 8: N ranks compute one process's gradient on the same global batch,
    // after the DRW epoch too. Classes whose weights differ 100-fold, spread unevenly over the
    // ranks (rank 0's share mostly the head class, rank 1's the rare ones), global batches of 12
    // and 7 images (shares 6 + 6 and 3 + 4: an epoch's remainder), epoch 1 (every weight 1, no
    // utility term) then epoch 2 (DRW weights and the utility term on). Batch norm synchronised,
    // so the forward pass is the global batch's: the gradient all-reduced over two Gloo ranks
    // equals one process's gradient on the whole batch (fp32, 1e-5) at every step. With each
    // rank normalising by its own share's weights (the code before this test), it did not.
    void twoRanksComputeOneProcessesGradientAcrossTheDrwEpoch()
    {
        if (!distributedAvailable()) {
            QSKIP("this LibTorch has no c10d/Gloo");
        }
        torch::set_num_threads(1);
        const std::vector<int64_t> counts = {200, 20, 2}; // linear ratio: weights 1 : 10 : 100
        const auto replica = [&] {
            // Learning rate 0: every step's gradient is compared at the same weights (a moving
            // model amplifies float rounding about 80-fold a step, see below).
            Replica made = makeReplica(/*drwEpoch=*/1, /*learningRate=*/0.0);
            ObjectiveSpec spec = objectiveSpec(1);
            spec.utilityTerm = true;
            spec.alpha = 0.5;
            spec.utilityMatrix = {1.0, -0.5, 0.0, 0.3, 1.0, -0.4, 0.6, 0.2, 1.0}; // off-diagonal both signs
            made.objective = std::make_unique<LbdObjective>(spec, counts, torch::kCPU);
            return made;
        };
        struct Step {
            int epoch;
            torch::Tensor images, labels;
        };
        torch::manual_seed(17);
        const torch::Tensor full = torch::tensor({0, 0, 0, 0, 0, 1, 2, 1, 2, 2, 0, 1}, torch::kInt64);
        const torch::Tensor remainder = torch::tensor({0, 0, 1, 2, 2, 0, 2}, torch::kInt64);
        std::vector<Step> steps;
        for (int epoch = 1; epoch <= 2; ++epoch) {
            steps.push_back({epoch, torch::randn({12, 1, 16, 16}), full});
            steps.push_back({epoch, torch::randn({7, 1, 16, 16}), remainder});
        }

        // One process on every whole batch: its gradient at each step (FlatSgd leaves it in place).
        Replica whole = replica();
        std::vector<torch::Tensor> expected;
        {
            TrainStep trainStep(whole.model, *whole.objective, *whole.optimizer, torch::kCPU, TrainStepOptions{});
            for (const Step& step : steps) {
                whole.objective->setEpoch(step.epoch);
                trainStep.run(step.images, step.labels);
                expected.push_back(whole.optimizer->flatGradients().clone());
            }
        }
        QVERIFY(whole.objective->utilityActive());

        Replica replicas[2] = {replica(), replica()};
        std::vector<torch::Tensor> reduced[2];
        const int port = freeLocalPort();
        runTwoRanks([&](int r) {
            Communicator communicator(rankOf(r, port));
            TrainStepOptions options;
            options.communicator = &communicator;
            options.syncBatchNorm = true;
            TrainStep trainStep(replicas[r].model, *replicas[r].objective, *replicas[r].optimizer, torch::kCPU, options);
            BatchOptions shares;
            shares.shardIndex = r;
            shares.shardCount = 2;
            for (const Step& step : steps) {
                replicas[r].objective->setEpoch(step.epoch);
                const ShardRange share = shardOfBatch(step.labels.size(0), shares);
                trainStep.run(step.images.narrow(0, share.offset, share.count), step.labels.narrow(0, share.offset, share.count));
                reduced[r].push_back(replicas[r].optimizer->flatGradients().clone());
            }
        });
        for (size_t i = 0; i < steps.size(); ++i) {
            const double scale = expected[i].abs().max().item<double>();
            const double difference = (reduced[0][i] - expected[i]).abs().max().item<double>();
            QVERIFY2(scale > 1e-3, qPrintable(QString("step %1: a gradient of %2 tests nothing").arg(i).arg(scale)));
            QVERIFY2(difference < 1e-5, qPrintable(QString("step %1 (epoch %2, %3 images): the all-reduced gradient differs "
                                                           "from one process's by %4 (largest entry %5)")
                                                       .arg(i).arg(steps[i].epoch).arg(steps[i].labels.size(0))
                                                       .arg(difference).arg(scale)));
            QVERIFY(torch::equal(reduced[0][i], reduced[1][i]));
        }
    }

    // Rank 0's batch progress (the launcher's progress bar) counts every rank's images: at the last
    // batch of the last epoch the images left (ETA x images/s) are less than one global batch, not
    // the other ranks' half of the epoch; and its images/s is the epoch's (every rank's) rate.
    void rankZerosProgressCountsEveryRanksImages()
    {
        lbd::TrainConfig config = test::tinyConfig(2);
        config.train.threads = 1;
        config.train.batchSize = 16;
        config.data.synthetic.trainPerClass = 80;
        QTemporaryDir folders;
        const int port = freeLocalPort();
        BatchProgress lastBatch;
        EpochMetrics lastEpoch;
        runTwoRanks([&](int r) {
            TrainingCallbacks callbacks;
            if (r == 0) {
                callbacks.onBatch = [&](const BatchProgress& progress) { lastBatch = progress; };
                callbacks.onEpoch = [&](const EpochMetrics& metrics) { lastEpoch = metrics; };
            }
            Trainer trainer(config, folders.filePath(QStringLiteral("rank%1").arg(r)).toStdString());
            trainer.setDistributed(rankOf(r, port));
            trainer.run(callbacks);
        });
        QCOMPARE(lastEpoch.epoch, 2);
        QCOMPARE(lastBatch.epoch, 2);
        QCOMPARE(lastBatch.batch, lastBatch.batches);
        QVERIFY(lastBatch.batches >= 4);
        const double imagesLeft = lastBatch.etaSeconds * lastBatch.imagesPerSecond;
        QVERIFY2(imagesLeft < double(config.train.batchSize) - 0.5, qPrintable(QString::number(imagesLeft)));
        // Every training image, the last batch's remainder included (no batch is dropped).
        const int64_t trainingImages = prepareData(config.data).dataset.train.size();
        QVERIFY2(trainingImages % config.train.batchSize != 0, "pick a training set with a remainder");
        const double epochImages = lastEpoch.imagesPerSecond * lastEpoch.epochSeconds;
        QCOMPARE(qRound64(epochImages), qint64(trainingImages));
        const double ratio = lastBatch.imagesPerSecond / lastEpoch.imagesPerSecond;
        QVERIFY2(ratio > 0.75 && ratio < 1.5, qPrintable(QString::number(ratio)));
    }
};

QTEST_APPLESS_MAIN(TestDataParallel)
#include "test_dataparallel.moc"
