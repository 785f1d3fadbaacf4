// Options and commands of `lbd` as a whole: help for every command, version, unknown input, the parser's rules, bash completion.
#include "tests/app/clitest.h"

using namespace lbd::test;

class TestCliGeneral final : public CliTest {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(kLbd).isExecutable(), qPrintable(kLbd + QStringLiteral(" is not built")));
        QVERIFY(m_temp.isValid());
        QVERIFY(writeFile(path(QStringLiteral("tiny.json")), kTinyConfig));
    }

    void unknownOption()
    {
        const QStringList args = {QStringLiteral("data"), QStringLiteral("--dataset"), QStringLiteral("synthetic"),
                                  QStringLiteral("--imbalance-ration"), QStringLiteral("10")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("--imbalance-ration"), result, args);
    }

    void unknownCommand()
    {
        const QStringList args = {QStringLiteral("frobnicate")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("frobnicate"), result, args);
    }

    void versionAndHelp()
    {
        const QStringList version = {QStringLiteral("--version")};
        const Result v = runLbd(version);
        EXPECT_EXIT(v, version, 0);
        EXPECT_MENTIONS(v.out, QStringLiteral("lbd " LBD_VERSION), v, version);
        EXPECT_MENTIONS(v.out, QStringLiteral("LibTorch"), v, version);
        const QStringList help = {QStringLiteral("--help")};
        const Result h = runLbd(help);
        EXPECT_EXIT(h, help, 0);
        for (const char* verb : {"data", "train", "eval", "predict", "export"}) {
            EXPECT_MENTIONS(h.out, QLatin1String(verb), h, help);
        }
    }

    // ---- lbd train: invalid configurations are refused before anything is written ---------
    // `lbd <command> --help` explains the command and exits 0, for every command.
    void everyCommandHasHelp_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("data") << "data" << "--imbalance-ratio";
        QTest::newRow("train") << "train" << "--train-utility";
        QTest::newRow("eval") << "eval" << "--tune";
        QTest::newRow("predict") << "predict" << "--defer";
        QTest::newRow("export") << "export" << "--out";
        QTest::newRow("bench") << "bench" << "--no-fused-bn";
        QTest::newRow("completion") << "completion" << "bash";
    }
    void everyCommandHasHelp()
    {
        QFETCH(QString, command);
        QFETCH(QString, mentions);
        const QStringList args = {command, QStringLiteral("--help")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        EXPECT_MENTIONS(result.out, mentions, result, args);
    }

    // The parser's rules: a stray word is an error (not silently the default preset), an option
    // given twice is an error (not its first value), `--` ends the options, a flag takes no value.
    void parserRules_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("named");
        QTest::newRow("stray positional") << QStringList{"train", "cifar10-lt"} << 2 << "cifar10-lt";
        QTest::newRow("repeated option") << QStringList{"data", "--dataset", "synthetic", "--imbalance-ratio", "10",
                                                        "--imbalance-ratio", "20"}
                                         << 2 << "--imbalance-ratio";
        QTest::newRow("flag with a value") << QStringList{"data", "--dataset", "synthetic", "--json", "yes"} << 2 << "yes";
        QTest::newRow("--top 0") << QStringList{"predict", "run", "a.png", "--top", "0"} << 2 << "--top";
        QTest::newRow("--top -3") << QStringList{"predict", "run", "a.png", "--top", "-3"} << 2 << "--top";
        QTest::newRow("bad --set key") << QStringList{"train", "--set", "objective.alhpa=1"} << 2 << "objective.alhpa";
        QTest::newRow("bad --set value") << QStringList{"train", "--set", "objective.alpha=much"} << 2 << "much";
        QTest::newRow("--set without =") << QStringList{"train", "--set", "objective.alpha"} << 2 << "KEY=VALUE";
        QTest::newRow("--set twice") << QStringList{"train", "--set", "objective.alpha=1", "--set", "objective.alpha=2"} << 2
                                     << "objective.alpha is already given by --set objective.alpha=1";
        QTest::newRow("--set and its option") << QStringList{"train", "--alpha", "1", "--set", "objective.alpha=2"} << 2
                                              << "already given by --alpha";
        QTest::newRow("--preset and --config") << QStringList{"train", "--preset", "quick-cpu", "--config", "x.json"} << 2
                                               << "--config";
        QTest::newRow("unknown preset") << QStringList{"train", "--preset", "cifar1000-lt"} << 2 << "cifar1000-lt";
    }
    void parserRules()
    {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, named);
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, status);
        EXPECT_MENTIONS(result.err, named, result, args);
    }

    // The bash completion comes from the same declarations: every option of every command, and
    // the values of the options that take names.
    void bashCompletion()
    {
        const QStringList args = {QStringLiteral("completion"), QStringLiteral("bash")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        for (const char* word : {"complete -o filenames -F _lbd lbd", "--train-utility", "--utility-form", "--tune",
                                 "--val-fraction", "expected argmax mean-logit eq7", "bounded published paper",
                                 "tail-penalty prior-tau defer", "--set"}) {
            EXPECT_MENTIONS(result.out, QLatin1String(word), result, args);
        }
        // The script is valid bash.
        QProcess bash;
        bash.start(QStringLiteral("bash"), {QStringLiteral("-n")});
        QVERIFY(bash.waitForStarted());
        bash.write(result.out.toUtf8());
        bash.closeWriteChannel();
        QVERIFY(bash.waitForFinished());
        QVERIFY2(bash.exitCode() == 0, bash.readAllStandardError().constData());
    }
};

QTEST_APPLESS_MAIN(TestCliGeneral)
#include "test_cli_general.moc"
