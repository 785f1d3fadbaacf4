// The list file reader (datasets/list): the ImageNet-LT format, and every bad list naming the
// file and line.
#include "core/data/dataset.h"
#include "datasets/list/listfilereader.h"
#include "tests/datasets/imagefiletestdata.h"
#include "tests/support/expect.h"

#include <QTemporaryDir>

#include <fstream>

using namespace lbd;
using test::throwsInputError;
using test::writeClass;

namespace {

// The reader's RawDataset as core's tensor Dataset, which these checks are written against.
Dataset loadListFiles(const std::string& imageRoot, const std::string& trainList, const std::string& testList,
                      const ListFileOptions& options)
{
    return toDataset(readListFiles(imageRoot, trainList, testList, options));
}

} // namespace

class TestList : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        if (!imageDecodingAvailable()) {
            QSKIP("built without OpenCV");
        }
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
};

QTEST_APPLESS_MAIN(TestList)
#include "test_list.moc"
