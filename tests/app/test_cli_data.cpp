// `lbd data`: per-class counts of the real Fashion-MNIST files, JSON output, damaged and missing data named.
#include "tests/app/clitest.h"

using namespace lbd::test;

class TestCliData final : public CliTest {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(kLbd).isExecutable(), qPrintable(kLbd + QStringLiteral(" is not built")));
        QVERIFY(m_temp.isValid());
        QVERIFY(writeFile(path(QStringLiteral("tiny.json")), kTinyConfig));
    }

    void dataFashionMnistCounts()
    {
        if (!haveFashionMnist()) {
            QSKIP("Fashion-MNIST is not installed (Debian package dataset-fashion-mnist)");
        }
        const QStringList args = {QStringLiteral("data"), QStringLiteral("--dataset"), QStringLiteral("fashion-mnist"),
                                  QStringLiteral("--imbalance-ratio"), QStringLiteral("100")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        // "    3  Dress                        1292     1000  med    many  "
        static const QRegularExpression row(QStringLiteral(R"(^\s*(\d+)\s{2}(.*\S)\s+(\d+)\s+(\d+)\s+\S+\s+\S+\s*$)"));
        static const QRegularExpression total(QStringLiteral(R"(^\s+total\s+(\d+)\s+(\d+)\s*$)"));
        QList<int> train;
        QList<int> test;
        QStringList names;
        int trainTotal = -1;
        int testTotal = -1;
        for (const QString& line : result.out.split(QLatin1Char('\n'))) {
            if (const auto match = row.match(line); match.hasMatch()) {
                QCOMPARE(match.captured(1).toInt(), train.size()); // class indices in order
                names << match.captured(2);
                train << match.captured(3).toInt();
                test << match.captured(4).toInt();
            } else if (const auto match = total.match(line); match.hasMatch()) {
                trainTotal = match.captured(1).toInt();
                testTotal = match.captured(2).toInt();
            }
        }
        QVERIFY2(train.size() == 10, qPrintable(result.describe(args)));
        QCOMPARE(train, kFashionCountsRatio100);
        QCOMPARE(test, QList<int>(10, 1000));
        QCOMPARE(trainTotal, 14886);
        QCOMPARE(testTotal, 10000);
        QCOMPARE(names.first(), QStringLiteral("T-shirt/top"));
        QCOMPARE(names.last(), QStringLiteral("Ankle boot"));
    }

    void dataFashionMnistJson()
    {
        if (!haveFashionMnist()) {
            QSKIP("Fashion-MNIST is not installed (Debian package dataset-fashion-mnist)");
        }
        const QStringList args = {QStringLiteral("data"), QStringLiteral("--dataset"), QStringLiteral("fashion-mnist"),
                                  QStringLiteral("--imbalance-ratio"), QStringLiteral("100"), QStringLiteral("--json")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        QString error;
        const QJsonObject root = parseJson(result.out, &error).object();
        QVERIFY2(error.isEmpty(), qPrintable(error + QLatin1Char('\n') + result.describe(args)));
        QCOMPARE(root.value(QStringLiteral("train_total")).toInt(), 14886);
        QCOMPARE(root.value(QStringLiteral("test_total")).toInt(), 10000);
        QCOMPARE(root.value(QStringLiteral("imbalance_ratio")).toDouble(), 100.0);
        const QJsonArray classes = root.value(QStringLiteral("classes")).toArray();
        QCOMPARE(classes.size(), 10);
        for (int c = 0; c < classes.size(); ++c) {
            const QJsonObject entry = classes[c].toObject();
            QCOMPARE(entry.value(QStringLiteral("index")).toInt(), c);
            QCOMPARE(entry.value(QStringLiteral("train")).toInt(), kFashionCountsRatio100[c]);
            QCOMPARE(entry.value(QStringLiteral("test")).toInt(), 1000);
            QVERIFY(!entry.value(QStringLiteral("name")).toString().isEmpty());
        }
    }

    void dataDamagedFile_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::newRow("truncated") << QStringLiteral("truncated");
        QTest::newRow("corrupt") << QStringLiteral("corrupt");
        QTest::newRow("not gzip") << QStringLiteral("garbage");
    }

    void dataDamagedFile()
    {
        if (!haveFashionMnist()) {
            QSKIP("Fashion-MNIST is not installed (Debian package dataset-fashion-mnist)");
        }
        QFETCH(QString, damage);
        const QString folder = copyFashionMnist(QStringLiteral("fmnist-") + damage);
        QVERIFY2(!folder.isEmpty(), "could not copy the Fashion-MNIST files");
        const QString file = folder + QLatin1Char('/') + kTrainImages;
        QByteArray bytes = readFile(file);
        QVERIFY(bytes.size() > 1000000);
        if (damage == QLatin1String("truncated")) {
            bytes.truncate(bytes.size() / 2);
        } else if (damage == QLatin1String("corrupt")) {
            for (qsizetype i = bytes.size() / 2; i < bytes.size() / 2 + 4096; ++i) {
                bytes[i] = static_cast<char>(bytes[i] ^ 0x5a); // a damaged stretch inside the deflate stream
            }
        } else {
            bytes = QByteArray("this is not a gzip file, nor an IDX file\n").repeated(100);
        }
        QVERIFY(writeFile(file, bytes));

        const QStringList args = {QStringLiteral("data"), QStringLiteral("--dataset"), QStringLiteral("fashion-mnist"),
                                  QStringLiteral("--data-dir"), folder, QStringLiteral("--imbalance-ratio"),
                                  QStringLiteral("100")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, kTrainImages, result, args);
        QVERIFY2(result.out.isEmpty(), qPrintable(result.describe(args))); // no table of counts from damaged data
    }

    void dataMissingDirectory()
    {
        const QString missing = path(QStringLiteral("no-such-folder"));
        const QStringList args = {QStringLiteral("data"), QStringLiteral("--dataset"), QStringLiteral("fashion-mnist"),
                                  QStringLiteral("--data-dir"), missing};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, missing, result, args);
        QVERIFY(!QFileInfo::exists(missing));
    }

    void dataBadImbalanceRatio_data()
    {
        QTest::addColumn<QString>("ratio");
        QTest::addColumn<QString>("named"); // what the message must name
        QTest::newRow("below 1") << QStringLiteral("0.5") << QStringLiteral("imbalance_ratio");
        QTest::newRow("zero") << QStringLiteral("0") << QStringLiteral("imbalance_ratio");
        QTest::newRow("negative") << QStringLiteral("-3") << QStringLiteral("imbalance_ratio");
        QTest::newRow("nan") << QStringLiteral("nan") << QStringLiteral("--imbalance-ratio");
        QTest::newRow("inf") << QStringLiteral("inf") << QStringLiteral("--imbalance-ratio");
        QTest::newRow("text") << QStringLiteral("ten") << QStringLiteral("--imbalance-ratio");
    }

    void dataBadImbalanceRatio()
    {
        QFETCH(QString, ratio);
        QFETCH(QString, named);
        // Synthetic data: the option is checked whatever data set is installed.
        const QStringList args = {QStringLiteral("data"), QStringLiteral("--dataset"), QStringLiteral("synthetic"),
                                  QStringLiteral("--imbalance-ratio"), ratio};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, named, result, args);
        EXPECT_MENTIONS(result.err, ratio, result, args);
    }
};

QTEST_APPLESS_MAIN(TestCliData)
#include "test_cli_data.moc"
