// Long-tailed splits and regions (lbd-math.md sections 1-2).
#include "core/data/datapreparation.h"
#include "core/data/longtail.h"
#include "core/data/regions.h"
#include "core/data/syntheticdataset.h"
#include "tests/support/expect.h"

#include <QTemporaryDir>

#include <algorithm>
#include <numeric>

using namespace lbd;
using test::throwsInputError;

namespace {

int64_t sum(const std::vector<int64_t>& values)
{
    return std::accumulate(values.begin(), values.end(), int64_t(0));
}

LongTailSpec exponential(double ratio, uint64_t seed = 0)
{
    LongTailSpec spec;
    spec.imbalanceRatio = ratio;
    spec.seed = seed;
    return spec;
}

} // namespace

class TestLongTail : public QObject {
    Q_OBJECT
private slots:
    void exponentialCountsMatchThePublishedSets()
    {
        QCOMPARE(longTailCounts(5000, 10, exponential(100)),
                 (std::vector<int64_t>{5000, 2997, 1796, 1077, 645, 387, 232, 139, 83, 50}));
        QCOMPARE(sum(longTailCounts(5000, 10, exponential(100))), int64_t(12406));
        QCOMPARE(sum(longTailCounts(500, 100, exponential(100))), int64_t(10847));
        QCOMPARE(longTailCounts(6000, 10, exponential(100)),
                 (std::vector<int64_t>{6000, 3596, 2156, 1292, 774, 464, 278, 166, 100, 60}));
        QCOMPARE(sum(longTailCounts(6000, 10, exponential(100))), int64_t(14886));
        QCOMPARE(longTailCounts(100, 4, exponential(1)), std::vector<int64_t>(4, 100));
    }

    // The published code's split (lbd-math.md section 1): CIFAR-10 keeps
    // [5000, 3156, 1992, 1257, 793, 501, 316, 200, 127, 80], an effective ratio of 62.5.
    void publishedProfileMatchesTheCifarCode()
    {
        LongTailSpec spec = exponential(100);
        spec.profile = LongTailProfile::Published;
        const auto counts = longTailCounts(5000, 10, spec);
        QCOMPARE(counts, (std::vector<int64_t>{5000, 3156, 1992, 1257, 793, 501, 316, 200, 127, 80}));
        QCOMPARE(static_cast<double>(counts.front()) / static_cast<double>(counts.back()), 62.5);
        QCOMPARE(parseProfile("lbd-published"), LongTailProfile::Published);
        QCOMPARE(profileName(LongTailProfile::Published), std::string("lbd-published"));
        // CIFAR-100: ds = 100 / ln 100 = 21.7147; the tail class keeps int(500 e^(-99/21.7147) + 0.5) + 1.
        const auto hundred = longTailCounts(500, 100, spec);
        QCOMPARE(hundred.front(), int64_t(500));
        QCOMPARE(hundred.back(), int64_t(6));
    }

    // A validation hold-out: seeded, per class, at least one image, never a class's last
    // training image; the kept images are those of the split without hold-out.
    void validationHoldOut()
    {
        SyntheticSpec synthetic;
        synthetic.classes = 5;
        synthetic.trainPerClass = 40;
        synthetic.testPerClass = 2;
        synthetic.size = 8;
        const Dataset data = makeSyntheticDataset(synthetic);
        const LongTailSplit plain = makeLongTailSplit(data, exponential(10, 1));
        LongTailSpec spec = exponential(10, 1);
        spec.validationFraction = 0.25;
        const LongTailSplit held = makeLongTailSplit(data, spec);
        QCOMPARE(held.validationCounts, (std::vector<int64_t>{10, 6, 3, 2, 1}));
        QCOMPARE(held.classCounts, (std::vector<int64_t>{30, 16, 9, 5, 3}));
        std::vector<int64_t> together = held.trainIndices;
        together.insert(together.end(), held.validationIndices.begin(), held.validationIndices.end());
        std::sort(together.begin(), together.end());
        QCOMPARE(together, plain.trainIndices);
        QCOMPARE(makeLongTailSplit(data, spec).validationIndices, held.validationIndices); // seeded
        QCOMPARE(countPerClass(validationSplit(data, held).labels, 5), held.validationCounts);
        QCOMPARE(countPerClass(applyLongTailSplit(data, held).labels, 5), held.classCounts);

        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/split.json";
        saveLongTailSplit(held, path);
        const auto loaded = loadLongTailSplit(path);
        QCOMPARE(loaded.validationIndices, held.validationIndices);
        QCOMPARE(loaded.spec.validationFraction, 0.25);

        DataSpec dataSpec;
        dataSpec.dataset = "synthetic";
        dataSpec.synthetic = synthetic;
        dataSpec.longTail = spec;
        const PreparedData prepared = prepareData(dataSpec);
        QCOMPARE(prepared.dataset.validation.size(), int64_t(22));
        QCOMPARE(prepared.trainCounts, held.classCounts);
    }

    void stepProfile()
    {
        LongTailSpec spec = exponential(10);
        spec.profile = LongTailProfile::Step;
        QCOMPARE(longTailCounts(500, 5, spec), (std::vector<int64_t>{500, 500, 50, 50, 50}));
    }

    void invalidRatioIsRefused()
    {
        QVERIFY(throwsInputError([] { longTailCounts(10, 3, exponential(0.5)); }, {"imbalance_ratio"}));
        QVERIFY(throwsInputError([] { longTailCounts(10, 3, exponential(std::nan(""))); }, {"imbalance_ratio"}));
        QVERIFY(throwsInputError([] { longTailCounts(10, 3, exponential(INFINITY)); }, {"imbalance_ratio"}));
    }

    void splitIsSeededAndReproducible()
    {
        SyntheticSpec synthetic;
        synthetic.classes = 5;
        synthetic.trainPerClass = 40;
        synthetic.testPerClass = 2;
        synthetic.size = 8;
        const Dataset data = makeSyntheticDataset(synthetic);
        const auto a = makeLongTailSplit(data, exponential(10, 1));
        const auto b = makeLongTailSplit(data, exponential(10, 1));
        const auto c = makeLongTailSplit(data, exponential(10, 2));
        QCOMPARE(a.trainIndices, b.trainIndices);
        QVERIFY(a.trainIndices != c.trainIndices);
        QCOMPARE(a.classCounts, c.classCounts);
        QCOMPARE(a.classCounts, (std::vector<int64_t>{40, 22, 12, 7, 4}));
        const DataSplit subset = applyLongTailSplit(data, a);
        QCOMPARE(countPerClass(subset.labels, 5), a.classCounts);

        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/split.json";
        saveLongTailSplit(a, path);
        const auto loaded = loadLongTailSplit(path);
        QCOMPARE(loaded.trainIndices, a.trainIndices);
        QCOMPARE(loaded.classCounts, a.classCounts);
        QCOMPARE(loaded.spec.seed, uint64_t(1));

        LongTailSplit foreign = a;
        foreign.dataset = "cifar10";
        QVERIFY(throwsInputError([&] { applyLongTailSplit(data, foreign); }, {"cifar10"}));
    }

    void realFashionMnistLongTail()
    {
        if (!QFile::exists(LBD_FASHION_MNIST_DIR "/train-images-idx3-ubyte.gz")) {
            QSKIP("dataset-fashion-mnist is not installed");
        }
        DataSpec spec;
        const PreparedData prepared = prepareData(spec);
        QCOMPARE(prepared.trainCounts, (std::vector<int64_t>{6000, 3596, 2156, 1292, 774, 464, 278, 166, 100, 60}));
        QCOMPARE(prepared.dataset.train.size(), int64_t(14886));
        QCOMPARE(prepared.testCounts, std::vector<int64_t>(10, 1000));
        QCOMPARE(countPerClass(prepared.dataset.train.labels, 10), prepared.trainCounts);
    }

    void regionsByThirdsAndByCount()
    {
        const std::vector<int64_t> ten{6000, 3596, 2156, 1292, 774, 464, 278, 166, 100, 60};
        const auto thirds = classRegions(ten, RegionScheme::ThirdsByIndex);
        QCOMPARE(int(thirds[2]), int(Region::Head));
        QCOMPARE(int(thirds[3]), int(Region::Medium));
        QCOMPARE(int(thirds[5]), int(Region::Medium));
        QCOMPARE(int(thirds[6]), int(Region::Tail));
        const auto hundred = classRegions(std::vector<int64_t>(100, 5), RegionScheme::ThirdsByIndex);
        QCOMPARE(std::count(hundred.begin(), hundred.end(), Region::Head), std::ptrdiff_t(33));
        QCOMPARE(std::count(hundred.begin(), hundred.end(), Region::Tail), std::ptrdiff_t(34));
        const auto counts = classRegions({500, 101, 100, 20, 19, 1}, RegionScheme::ByTrainCount);
        QCOMPARE(int(counts[1]), int(Region::Head));
        QCOMPARE(int(counts[2]), int(Region::Medium));
        QCOMPARE(int(counts[3]), int(Region::Medium));
        QCOMPARE(int(counts[4]), int(Region::Tail));
        QCOMPARE(regionName(Region::Tail, RegionScheme::ByTrainCount), std::string("few"));
    }
};

QTEST_APPLESS_MAIN(TestLongTail)
#include "test_longtail.moc"
