// Image folders and list files (decoded with OpenCV): both layouts, class ordering by count,
// streaming for data that does not fit, and every bad input naming the file.
#include "core/data/augmentation.h"
#include "core/data/batchsource.h"
#include "core/data/imagedecoder.h"
#include "core/data/imagefolderreader.h"
#include "core/data/listfilereader.h"
#include "core/data/syntheticdataset.h"
#include "tests/support/expect.h"

#include <QDir>
#include <QTemporaryDir>

#include <fstream>

using namespace lbd;
using test::throwsInputError;

namespace {

// Writes `count` 20x24 colour PNGs (solid colour = class index * 40 + i) into dir/name.
void writeClass(const QString& dir, const QString& name, int count, int shade)
{
    QDir(dir).mkpath(name);
    for (int i = 0; i < count; ++i) {
        const auto image = torch::full({3, 20, 24}, shade + i, torch::kUInt8);
        writeImageFile((dir + "/" + name + QString("/img%1.png").arg(i)).toStdString(), image);
    }
}

ImageFolderOptions options16()
{
    ImageFolderOptions options;
    options.files.format = {3, 16, 16};
    return options;
}

} // namespace

class TestImageFiles : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        if (!imageDecodingAvailable()) {
            QSKIP("built without OpenCV");
        }
    }

    void folderWithHeldOutFractionOrdersClassesByCount()
    {
        QTemporaryDir dir;
        writeClass(dir.path(), "apple", 3, 10);
        writeClass(dir.path(), "banana", 10, 50);
        writeClass(dir.path(), "cherry", 5, 100);
        const Dataset data = loadImageFolder(dir.path().toStdString(), options16());
        QCOMPARE(data.classNames, (std::vector<std::string>{"banana", "cherry", "apple"}));
        QCOMPARE(data.train.images.sizes().vec(), (std::vector<int64_t>{2 + 8 + 4, 3, 16, 16}));
        QCOMPARE(countPerClass(data.train.labels, 3), (std::vector<int64_t>{8, 4, 2}));
        QCOMPARE(countPerClass(data.test.labels, 3), (std::vector<int64_t>{2, 1, 1}));
        // A solid image stays solid after resizing; the label matches its colour band.
        const auto labels = data.train.labels;
        for (int64_t i = 0; i < labels.size(0); ++i) {
            const int value = data.train.images[i][0][7][7].item<int>();
            const int64_t expected = value >= 100 ? 1 : (value >= 50 ? 0 : 2);
            QCOMPARE(labels[i].item<int64_t>(), expected);
        }
    }

    void folderWithTrainAndTestSubfolders()
    {
        QTemporaryDir dir;
        writeClass(dir.path() + "/train", "a", 2, 0);
        writeClass(dir.path() + "/train", "b", 4, 100);
        writeClass(dir.path() + "/test", "a", 3, 0);
        writeClass(dir.path() + "/test", "b", 1, 100);
        ImageFolderOptions options = options16();
        options.files.format.channels = 1;
        const Dataset data = loadImageFolder(dir.path().toStdString(), options);
        QCOMPARE(data.classNames, (std::vector<std::string>{"b", "a"}));
        QCOMPARE(data.train.images.size(1), int64_t(1));
        QCOMPARE(countPerClass(data.test.labels, 2), (std::vector<int64_t>{1, 3}));
    }

    void emptyClassFolderIsNamed()
    {
        QTemporaryDir dir;
        writeClass(dir.path(), "full", 3, 0);
        QDir(dir.path()).mkdir("empty");
        QVERIFY(throwsInputError([&] { loadImageFolder(dir.path().toStdString(), options16()); },
                                 {(dir.path() + "/empty").toStdString(), "no image files"}));
    }

    void undecodableImageIsNamed()
    {
        QTemporaryDir dir;
        writeClass(dir.path(), "a", 3, 0);
        writeClass(dir.path(), "b", 3, 0);
        const std::string bad = (dir.path() + "/b/broken.png").toStdString();
        std::ofstream(bad) << "this is a text file, not a PNG";
        QVERIFY(throwsInputError([&] { loadImageFolder(dir.path().toStdString(), options16()); }, {bad, "cannot decode"}));
    }

    void listFilesInTheImageNetLtFormat()
    {
        QTemporaryDir dir;
        writeClass(dir.path(), "x", 4, 0);
        writeClass(dir.path(), "y", 2, 100);
        std::ofstream(dir.path().toStdString() + "/train.txt") << "x/img0.png 1\nx/img1.png 1\nx/img2.png 1\ny/img0.png 0\n";
        std::ofstream(dir.path().toStdString() + "/test.txt") << "x/img3.png 1\ny/img1.png 0\n";
        ListFileOptions options;
        options.files.format = {3, 16, 16};
        const Dataset data = loadListFiles(dir.path().toStdString(), "train.txt", "test.txt", options);
        // Class 1 has more training images, so it becomes index 0.
        QCOMPARE(data.classNames, (std::vector<std::string>{"class 1", "class 0"}));
        QCOMPARE(countPerClass(data.train.labels, 2), (std::vector<int64_t>{3, 1}));
    }

    void badListFilesAreNamed()
    {
        QTemporaryDir dir;
        writeClass(dir.path(), "x", 2, 0);
        const std::string train = dir.path().toStdString() + "/train.txt";
        const std::string test = dir.path().toStdString() + "/test.txt";
        std::ofstream(train) << "x/img0.png 0\nx/img1.png one\n";
        std::ofstream(test) << "x/img0.png 0\n";
        ListFileOptions options;
        QVERIFY(throwsInputError([&] { loadListFiles(dir.path().toStdString(), train, test, options); },
                                 {train + ":2", "'one'"}));
        std::ofstream(train) << "x/img0.png 0\nx/img1.png 1\n";
        std::ofstream(test) << "x/img0.png 5\n";
        QVERIFY(throwsInputError([&] { loadListFiles(dir.path().toStdString(), train, test, options); }, {test, "out of range"}));
        std::ofstream(test) << "x/missing.png 1\n";
        QVERIFY(throwsInputError([&] { loadListFiles(dir.path().toStdString(), train, test, options); }, {"missing.png"}));
        QVERIFY(throwsInputError([&] { loadListFiles(dir.path().toStdString(), train, "nope.txt", options); }, {"nope.txt"}));
    }

    void streamedDataGivesTheSameBatchesAsDecodedData()
    {
        QTemporaryDir dir;
        SyntheticSpec synthetic;
        synthetic.classes = 3;
        synthetic.trainPerClass = 9;
        synthetic.testPerClass = 1;
        synthetic.size = 16;
        const Dataset source = makeSyntheticDataset(synthetic);
        for (int64_t i = 0; i < source.train.size(); ++i) {
            const auto label = source.train.labels[i].item<int64_t>();
            QDir(dir.path()).mkpath(QString("train/c%1").arg(label));
            QDir(dir.path()).mkpath(QString("test/c%1").arg(label));
            const QString name = QString("/c%1/%2.png").arg(label).arg(i, 3, 10, QChar('0'));
            writeImageFile((dir.path() + "/train" + name).toStdString(), source.train.images[i]);
            writeImageFile((dir.path() + "/test" + name).toStdString(), source.train.images[i]);
        }
        ImageFolderOptions inMemory = options16();
        ImageFolderOptions streamed = options16();
        streamed.files.maxInMemoryBytes = 1000;
        const Dataset a = loadImageFolder(dir.path().toStdString(), inMemory);
        const Dataset b = loadImageFolder(dir.path().toStdString(), streamed);
        QVERIFY(!a.train.isStreamed());
        QVERIFY(b.train.isStreamed());
        const Normalization n = computeNormalization(a.train.images);
        BatchOptions options;
        options.batchSize = 5;
        options.seed = 11;
        AugmentSpec augment;
        augment.outputSize = 16;
        auto first = makeBatchSource(a.train, a.format, torch::kCPU, augment, n, options);
        auto second = makeBatchSource(b.train, b.format, torch::kCPU, augment, n, options);
        for (int epoch = 1; epoch <= 2; ++epoch) {
            first->startEpoch(epoch);
            second->startEpoch(epoch);
            Batch x, y;
            int batches = 0;
            while (first->next(x)) {
                QVERIFY(second->next(y));
                QVERIFY(torch::equal(x.labels, y.labels));
                QVERIFY(torch::allclose(x.images, y.images));
                ++batches;
            }
            QVERIFY(!second->next(y));
            QCOMPARE(batches, 6);
        }
    }
};

QTEST_APPLESS_MAIN(TestImageFiles)
#include "test_imagefiles.moc"
