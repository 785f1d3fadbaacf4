// `lbd bench`: bad options refused before any measurement; the decode measurement's record.
#include "tests/app/clitest.h"

using namespace lbd::test;

class TestCliBench final : public CliTest {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(kLbd).isExecutable(), qPrintable(kLbd + QStringLiteral(" is not built")));
        QVERIFY(m_temp.isValid());
        QVERIFY(writeFile(path(QStringLiteral("tiny.json")), kTinyConfig));
    }

    void benchBadOptions_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("named");
        QTest::newRow("precision") << QStringList{QStringLiteral("--precision"), QStringLiteral("fp8")} << QStringLiteral("fp8");
        QTest::newRow("what") << QStringList{QStringLiteral("--what"), QStringLiteral("everything")}
                              << QStringLiteral("everything");
        QTest::newRow("seconds") << QStringList{QStringLiteral("--seconds"), QStringLiteral("0")}
                                 << QStringLiteral("--seconds");
        QTest::newRow("decode threads") << QStringList{QStringLiteral("--what"), QStringLiteral("decode"),
                                                       QStringLiteral("--decode-threads"), QStringLiteral("1,0")}
                                        << QStringLiteral("--decode-threads");
    }

    // Refused before any measurement starts (so these return at once).
    void benchBadOptions()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, named);
        const QStringList args = QStringList{QStringLiteral("bench"), QStringLiteral("--device"), QStringLiteral("cpu")} + flags;
        const Result result = runLbd(args, 60000);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, named, result, args);
    }

    // JPEG decoding as the streaming batcher does it, timed per thread count: one record each,
    // the images counted whole passes over the files, and photograph-sized files.
    void decodeMeasuresImagesPerSecondPerThreadCount()
    {
        const QStringList args = {QStringLiteral("bench"), QStringLiteral("--what"), QStringLiteral("decode"),
                                  QStringLiteral("--device"), QStringLiteral("cpu"), QStringLiteral("--seconds"),
                                  QStringLiteral("0.2"), QStringLiteral("--decode-threads"), QStringLiteral("1,2"),
                                  QStringLiteral("--decode-size"), QStringLiteral("64"), QStringLiteral("--json")};
        const Result result = runLbd(args, 120000);
        EXPECT_EXIT(result, args, 0);
        const QJsonArray results = QJsonDocument::fromJson(result.out.toUtf8()).object().value(QStringLiteral("results")).toArray();
        QCOMPARE(results.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const QJsonObject record = results.at(i).toObject();
            QCOMPARE(record.value(QStringLiteral("benchmark")).toString(), QStringLiteral("decode"));
            QCOMPARE(record.value(QStringLiteral("threads")).toInt(), i + 1);
            const double images = record.value(QStringLiteral("images")).toDouble();
            const double seconds = record.value(QStringLiteral("seconds")).toDouble();
            QVERIFY(images >= 128 && static_cast<int64_t>(images) % 128 == 0); // whole passes over 128 files
            QVERIFY(seconds >= 0.2);
            QCOMPARE(record.value(QStringLiteral("images_per_second")).toDouble(), images / seconds);
            QCOMPARE(record.value(QStringLiteral("images_per_second_per_thread")).toDouble(), images / seconds / (i + 1));
            const double bytes = record.value(QStringLiteral("mean_file_bytes")).toDouble();
            QVERIFY2(bytes > 10000 && bytes < 400000, qPrintable(QString::number(bytes))); // a 500 x 375 photograph's range
            QVERIFY(record.value(QStringLiteral("pipeline")).toString().contains(QStringLiteral("3x64x64")));
        }
        QVERIFY(QDir(QDir::tempPath()).entryList({QStringLiteral("lbd-decode-bench-*")}, QDir::Dirs).isEmpty()); // cleaned up
    }
};

QTEST_APPLESS_MAIN(TestCliBench)
#include "test_cli_bench.moc"
