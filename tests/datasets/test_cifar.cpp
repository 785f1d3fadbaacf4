// The CIFAR-10 / CIFAR-100 reader (datasets/cifar) on small files the test writes, and corrupt
// variants.
#include "core/data/dataset.h"
#include "datasets/catalogue.h"
#include "datasets/cifar/cifarreader.h"
#include "tests/support/expect.h"
#include "tests/support/testfiles.h"

#include <QDir>
#include <QTemporaryDir>

#include <fstream>

using namespace lbd;
using test::throwsInputError;

namespace {

// The reader's RawDataset as core's tensor Dataset, which these checks are written against.
Dataset loadCifar10(const std::string& directory)
{
    return toDataset(readCifar10(directory));
}

Dataset loadCifar100(const std::string& directory)
{
    return toDataset(readCifar100(directory));
}

// Records of `labelBytes` label bytes (each = value) followed by 3072 pixel bytes (= index).
std::vector<uint8_t> cifarRecords(int count, int labelBytes, int labelModulo, int fineOffset = 0)
{
    std::vector<uint8_t> bytes;
    for (int r = 0; r < count; ++r) {
        for (int b = 0; b < labelBytes; ++b) {
            bytes.push_back(static_cast<uint8_t>(b == labelBytes - 1 ? (r + fineOffset) % labelModulo : 19));
        }
        for (int p = 0; p < 3072; ++p) {
            bytes.push_back(static_cast<uint8_t>((r + p) % 256));
        }
    }
    return bytes;
}

void writeCifar10(const QString& dir, int perBatch)
{
    for (int b = 1; b <= 5; ++b) {
        test::writeBytes((dir + QString("/data_batch_%1.bin").arg(b)).toStdString(), cifarRecords(perBatch, 1, 10));
    }
    test::writeBytes((dir + "/test_batch.bin").toStdString(), cifarRecords(perBatch, 1, 10));
}

} // namespace

class TestCifar : public QObject {
    Q_OBJECT
private slots:
    void cifar10LoadsWithNames()
    {
        QTemporaryDir dir;
        writeCifar10(dir.path(), 12);
        std::ofstream((dir.path() + "/batches.meta.txt").toStdString())
            << "plane\ncar\nbird\ncat\ndeer\ndog\nfrog\nhorse\nship\ntruck\n\n";
        const Dataset data = loadCifar10(dir.path().toStdString());
        QCOMPARE(data.train.size(), int64_t(60));
        QCOMPARE(data.test.size(), int64_t(12));
        QCOMPARE(data.train.images.sizes().vec(), (std::vector<int64_t>{60, 3, 32, 32}));
        QCOMPARE(data.classNames[1], std::string("car"));
        QCOMPARE(data.train.labels[11].item<int64_t>(), int64_t(1));
        // Pixel p of record r is (r + p) % 256; channel-major layout is kept.
        QCOMPARE(data.test.images[3][1][0][5].item<int>(), (3 + 1024 + 5) % 256);
    }

    void cifar10FindsTheBatchesSubfolder()
    {
        QTemporaryDir dir;
        QDir(dir.path()).mkdir("cifar-10-batches-bin");
        writeCifar10(dir.path() + "/cifar-10-batches-bin", 3);
        QCOMPARE(loadCifar10(dir.path().toStdString()).train.size(), int64_t(15));
    }

    void cifar100UsesFineLabels()
    {
        QTemporaryDir dir;
        test::writeBytes((dir.path() + "/train.bin").toStdString(), cifarRecords(250, 2, 100));
        test::writeBytes((dir.path() + "/test.bin").toStdString(), cifarRecords(100, 2, 100, 7));
        const Dataset data = loadCifar100(dir.path().toStdString());
        QCOMPARE(data.classCount(), int64_t(100));
        QCOMPARE(data.train.labels[120].item<int64_t>(), int64_t(20));
        QCOMPARE(data.test.labels[0].item<int64_t>(), int64_t(7));
    }

    void truncatedBatchNamesTheFile()
    {
        QTemporaryDir dir;
        writeCifar10(dir.path(), 4);
        auto bytes = cifarRecords(4, 1, 10);
        bytes.resize(bytes.size() - 10);
        const std::string path = (dir.path() + "/data_batch_3.bin").toStdString();
        test::writeBytes(path, bytes);
        QVERIFY(throwsInputError([&] { loadCifar10(dir.path().toStdString()); }, {path, "truncated"}));
    }

    void labelOutOfRangeNamesTheFile()
    {
        QTemporaryDir dir;
        writeCifar10(dir.path(), 4);
        const std::string path = (dir.path() + "/test_batch.bin").toStdString();
        test::writeBytes(path, cifarRecords(4, 1, 40, 10));
        QVERIFY(throwsInputError([&] { loadCifar10(dir.path().toStdString()); }, {path, "out of range"}));
    }

    // One function names the classes for the reader and for the GUI's instant preview.
    void readerAndPreviewShareTheClassNames()
    {
        QTemporaryDir dir;
        QDir(dir.path()).mkdir("cifar-100-binary");
        const QString root = dir.path() + "/cifar-100-binary";
        test::writeBytes((root + "/train.bin").toStdString(), cifarRecords(100, 2, 100));
        test::writeBytes((root + "/test.bin").toStdString(), cifarRecords(100, 2, 100));
        QCOMPARE(cifar100ClassNames(dir.path().toStdString()).front(), std::string("class 0"));
        {
            std::ofstream names((root + "/fine_label_names.txt").toStdString());
            for (int c = 0; c < 100; ++c) {
                names << "fine" << c << "\r\n";
            }
        }
        const std::vector<std::string> names = cifar100ClassNames(dir.path().toStdString());
        QCOMPARE(names.size(), size_t(100));
        QCOMPARE(names[42], std::string("fine42"));
        QCOMPARE(loadCifar100(dir.path().toStdString()).classNames, names);
        DatasetOptions options;
        options.directory = dir.path().toStdString();
        QCOMPARE(datasetEntry("cifar100").previewFor(options).classNames, names);
        QCOMPARE(cifar10ClassNames("").back(), std::string("truck")); // the published names without batches.meta.txt
    }

    void missingFilesAreNamed()
    {
        QTemporaryDir dir;
        QVERIFY(throwsInputError([&] { loadCifar10(dir.path().toStdString()); }, {"data_batch_1.bin", "not found"}));
        QVERIFY(throwsInputError([&] { loadCifar100("/no/such/dir"); }, {"/no/such/dir", "not found"}));
    }
};

QTEST_APPLESS_MAIN(TestCifar)
#include "test_cifar.moc"
