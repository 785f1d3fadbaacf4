// `lbd eval`: re-deciding a run without retraining, the defer option, tuning on validation, self-contained runs.
#include "tests/app/clitest.h"

using namespace lbd::test;

class TestCliEval final : public CliTest {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        trainTinyRun();
    }

    void evalJson()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QStringList args = {QStringLiteral("eval"), m_run, QStringLiteral("--json")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        QString error;
        const QJsonObject report = parseJson(result.out, &error).object();
        QVERIFY2(error.isEmpty(), qPrintable(error + QLatin1Char('\n') + result.describe(args)));
        const QJsonObject accuracy = report.value(QStringLiteral("accuracy")).toObject();
        const double value = accuracy.value(QStringLiteral("accuracy")).toDouble(-1);
        QVERIFY2(value >= 0.0 && value <= 1.0, qPrintable(result.out.left(500)));
        QCOMPARE(accuracy.value(QStringLiteral("total")).toInt(), 40); // 4 classes x 10 test images
        QCOMPARE(report.value(QStringLiteral("classes")).toInt(), 4);
        QCOMPARE(report.value(QStringLiteral("particles")).toInt(), 2);
        QCOMPARE(report.value(QStringLiteral("utility")).toString(), QStringLiteral("tail:0.5"));
    }

    void evalUtilitiesAndRules_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("utility");
        QTest::newRow("tail eq7") << QStringList{QStringLiteral("--utility"), QStringLiteral("tail:0.5"),
                                                 QStringLiteral("--rule"), QStringLiteral("eq7")}
                                  << QStringLiteral("eq7") << QStringLiteral("tail:0.5");
        QTest::newRow("old name lbd") << QStringList{QStringLiteral("--rule"), QStringLiteral("lbd")}
                                      << QStringLiteral("eq7") << QStringLiteral("tail:0.5");
        QTest::newRow("mean-logit") << QStringList{QStringLiteral("--rule"), QStringLiteral("mean-logit")}
                                    << QStringLiteral("mean-logit") << QStringLiteral("tail:0.5");
        QTest::newRow("onehot") << QStringList{QStringLiteral("--utility"), QStringLiteral("onehot")} << QString()
                                << QStringLiteral("onehot");
        QTest::newRow("onehot argmax") << QStringList{QStringLiteral("--utility"), QStringLiteral("onehot"),
                                                      QStringLiteral("--rule"), QStringLiteral("argmax")}
                                       << QStringLiteral("argmax") << QStringLiteral("onehot");
        QTest::newRow("expected") << QStringList{QStringLiteral("--rule"), QStringLiteral("expected")}
                                  << QStringLiteral("expected") << QStringLiteral("tail:0.5");
    }

    void evalUtilitiesAndRules()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        QFETCH(QStringList, flags);
        QFETCH(QString, rule);
        QFETCH(QString, utility);
        const QStringList args = QStringList{QStringLiteral("eval"), m_run, QStringLiteral("--json")} + flags;
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        QString error;
        const QJsonObject report = parseJson(result.out, &error).object();
        QVERIFY2(error.isEmpty(), qPrintable(error + QLatin1Char('\n') + result.describe(args)));
        if (!rule.isEmpty()) {
            QCOMPARE(report.value(QStringLiteral("rule")).toString(), rule);
        }
        QCOMPARE(report.value(QStringLiteral("utility")).toString(), utility);
        const double accuracy = report.value(QStringLiteral("accuracy")).toObject().value(QStringLiteral("accuracy")).toDouble(-1);
        QVERIFY(accuracy >= 0.0 && accuracy <= 1.0);

        // The same without --json prints a report, not JSON.
        QStringList plain = args;
        plain.removeAll(QStringLiteral("--json"));
        const Result text = runLbd(plain);
        EXPECT_EXIT(text, plain, 0);
        QVERIFY2(!text.out.trimmed().startsWith(QLatin1Char('{')), qPrintable(text.describe(plain)));
    }

    void evalBadOptions_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("named");
        QTest::newRow("utility") << QStringList{QStringLiteral("--utility"), QStringLiteral("bayes")} << QStringLiteral("bayes");
        QTest::newRow("tail penalty") << QStringList{QStringLiteral("--utility"), QStringLiteral("tail:-1")}
                                      << QStringLiteral("tail:-1");
        QTest::newRow("rule") << QStringList{QStringLiteral("--rule"), QStringLiteral("majority")} << QStringLiteral("majority");
        QTest::newRow("defer with mean-logit") << QStringList{QStringLiteral("--rule"), QStringLiteral("mean-logit"),
                                                              QStringLiteral("--defer"), QStringLiteral("0.5")}
                                               << QStringLiteral("mean-logit");
        QTest::newRow("defer not a number") << QStringList{QStringLiteral("--defer"), QStringLiteral("half")}
                                            << QStringLiteral("--defer");
        // The config file's limit for a defer utility holds on the command line too (issue 30).
        QTest::newRow("defer 1e308") << QStringList{QStringLiteral("--defer"), QStringLiteral("1e308")}
                                     << QStringLiteral("--defer must be a number between -1e6 and 1e6");
        QTest::newRow("split") << QStringList{QStringLiteral("--split"), QStringLiteral("train")} << QStringLiteral("train");
        QTest::newRow("validation missing") << QStringList{QStringLiteral("--split"), QStringLiteral("validation")}
                                            << QStringLiteral("--val-fraction");
        QTest::newRow("tune without validation") << QStringList{QStringLiteral("--tune"), QStringLiteral("defer")}
                                                 << QStringLiteral("val_probabilities.pt");
        QTest::newRow("matrix file") << QStringList{QStringLiteral("--utility"), QStringLiteral("/nonexistent/u.csv")}
                                     << QStringLiteral("u.csv");
    }

    void evalBadOptions()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        QFETCH(QStringList, flags);
        QFETCH(QString, named);
        const QStringList args = QStringList{QStringLiteral("eval"), m_run} + flags;
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, named, result, args);
    }

    // The decision matrix is the run's by value: editing, then deleting the user's file after
    // training leaves `lbd eval RUN` exactly as it was.
    void evalIgnoresTheUtilityFileAfterTraining()
    {
        const QString matrix = path(QStringLiteral("mine.csv"));
        QVERIFY(writeFile(matrix, "1,0,0,0\n-2,1,0,0\n-2,-1.5,1,0\n-2,-2,-2,1\n")); // not a tail:c preset
        const QString run = path(QStringLiteral("run-file-utility"));
        const QStringList trainArgs = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny.json")),
                                       QStringLiteral("--epochs"), QStringLiteral("1"), QStringLiteral("--utility"), matrix,
                                       QStringLiteral("--train-utility"), matrix, QStringLiteral("--out"), run,
                                       QStringLiteral("--quiet")};
        const Result trained = runLbd(trainArgs);
        EXPECT_EXIT(trained, trainArgs, 0);
        const QStringList evalArgs = {QStringLiteral("eval"), run, QStringLiteral("--json")};
        const Result before = runLbd(evalArgs);
        EXPECT_EXIT(before, evalArgs, 0);
        QVERIFY(writeFile(matrix, "1,0,0,0\n0,1,0,0\n0,0,1,0\n0,0,0,1\n"));
        const Result edited = runLbd(evalArgs);
        EXPECT_EXIT(edited, evalArgs, 0);
        QVERIFY(QFile::remove(matrix));
        const Result deleted = runLbd(evalArgs);
        EXPECT_EXIT(deleted, evalArgs, 0);
        QCOMPARE(edited.out, before.out);
        QCOMPARE(deleted.out, before.out);
        QVERIFY2(!deleted.err.contains(QStringLiteral("note")), qPrintable(deleted.err));
        EXPECT_MENTIONS(before.out, QStringLiteral("mine.csv"), before, evalArgs); // "matrix from mine.csv"
    }

    // eval's defer option and the eq7 warning on stderr.
    void evalDeferAndWarnings()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QStringList deferArgs = {QStringLiteral("eval"), m_run, QStringLiteral("--json"), QStringLiteral("--defer"),
                                       QStringLiteral("0.2")};
        const Result deferred = runLbd(deferArgs);
        EXPECT_EXIT(deferred, deferArgs, 0);
        QString error;
        const QJsonObject report = parseJson(deferred.out, &error).object();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonObject defer = report.value(QStringLiteral("defer")).toObject();
        QCOMPARE(defer.value(QStringLiteral("utility")).toDouble(), 0.2);
        QCOMPARE(defer.value(QStringLiteral("decided")).toInt() + defer.value(QStringLiteral("deferred")).toInt(), 40);
        QVERIFY(report.value(QStringLiteral("risk_coverage")).toObject().contains(QStringLiteral("all")));

        const QStringList eq7 = {QStringLiteral("eval"), m_run, QStringLiteral("--rule"), QStringLiteral("eq7"),
                                 QStringLiteral("--utility"), QStringLiteral("tail:2")};
        const Result warned = runLbd(eq7);
        EXPECT_EXIT(warned, eq7, 0);
        EXPECT_MENTIONS(warned.err, QStringLiteral("warning: the eq7 rule is degenerate"), warned, eq7);
        EXPECT_MENTIONS(warned.out, QStringLiteral("WARNING"), warned, eq7);
        const QStringList plain = {QStringLiteral("eval"), m_run, QStringLiteral("--utility"), QStringLiteral("onehot")};
        const Result quiet = runLbd(plain);
        EXPECT_EXIT(quiet, plain, 0);
        QVERIFY2(!quiet.err.contains(QStringLiteral("eq7")), qPrintable(quiet.describe(plain)));
    }

    // A run with a validation split: tune on it, report the test split.
    void evalTunesOnValidation()
    {
        const QString run = path(QStringLiteral("run-validation"));
        const QStringList trainArgs = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny.json")),
                                       QStringLiteral("--val-fraction"), QStringLiteral("0.25"), QStringLiteral("--out"), run,
                                       QStringLiteral("--quiet")};
        const Result trained = runLbd(trainArgs);
        EXPECT_EXIT(trained, trainArgs, 0);
        QVERIFY(QFileInfo(run + QStringLiteral("/val_probabilities.pt")).isFile());
        for (const QString& what : {QStringLiteral("defer"), QStringLiteral("tail-penalty")}) {
            const QStringList args = {QStringLiteral("eval"), run, QStringLiteral("--tune"), what, QStringLiteral("--json")};
            const Result tuned = runLbd(args);
            EXPECT_EXIT(tuned, args, 0);
            QString error;
            const QJsonObject report = parseJson(tuned.out, &error).object();
            QVERIFY2(error.isEmpty(), qPrintable(error + tuned.describe(args)));
            QCOMPARE(report.value(QStringLiteral("split")).toString(), QStringLiteral("test"));
            QCOMPARE(report.value(QStringLiteral("tuning")).toObject().value(QStringLiteral("what")).toString(), what);
            QCOMPARE(report.value(QStringLiteral("images")).toInt(), 40); // reported on the test split
        }
        const QStringList validation = {QStringLiteral("eval"), run, QStringLiteral("--split"), QStringLiteral("validation"),
                                        QStringLiteral("--json")};
        const Result onValidation = runLbd(validation);
        EXPECT_EXIT(onValidation, validation, 0);
        QString error;
        QVERIFY(parseJson(onValidation.out, &error).object().value(QStringLiteral("images")).toInt() < 40);
    }

    void evalNotARun()
    {
        const QString empty = path(QStringLiteral("not-a-run"));
        QVERIFY(QDir().mkpath(empty));
        QVERIFY(writeFile(empty + QStringLiteral("/notes.txt"), "hello\n"));
        const QStringList args = {QStringLiteral("eval"), empty};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, empty, result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("config.json"), result, args);
    }

    void missingRunFolder_data()
    {
        QTest::addColumn<QString>("verb");
        QTest::newRow("eval") << QStringLiteral("eval");
        QTest::newRow("train --resume") << QStringLiteral("resume");
        QTest::newRow("predict") << QStringLiteral("predict");
        QTest::newRow("export") << QStringLiteral("export");
    }

    // A mistyped run folder is an error naming it, and is not created.
    void missingRunFolder()
    {
        QFETCH(QString, verb);
        const QString missing = path(QStringLiteral("no-such-run-") + QString(verb).remove(QLatin1Char(' ')));
        QStringList args;
        if (verb == QLatin1String("resume")) {
            args = {QStringLiteral("train"), QStringLiteral("--resume"), missing};
        } else if (verb == QLatin1String("predict")) {
            args = {verb, missing, path(QStringLiteral("any.png"))};
        } else if (verb == QLatin1String("export")) {
            args = {verb, missing, QStringLiteral("--out"), path(QStringLiteral("unused.pt"))};
        } else {
            args = {verb, missing};
        }
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, missing, result, args);
        // Reading a run must not create its folder.
        QVERIFY2(!QFileInfo::exists(missing), "lbd created the folder it was asked to read");
    }
};

QTEST_APPLESS_MAIN(TestCliEval)
#include "test_cli_eval.moc"
