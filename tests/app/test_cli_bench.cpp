// `lbd bench`: bad options refused before any measurement.
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
};

QTEST_APPLESS_MAIN(TestCliBench)
#include "test_cli_bench.moc"
