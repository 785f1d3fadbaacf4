// Data-parallel evaluation (core/dist/shardedevaluation.h): ranks that each compute their share
// of every evaluation batch end with the very probabilities and labels one process computes on
// the whole split, in the split's order, also when a short last batch leaves a rank nothing.
#include "core/data/batchsource.h"
#include "core/data/syntheticdataset.h"
#include "core/dist/communicator.h"
#include "core/dist/shardedevaluation.h"
#include "core/model/modelfactory.h"

#include <QtTest>

#include <future>
#include <mutex>
#include <vector>

using namespace lbd;

namespace {

ParticleModel tinyModel()
{
    static std::mutex generator; // the ranks build their models at once: one seed, one model
    const std::lock_guard<std::mutex> lock(generator);
    ModelSpec spec;
    spec.arch = "smallcnn";
    spec.particles = 2;
    spec.inputChannels = 1;
    spec.numClasses = 3;
    spec.inputSize = 16;
    torch::manual_seed(9);
    ParticleModel model = makeParticleModel(spec);
    model->train(); // particleProbabilities must switch to eval and back
    return model;
}

// 3 classes of 16 x 16 shapes: 21 test images, evaluated in batches of 8 (8, 8, 5).
Dataset data()
{
    SyntheticSpec synthetic;
    synthetic.classes = 3;
    synthetic.trainPerClass = 4;
    synthetic.testPerClass = 7;
    synthetic.channels = 1;
    synthetic.size = 16;
    return makeSyntheticDataset(synthetic);
}

BatchOptions evalOptions(int rank, int ranks, int64_t batchSize)
{
    BatchOptions options;
    options.batchSize = batchSize;
    options.shuffle = false;
    options.augment = false;
    options.shardIndex = rank;
    options.shardCount = ranks;
    return options;
}

} // namespace

class TestShardedEvaluation : public QObject {
    Q_OBJECT

private slots:
    void theRanksSharesMakeUpTheWholeSplit_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("batchSize");
        QTest::newRow("2 ranks, batches of 8 (8, 8, 5)") << 2 << 8;
        QTest::newRow("3 ranks, batches of 4 (the last, 1 image: two ranks get none)") << 3 << 4;
    }

    void theRanksSharesMakeUpTheWholeSplit()
    {
        if (!distributedAvailable()) {
            QSKIP("this LibTorch has no c10d/Gloo");
        }
        QFETCH(int, ranks);
        QFETCH(int, batchSize);
        const Dataset dataset = data();
        AugmentSpec augment;
        augment.outputSize = 16;
        const Normalization normalization{{0.5f}, {0.25f}};
        ParticleModel alone = tinyModel();
        auto whole = makeBatchSource(dataset.test, dataset.format, torch::kCPU, augment, normalization, evalOptions(0, 1, batchSize));
        const SplitProbabilities expected = particleProbabilities(alone, *whole);
        QCOMPARE(expected.labels.size(0), int64_t(21));

        const int port = freeLocalPort();
        std::vector<SplitProbabilities> gathered(static_cast<size_t>(ranks));
        const auto rank = [&](int r) {
            DistributedSpec spec;
            spec.rank = r;
            spec.localRank = r;
            spec.worldSize = ranks;
            spec.masterPort = port;
            spec.timeout = std::chrono::seconds(30);
            Communicator communicator(spec);
            ParticleModel model = tinyModel();
            const BatchOptions options = evalOptions(r, ranks, batchSize);
            auto shard = makeBatchSource(dataset.test, dataset.format, torch::kCPU, augment, normalization, options);
            gathered[static_cast<size_t>(r)] = gatherShardedProbabilities(model, *shard, options, dataset.test.size(), communicator,
                                                                          torch::kFloat32, torch::kCPU);
            QVERIFY(model->is_training());
        };
        std::vector<std::future<void>> others;
        for (int r = 1; r < ranks; ++r) {
            others.push_back(std::async(std::launch::async, rank, r));
        }
        rank(0);
        for (auto& other : others) {
            other.get();
        }
        for (const SplitProbabilities& result : gathered) {
            QVERIFY(torch::equal(result.labels, expected.labels));
            QCOMPARE(result.probabilities.sizes().vec(), expected.probabilities.sizes().vec());
            // The same model on the same images; only the batch each image shared differs.
            QVERIFY2(torch::allclose(result.probabilities, expected.probabilities, 1e-5, 1e-6),
                     qPrintable(QString::number((result.probabilities - expected.probabilities).abs().max().item<double>())));
        }
    }
};

QTEST_APPLESS_MAIN(TestShardedEvaluation)
#include "test_shardedevaluation.moc"
