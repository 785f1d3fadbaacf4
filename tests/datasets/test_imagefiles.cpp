// What image folders and list files share (datasets/common/imagefiles): decoded into memory
// within the budget, streamed above it, and user classes ordered head to tail.
#include "datasets/common/imagedecoder.h"
#include "datasets/common/imagefiles.h"
#include "tests/datasets/imagefiletestdata.h"

#include <QTemporaryDir>

using namespace lbd;

class TestImageFiles : public QObject {
    Q_OBJECT
private slots:
    void classesAreOrderedByTrainingCountThenName()
    {
        RawDataset data;
        data.classNames = {"c", "b", "a", "d"};
        data.train.labels = {0, 1, 1, 2, 2, 3, 3, 3};
        data.test.labels = {0, 1, 2, 3};
        data.validation.labels = {3, 0};
        orderClassesByTrainCount(data);
        // d has 3 images; a and b tie at 2 (a first by name); c has 1.
        QCOMPARE(data.classNames, (std::vector<std::string>{"d", "a", "b", "c"}));
        QCOMPARE(data.train.labels, (std::vector<int64_t>{3, 2, 2, 1, 1, 0, 0, 0}));
        QCOMPARE(data.test.labels, (std::vector<int64_t>{3, 2, 1, 0}));
        QCOMPARE(data.validation.labels, (std::vector<int64_t>{0, 3}));
    }

    void aSplitOverTheBudgetIsStreamed()
    {
        if (!imageDecodingAvailable()) {
            QSKIP("built without OpenCV");
        }
        QTemporaryDir dir;
        test::writeClass(dir.path(), "a", 3, 30);
        std::vector<std::string> paths;
        for (int i = 0; i < 3; ++i) {
            paths.push_back((dir.path() + QString("/a/img%1.png").arg(i)).toStdString());
        }
        ImageFileOptions options;
        options.format = {1, 4, 4};
        options.limits.maxInMemoryBytes = 3 * 16; // exactly fits
        DataReport report;
        const RawSplit decoded = makeImageFileSplit(paths, {0, 0, 0}, options, report, "training");
        QVERIFY(!decoded.isStreamed());
        QCOMPARE(decoded.pixels.size(), size_t(3 * 16));
        QVERIFY(decoded.pixels[16] > decoded.pixels[0]); // image 1 is brighter than image 0
        options.limits.maxInMemoryBytes = 3 * 16 - 1;
        const RawSplit streamed = makeImageFileSplit(paths, {0, 0, 0}, options, report, "training");
        QVERIFY(streamed.isStreamed());
        QVERIFY(streamed.pixels.empty());
        QCOMPARE(streamed.files, paths);
        QCOMPARE(streamed.size(), int64_t(3));
    }

    void imageExtensionsIgnoreCase()
    {
        QVERIFY(hasImageExtension("x/y.PNG"));
        QVERIFY(hasImageExtension("y.jpeg"));
        QVERIFY(!hasImageExtension("notes.txt"));
        QVERIFY(!hasImageExtension("png"));
    }
};

QTEST_APPLESS_MAIN(TestImageFiles)
#include "test_imagefiles.moc"
