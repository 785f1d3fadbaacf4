// `lbd data cache` and `lbd train --cache` on a small streamed JPEG list (make-list-data): the
// cache is built once with a progress bar, a run finds it (no second build) and logs where its
// input time went, a damaged cache is refused naming the file, and `lbd bench --what pipeline`
// reports every stage.
#include "tests/app/clitest.h"

using namespace lbd::test;

class TestCliDataCache final : public CliTest {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(kLbd).isExecutable(), qPrintable(kLbd + QStringLiteral(" is not built")));
        QVERIFY(m_temp.isValid());
        const QStringList make = {"make-list-data", path("list"), "--classes", "4", "--max-per-class", "12", "--ratio", "2",
                                  "--test-per-class", "3", "--width", "40", "--height", "30"};
        const Result made = runLbd(make);
        EXPECT_EXIT(made, make, 0);
    }

    void cacheThenTrainFromIt()
    {
        QStringList data = {"--dataset", "list", "--data-dir", path("list"), "--train-list", "ImageNet_LT_train.txt",
                                  "--test-list", "ImageNet_LT_val.txt", "--channels", "3", "--image-size", "32",
                                  "--set", "data.max_in_memory_mb=1"};
        // At 32 pixels the images fit in 1 MiB: held in memory, nothing to cache.
        QStringList cache = QStringList{"data", "cache"} + data + QStringList{"--cache-dir", path("cache")};
        Result result = runLbd(cache);
        EXPECT_EXIT(result, cache, 0);
        QVERIFY2(result.out.contains("nothing to cache"), qPrintable(result.describe(cache)));

        // At 128 pixels the 34 training images (49 KB each) are over 1 MiB: streamed, cached.
        data[data.indexOf("32")] = "128";
        cache = QStringList{"data", "cache"} + data + QStringList{"--cache-dir", path("cache")};
        result = runLbd(cache);
        EXPECT_EXIT(result, cache, 0);
        QVERIFY2(result.out.contains("built in"), qPrintable(result.describe(cache)));
        QVERIFY2(result.err.contains("[##############################]"), qPrintable(result.describe(cache)));
        const QStringList files = QDir(path("cache")).entryList({"train-128-raw-*.lbdcache"});
        QCOMPARE(files.size(), 1);

        const QStringList train = QStringList{"train", "--preset", "quick-cpu", "--epochs", "1", "--out", path("run"),
                                              "--cache", "--set", "data.cache_dir=" + path("cache"), "--set",
                                              "augment.output_size=128"}
                                  + data;
        result = runLbd(train);
        EXPECT_EXIT(result, train, 0);
        const QString log = result.out + result.err;
        QVERIFY2(log.contains("read through a memory map") && !log.contains("built in"), qPrintable(result.describe(train)));
        QVERIFY2(log.contains("input: cache read"), qPrintable(result.describe(train)));

        // One flipped byte in the index: refused, naming the file (exit 2).
        const QString cacheFile = path("cache") + "/" + files.front();
        QFile file(cacheFile);
        QVERIFY(file.open(QIODevice::ReadWrite));
        file.seek(96 + 16);
        char byte = 0;
        file.read(&byte, 1);
        file.seek(96 + 16);
        byte ^= 0x40;
        file.write(&byte, 1);
        file.close();
        const QStringList again = QStringList{"train", "--preset", "quick-cpu", "--epochs", "1", "--out", path("run2"),
                                              "--cache", "--set", "data.cache_dir=" + path("cache"), "--set",
                                              "augment.output_size=128"}
                                  + data;
        result = runLbd(again);
        EXPECT_EXIT(result, again, 2);
        QVERIFY2(result.err.contains(cacheFile) && result.err.contains("checksum"), qPrintable(result.describe(again)));
    }

    void benchPipelineReportsEveryStage()
    {
        const QStringList args = {"bench", "--what", "pipeline", "--batch", "8", "--pipeline-files", "16", "--seconds",
                                  "0.05", "--decode-threads", "2", "--json"};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        const QJsonArray results = QJsonDocument::fromJson(result.out.toUtf8()).object()["results"].toArray();
        QCOMPARE(results.size(), 5); // decode only; files and cache, each without and with a step
        for (int i = 1; i < results.size(); ++i) {
            QVERIFY(results[i].toObject()["images_per_second"].toDouble() > 0);
            QVERIFY2(results[i].toObject()["stages"].toString().contains("bound by"), qPrintable(result.out));
        }
    }
};

QTEST_APPLESS_MAIN(TestCliDataCache)
#include "test_cli_datacache.moc"
