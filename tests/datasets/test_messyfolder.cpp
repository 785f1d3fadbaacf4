// A user's folder as it really is (issue 34): an empty file, a text file named .png, .DS_Store,
// Thumbs.db, ._ files, a README, a nested folder. Bad files are left out and listed (or refused under
// data.on_bad_file refuse, or when most of a split fails), hidden and system files are ignored and
// counted, nested folders are counted in their class and said; list files follow the same policy.
// The data check names classes whose images cannot be learnt as read.
#include "core/data/imagedecoder.h"
#include "datasets/common/datacheck.h"
#include "datasets/common/imagedecoder.h"
#include "datasets/imagefolder/imagefolderreader.h"
#include "datasets/list/listfilereader.h"
#include "tests/support/expect.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace lbd;

namespace {

// A 12x12 grey PNG with a bright bar at row `row` on a background of `shade`: distinct per (row, shade).
void writeBar(const QString& file, int row, int shade)
{
    auto image = torch::full({1, 12, 12}, shade, torch::kUInt8);
    image.index_put_({0, row % 12}, 250);
    writeImageFile(file.toStdString(), image);
}

void writeText(const QString& file, const QByteArray& bytes)
{
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(bytes);
}

// train/<a|b>/ with `count` distinct images each and test/<a|b>/ with 2.
void writeFolder(const QString& root, int count)
{
    for (const QString split : {"train", "test"}) {
        for (int c = 0; c < 2; ++c) {
            const QString dir = root + "/" + split + "/" + QString(QChar('a' + c));
            QDir().mkpath(dir);
            for (int i = 0; i < (split == "train" ? count : 2); ++i) {
                writeBar(dir + QString("/%1.png").arg(i), c * 6 + i % 6, 10 + i);
            }
        }
    }
}

ImageFolderOptions greyOptions()
{
    ImageFolderOptions options;
    options.files.format = {1, 12, 12};
    return options;
}

bool endsWith(const std::string& text, const std::string& tail)
{
    return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

} // namespace

class TestMessyFolder : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        if (!imageDecodingAvailable()) {
            QSKIP("built without OpenCV");
        }
    }

    void badFilesAreSkippedAndListed()
    {
        QTemporaryDir dir;
        const QString root = dir.path();
        writeFolder(root, 6);
        writeText(root + "/train/a/empty.png", {});
        writeText(root + "/train/b/notes.png", "not an image");
        writeText(root + "/train/.DS_Store", "Bud1");
        writeText(root + "/train/a/Thumbs.db", "x");
        writeText(root + "/train/a/._0.png", "resource fork");
        writeText(root + "/README.txt", "hello");
        writeText(root + "/train/b/drawing.svg", "<svg/>");
        QDir().mkpath(root + "/train/b/more");
        writeBar(root + "/train/b/more/copy.png", 3, 99);

        const RawDataset data = readImageFolder(root.toStdString(), greyOptions());
        const DataReport& report = data.report;
        QCOMPARE(data.train.size(), int64_t(13)); // 6 + 6 + the nested one; the two bad ones left out
        QCOMPARE(report.skipped.size(), size_t(2));
        QVERIFY(endsWith(report.skipped[0].file, "train/a/empty.png"));
        QCOMPARE(report.skipped[0].reason, std::string("empty file"));
        QVERIFY(endsWith(report.skipped[1].file, "train/b/notes.png"));
        QVERIFY2(QString::fromStdString(report.skipped[1].reason).contains("cannot decode"), report.skipped[1].reason.c_str());
        QCOMPARE(report.ignored.size(), size_t(3)); // .DS_Store, Thumbs.db, ._0.png
        QCOMPARE(report.notImages.size(), size_t(2)); // README.txt (loose), drawing.svg
        QCOMPARE(report.nested.size(), size_t(1));
        QVERIFY(endsWith(report.nested[0].folder, "train/b/more"));
        QCOMPARE(report.nested[0].className, std::string("b"));
        QCOMPARE(report.nested[0].images, int64_t(1));
        QVERIFY(report.checked);
        QVERIFY2(report.checkWarnings.empty(), report.checkWarnings.empty() ? "" : report.checkWarnings.front().c_str());

        const std::vector<std::string> warnings = dataReportWarnings(report);
        QCOMPARE(warnings.size(), size_t(1));
        QVERIFY2(QString::fromStdString(warnings[0]).contains("left out 2 files that could not be read"), warnings[0].c_str());
        QVERIFY2(QString::fromStdString(warnings[0]).contains("empty.png (empty file)"), warnings[0].c_str());
        const std::vector<std::string> notes = dataReportNotes(report);
        QVERIFY(std::any_of(notes.begin(), notes.end(), [](const std::string& n) { return n.find("ignored 3 hidden") == 0; }));
        QVERIFY(std::any_of(notes.begin(), notes.end(), [](const std::string& n) { return n.find("counted in class b") != std::string::npos; }));
        // The check ran and found nothing: said, so that a passed check reads apart from none at all.
        QCOMPARE(notes.back(), std::string("data check passed: no class is one repeated image or flat colours, no image is in two classes"));
        DataReport failed = report;
        failed.checkWarnings = {"class a: ..."};
        DataReport unchecked = report;
        unchecked.checked = false; // a streamed training split
        for (const DataReport& other : {failed, unchecked}) {
            const std::vector<std::string> otherNotes = dataReportNotes(other);
            QVERIFY(std::none_of(otherNotes.begin(), otherNotes.end(),
                                 [](const std::string& n) { return n.find("data check") != std::string::npos; }));
        }

        // Refuse: the first bad file is named, and how many there are.
        ImageFolderOptions refuse = greyOptions();
        refuse.files.onBadFile = BadFilePolicy::Refuse;
        QVERIFY(test::throwsInputError([&] { readImageFolder(root.toStdString(), refuse); },
                                       {"empty.png: empty file", "2 of the training files", "data.on_bad_file skip"}));
    }

    void mostFilesBadIsRefused()
    {
        QTemporaryDir dir;
        writeFolder(dir.path(), 2);
        for (int i = 0; i < 6; ++i) {
            writeText(dir.path() + QString("/train/a/bad%1.png").arg(i), {});
        }
        QVERIFY(test::throwsInputError([&] { readImageFolder(dir.path().toStdString(), greyOptions()); },
                                       {"6 of the 10 training image files cannot be read", "more than half"}));
    }

    void aClassWithNoReadableImageIsRefused()
    {
        QTemporaryDir dir;
        writeFolder(dir.path(), 8);
        QDir().mkpath(dir.path() + "/train/c");
        writeText(dir.path() + "/train/c/0.png", {});
        QVERIFY(test::throwsInputError([&] { readImageFolder(dir.path().toStdString(), greyOptions()); },
                                       {"class c: none of its training images can be read", "empty file"}));
    }

    void listFilesSkipBadEntriesToo()
    {
        QTemporaryDir dir;
        writeFolder(dir.path(), 4);
        writeText(dir.path() + "/train/a/empty.png", {});
        writeText(dir.path() + "/train.txt", "train/a/0.png 0\ntrain/a/1.png 0\ntrain/a/empty.png 0\ntrain/a/missing.png 0\n"
                                             "train/b/0.png 1\ntrain/b/1.png 1\ntrain/b/2.png 1\ntrain/a/2.png 0\ntrain/a/3.png 0\n");
        writeText(dir.path() + "/test.txt", "test/a/0.png 0\ntest/b/0.png 1\n");
        ListFileOptions options;
        options.files.format = {1, 12, 12};
        const RawDataset data = readListFiles(dir.path().toStdString(), "train.txt", "test.txt", options);
        QCOMPARE(data.train.size(), int64_t(7));
        QCOMPARE(data.report.skipped.size(), size_t(2));
        QVERIFY(endsWith(data.report.skipped[1].file, "missing.png"));
        QVERIFY2(QString::fromStdString(data.report.skipped[1].reason).contains("not found"), data.report.skipped[1].reason.c_str());
    }

    void theCheckNamesClassesThatCannotBeLearnt()
    {
        // Classes a and b: the same flat square (transparency once thrown away), c: distinct bars,
        // d: every image the same non-flat one.
        const ImageFormat format{1, 4, 4};
        RawSplit train;
        const auto add = [&](int64_t label, std::vector<uint8_t> pixels) {
            train.labels.push_back(label);
            train.pixels.insert(train.pixels.end(), pixels.begin(), pixels.end());
        };
        const std::vector<uint8_t> black(16, 0);
        std::vector<uint8_t> bar(16, 0);
        bar[5] = 200;
        for (int i = 0; i < 4; ++i) {
            add(0, black);
            add(1, black);
            std::vector<uint8_t> distinct(16, uint8_t(20 + i));
            distinct[i] = 255;
            add(2, distinct);
            add(3, bar);
        }
        const std::vector<std::string> warnings = checkTrainingImages(train, format, {"a", "b", "c", "d"});
        QStringList text;
        for (const auto& w : warnings) {
            text << QString::fromStdString(w);
        }
        const QString all = text.join("\n");
        QVERIFY2(all.contains("class a: all 4 training images are the same image (one flat colour)"), qPrintable(all));
        QVERIFY2(all.contains("class b: all 4"), qPrintable(all));
        QVERIFY2(all.contains("class d: all 4 training images are the same image as read"), qPrintable(all));
        QVERIFY2(all.contains("8 training images are identical") && all.contains("classes a (4 of 4), b (4 of 4)"), qPrintable(all));
        QVERIFY2(!all.contains("class c"), qPrintable(all));
        QCOMPARE(warnings.size(), size_t(4));

        // Streamed splits are not checked.
        RawSplit streamed;
        streamed.labels = {0, 1};
        streamed.files = {"x.png", "y.png"};
        QVERIFY(checkTrainingImages(streamed, format, {"a", "b"}).empty());
    }
};

QTEST_APPLESS_MAIN(TestMessyFolder)
#include "test_messyfolder.moc"
