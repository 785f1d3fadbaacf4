// The image folder reader (datasets/imagefolder, decoded with OpenCV): both layouts, class
// ordering by count, and every bad input naming the file.
#include "core/data/dataset.h"
#include "datasets/imagefolder/imagefolderreader.h"
#include "tests/datasets/imagefiletestdata.h"
#include "tests/support/expect.h"

#include <QDir>
#include <QTemporaryDir>

#include <fstream>

using namespace lbd;
using test::throwsInputError;
using test::writeClass;

namespace {

ImageFolderOptions options16()
{
    ImageFolderOptions options;
    options.files.format = {3, 16, 16};
    return options;
}

// The reader's RawDataset as core's tensor Dataset, which these checks are written against.
Dataset loadImageFolder(const std::string& root, const ImageFolderOptions& options)
{
    return toDataset(readImageFolder(root, options));
}

} // namespace

class TestImageFolder : public QObject {
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
        // Left out and named under data.on_bad_file skip (the default; tests/datasets/test_messyfolder.cpp),
        // refused naming it under refuse.
        QTemporaryDir dir;
        writeClass(dir.path(), "a", 3, 0);
        writeClass(dir.path(), "b", 3, 0);
        const std::string bad = (dir.path() + "/b/broken.png").toStdString();
        std::ofstream(bad) << "this is a text file, not a PNG";
        ImageFolderOptions refuse = options16();
        refuse.files.onBadFile = BadFilePolicy::Refuse;
        QVERIFY(throwsInputError([&] { loadImageFolder(dir.path().toStdString(), refuse); }, {bad, "cannot decode"}));
    }
};

QTEST_APPLESS_MAIN(TestImageFolder)
#include "test_imagefolder.moc"
