// The synthetic shapes (datasets/synthetic): seeded, named as the catalogue entry previews them,
// and settings out of range named.
#include "datasets/catalogue.h"
#include "datasets/synthetic/syntheticdataset.h"
#include "tests/support/expect.h"

using namespace lbd;
using test::throwsInputError;

class TestSynthetic : public QObject {
    Q_OBJECT
private slots:
    void seededAndShapedAsTheEntrySays()
    {
        DatasetOptions options;
        options.dataset = "synthetic";
        options.synthetic.classes = 7;
        options.synthetic.trainPerClass = 3;
        options.synthetic.testPerClass = 2;
        options.synthetic.channels = 1;
        options.synthetic.size = 12;
        const RawDataset a = generateSyntheticDataset(options.synthetic);
        const RawDataset b = readDataset(options, 99); // through the catalogue: the split seed is not the image seed
        QCOMPARE(a.train.pixels, b.train.pixels);
        QCOMPARE(a.test.labels, (std::vector<int64_t>{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6}));
        QCOMPARE(a.train.pixels.size(), size_t(7 * 3 * 12 * 12));
        const DatasetEntry& entry = datasetEntry("synthetic");
        QCOMPARE(entry.previewFor(options).classNames, a.classNames);
        QCOMPARE(a.classNames[6], std::string("disc-1"));
        QCOMPARE(entry.formatFor(options).height, a.format.height);
        QCOMPARE(entry.formatFor(options).channels, a.format.channels);
        options.synthetic.seed = 1;
        QVERIFY(generateSyntheticDataset(options.synthetic).train.pixels != a.train.pixels);
    }

    void settingsOutOfRangeAreNamed()
    {
        SyntheticSpec spec;
        spec.classes = 1;
        QVERIFY(throwsInputError([&] { generateSyntheticDataset(spec); }, {"synthetic.classes"}));
        spec.classes = 3;
        spec.size = 4;
        QVERIFY(throwsInputError([&] { generateSyntheticDataset(spec); }, {"synthetic.size"}));
    }
};

QTEST_APPLESS_MAIN(TestSynthetic)
#include "test_synthetic.moc"
