// The IDX reader (datasets/idx): small files the test writes (raw and gzip), every corrupt
// variant, and the real Fashion-MNIST files of the Debian package.
#include "core/data/dataset.h"
#include "datasets/common/error.h"
#include "datasets/idx/idxreader.h"
#include "tests/support/expect.h"
#include "tests/support/testfiles.h"

#include <fstream>

#include <QTemporaryDir>

using namespace lbd;

using test::throwsInputError;

namespace {

// The reader's RawDataset as core's tensor Dataset, which these checks are written against.
Dataset loadIdxDirectory(const std::string& directory, const std::string& name, const std::vector<std::string>& classNames)
{
    return toDataset(readIdxDirectory(directory, name, classNames));
}

} // namespace

class TestIdx : public QObject {
    Q_OBJECT
private slots:
    void rawAndGzipGiveTheSameData()
    {
        QTemporaryDir raw, gz;
        test::writeIdxDirectory(raw.path().toStdString(), 30, 20, false);
        test::writeIdxDirectory(gz.path().toStdString(), 30, 20, true);
        const Dataset a = loadIdxDirectory(raw.path().toStdString(), "t", mnistClassNames());
        const Dataset b = loadIdxDirectory(gz.path().toStdString(), "t", mnistClassNames());
        QCOMPARE(a.train.images.sizes().vec(), (std::vector<int64_t>{30, 1, 28, 28}));
        QCOMPARE(a.test.size(), int64_t(20));
        QVERIFY(torch::equal(a.train.images, b.train.images));
        QVERIFY(torch::equal(a.test.labels, b.test.labels));
        QCOMPARE(a.train.labels[13].item<int64_t>(), int64_t(3));
        QCOMPARE(a.train.images[1][0][0][0].item<int>(), (28 * 28) % 251);
    }

    void wrongMagicNumberNamesTheFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/x-idx3-ubyte";
        auto bytes = test::idxBytes(torch::zeros({2, 28, 28}, torch::kUInt8));
        bytes[2] = 0x0d;
        test::writeBytes(path, bytes);
        QVERIFY(throwsInputError([&] { readIdxFile(path); }, {path, "wrong magic number"}));
    }

    void truncatedRawFileNamesTheFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/x-idx3-ubyte";
        auto bytes = test::idxBytes(torch::zeros({5, 28, 28}, torch::kUInt8));
        bytes.resize(bytes.size() - 100);
        test::writeBytes(path, bytes);
        QVERIFY(throwsInputError([&] { readIdxFile(path); }, {path, "truncated"}));
    }

    void truncatedGzipFileNamesTheFile()
    {
        QTemporaryDir dir;
        const std::string whole = dir.path().toStdString() + "/whole.gz";
        const std::string path = dir.path().toStdString() + "/train-images-idx3-ubyte.gz";
        test::writeGzip(whole, test::idxBytes(torch::randint(0, 255, {50, 28, 28}, torch::kInt64).to(torch::kUInt8)));
        std::ifstream in(whole, std::ios::binary);
        std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        bytes.resize(bytes.size() / 2);
        test::writeBytes(path, bytes);
        QVERIFY(throwsInputError([&] { readIdxFile(path); }, {path}));
    }

    void corruptGzipFileNamesTheFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/train-images-idx3-ubyte.gz";
        test::writeGzip(path, test::idxBytes(torch::randint(0, 255, {50, 28, 28}, torch::kInt64).to(torch::kUInt8)));
        std::fstream file(path, std::ios::binary | std::ios::in | std::ios::out);
        file.seekp(40);
        const char garbage[64] = "this is not deflate data at all, it is garbage...";
        file.write(garbage, sizeof garbage);
        file.close();
        QVERIFY(throwsInputError([&] { readIdxFile(path); }, {path}));
    }

    void missingFileNamesTheFile()
    {
        QTemporaryDir dir;
        test::writeIdxDirectory(dir.path().toStdString(), 10, 10, true);
        QFile::remove(dir.path() + "/t10k-labels-idx1-ubyte.gz");
        QVERIFY(throwsInputError([&] { loadIdxDirectory(dir.path().toStdString(), "t", mnistClassNames()); },
                                 {"t10k-labels-idx1-ubyte", "not found"}));
        QVERIFY(throwsInputError([&] { loadIdxDirectory("/nonexistent/dir", "t", mnistClassNames()); },
                                 {"/nonexistent/dir", "not found"}));
    }

    void labelOutOfRangeNamesTheFile()
    {
        QTemporaryDir dir;
        test::writeIdxDirectory(dir.path().toStdString(), 10, 10, false);
        const std::string labels = dir.path().toStdString() + "/train-labels-idx1-ubyte";
        auto values = torch::zeros({10}, torch::kUInt8);
        values[4] = 12;
        test::writeBytes(labels, test::idxBytes(values));
        QVERIFY(throwsInputError([&] { loadIdxDirectory(dir.path().toStdString(), "t", mnistClassNames()); },
                                 {labels, "label 12", "out of range"}));
    }

    void labelCountMismatchIsAnError()
    {
        QTemporaryDir dir;
        test::writeIdxDirectory(dir.path().toStdString(), 10, 10, false);
        test::writeBytes(dir.path().toStdString() + "/t10k-labels-idx1-ubyte", test::idxBytes(torch::zeros({7}, torch::kUInt8)));
        QVERIFY(throwsInputError([&] { loadIdxDirectory(dir.path().toStdString(), "t", mnistClassNames()); },
                                 {"7 labels for 10 images"}));
    }

    void realFashionMnist()
    {
        if (!QFile::exists(LBD_FASHION_MNIST_DIR "/train-images-idx3-ubyte.gz")) {
            QSKIP("dataset-fashion-mnist is not installed");
        }
        const Dataset data = loadIdxDirectory(LBD_FASHION_MNIST_DIR, "fashion-mnist", fashionMnistClassNames());
        QCOMPARE(data.train.size(), int64_t(60000));
        QCOMPARE(data.test.size(), int64_t(10000));
        QCOMPARE(data.classCount(), int64_t(10));
        QCOMPARE(countPerClass(data.train.labels, 10), std::vector<int64_t>(10, 6000));
        QCOMPARE(countPerClass(data.test.labels, 10), std::vector<int64_t>(10, 1000));
        QCOMPARE(data.format.height, int64_t(28));
    }
};

QTEST_APPLESS_MAIN(TestIdx)
#include "test_idx.moc"
