// `lbd train`: invalid configurations refused before anything is written, resume, baselines, warnings.
#include "tests/app/clitest.h"

using namespace lbd::test;

class TestCliTrain final : public CliTest {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        trainTinyRun();
    }

    void trainInvalidConfig_data()
    {
        QTest::addColumn<QString>("config"); // contents of a config file, or empty for flags only
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("named");
        QTest::newRow("epochs 0") << QStringLiteral(R"({"train": {"epochs": 0}})") << QStringList()
                                  << QStringLiteral("train.epochs");
        QTest::newRow("epochs text") << QStringLiteral(R"({"train": {"epochs": "many"}})") << QStringList()
                                     << QStringLiteral("train.epochs");
        QTest::newRow("unknown key") << QStringLiteral(R"({"train": {"epoch": 3}})") << QStringList()
                                     << QStringLiteral("train.epoch");
        QTest::newRow("batch size") << QStringLiteral(R"({"train": {"batch_size": -4}})") << QStringList()
                                    << QStringLiteral("train.batch_size");
        QTest::newRow("ratio") << QStringLiteral(R"({"data": {"dataset": "synthetic", "imbalance_ratio": 0.5}})")
                               << QStringList() << QStringLiteral("imbalance_ratio");
        QTest::newRow("--epochs abc") << QString() << QStringList{QStringLiteral("--epochs"), QStringLiteral("abc")}
                                      << QStringLiteral("--epochs");
        QTest::newRow("--lr nan") << QString() << QStringList{QStringLiteral("--lr"), QStringLiteral("nan")}
                                  << QStringLiteral("--lr");
        QTest::newRow("--epochs 0") << QString() << QStringList{QStringLiteral("--epochs"), QStringLiteral("0")}
                                    << QStringLiteral("train.epochs");
    }

    void trainInvalidConfig()
    {
        QFETCH(QString, config);
        QFETCH(QStringList, flags);
        QFETCH(QString, named);
        const QString out = path(QStringLiteral("refused-") + QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
        QStringList args = {QStringLiteral("train"), QStringLiteral("--quiet"), QStringLiteral("--out"), out};
        if (!config.isEmpty()) {
            const QString file = path(QStringLiteral("bad-config.json"));
            QVERIFY(writeFile(file, config.toUtf8()));
            args << QStringLiteral("--config") << file;
        } else {
            args << QStringLiteral("--config") << path(QStringLiteral("tiny.json"));
        }
        args << flags;
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, named, result, args);
        QVERIFY2(!QFileInfo::exists(out), "a refused config must not leave a run folder behind");
    }

    void trainConfigFileMissingOrNotJson()
    {
        const QString missing = path(QStringLiteral("absent.json"));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--config"), missing};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, missing, result, args);

        const QString broken = path(QStringLiteral("broken.json"));
        QVERIFY(writeFile(broken, "{\"train\": {\"epochs\": 2"));
        const QStringList args2 = {QStringLiteral("train"), QStringLiteral("--config"), broken};
        const Result result2 = runLbd(args2);
        EXPECT_EXIT(result2, args2, 2);
        EXPECT_MENTIONS(result2.err, broken, result2, args2);
        QVERIFY2(!QFileInfo::exists(path(QStringLiteral("default-runs"))), "a refused config made a run folder");
    }

    // ---- a trained run: eval, predict, export, resume -------------------------------------

    void tinyRunTrained()
    {
        QVERIFY2(!m_run.isEmpty(), qPrintable(QStringLiteral("training the tiny run failed:\n") + m_trainFailure));
        for (const char* file : {"config.json", "run.json", "status.json", "checkpoint.pt", "report.json",
                                 "test_probabilities.pt", "weights.pt", "metrics.jsonl"}) {
            QVERIFY2(QFileInfo(m_run + QLatin1Char('/') + QLatin1String(file)).isFile(), file);
        }
        QString error;
        const QJsonObject status = parseJson(QString::fromUtf8(readFile(m_run + QStringLiteral("/status.json"))), &error).object();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(status.value(QStringLiteral("state")).toString(), QStringLiteral("finished"));
    }

    // --baseline over a config replaces what the method defines and keeps the rest (alpha 0.7
    // of tiny.json); an unstable training utility warns on stderr before training.
    void baselineKeepsConfigValuesAndUnstableUtilityWarns()
    {
        const QString run = path(QStringLiteral("run-baseline"));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny.json")),
                                  QStringLiteral("--baseline"), QStringLiteral("lbd"), QStringLiteral("--epochs"),
                                  QStringLiteral("1"), QStringLiteral("--train-utility"), QStringLiteral("tail:1"),
                                  QStringLiteral("--utility-form"), QStringLiteral("paper"), QStringLiteral("--out"), run,
                                  QStringLiteral("--quiet")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        EXPECT_MENTIONS(result.err, QStringLiteral("warning: the paper utility form is unbounded below"), result, args);
        QString error;
        const QJsonObject config = parseJson(QString::fromUtf8(readFile(run + QStringLiteral("/config.json"))), &error).object();
        const QJsonObject objective = config.value(QStringLiteral("objective")).toObject();
        QCOMPARE(objective.value(QStringLiteral("alpha")).toDouble(), 0.7);
        QCOMPARE(objective.value(QStringLiteral("utility_form")).toString(), QStringLiteral("paper"));
        QCOMPARE(config.value(QStringLiteral("model")).toObject().value(QStringLiteral("particles")).toInt(), 3);
    }

    // Resuming a finished run has nothing to train: it must succeed quickly and leave the
    // results as they were.
    void resumeFinishedRun()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QByteArray report = readFile(m_run + QStringLiteral("/report.json"));
        const QByteArray probabilities = readFile(m_run + QStringLiteral("/test_probabilities.pt"));
        const QByteArray checkpoint = readFile(m_run + QStringLiteral("/checkpoint.pt"));
        const QByteArray manifest = readFile(m_run + QStringLiteral("/run.json"));
        const QByteArray metrics = readFile(m_run + QStringLiteral("/metrics.jsonl"));
        QVERIFY(!report.isEmpty() && !probabilities.isEmpty() && !checkpoint.isEmpty() && !manifest.isEmpty());

        const QStringList args = {QStringLiteral("train"), QStringLiteral("--resume"), m_run};
        QElapsedTimer timer;
        timer.start();
        const Result result = runLbd(args, 120000);
        EXPECT_EXIT(result, args, 0);
        QVERIFY2(timer.elapsed() < 60000, qPrintable(QStringLiteral("took %1 ms").arg(timer.elapsed())));
        QCOMPARE(readFile(m_run + QStringLiteral("/report.json")), report);
        QCOMPARE(readFile(m_run + QStringLiteral("/test_probabilities.pt")), probabilities);
        QCOMPARE(readFile(m_run + QStringLiteral("/checkpoint.pt")), checkpoint);
        QCOMPARE(readFile(m_run + QStringLiteral("/run.json")), manifest); // its "created" time included
        QCOMPARE(readFile(m_run + QStringLiteral("/metrics.jsonl")), metrics);
        EXPECT_MENTIONS(result.err + result.out, QStringLiteral("nothing to do"), result, args);
        QString error;
        const QJsonObject status = parseJson(QString::fromUtf8(readFile(m_run + QStringLiteral("/status.json"))), &error).object();
        QCOMPARE(status.value(QStringLiteral("state")).toString(), QStringLiteral("finished"));

        // And the run still evaluates as before.
        const QStringList eval = {QStringLiteral("eval"), m_run, QStringLiteral("--json")};
        const Result evaluated = runLbd(eval);
        EXPECT_EXIT(evaluated, eval, 0);
    }

    void resumeWithoutCheckpoint()
    {
        const QString folder = path(QStringLiteral("empty-run"));
        QVERIFY(QDir().mkpath(folder));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--resume"), folder};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("checkpoint.pt"), result, args);
    }

    // 33 training images in batches of 32 leave one image for the last batch: the small CNN's
    // batch norm over [1, 256, 1, 1] cannot train on it ("Expected more than 1 value per
    // channel"), so the epoch leaves it out (it is drawn in other epochs) instead of failing.
    void aLoneLastImageDoesNotStopTraining()
    {
        const QString config = path(QStringLiteral("thirty-three.json"));
        QVERIFY(writeFile(config, R"({"data": {"dataset": "synthetic", "imbalance_ratio": 1, "val_fraction": 0,
            "synthetic": {"classes": 3, "train_per_class": 11, "test_per_class": 5, "channels": 1, "size": 16}},
            "augment": {"output_size": 16, "padding": 2}, "model": {"arch": "smallcnn", "particles": 2},
            "train": {"epochs": 1, "batch_size": 32, "device": "cpu", "threads": 1}})"));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--config"), config, QStringLiteral("--out"),
                                  path(QStringLiteral("run-33")), QStringLiteral("--quiet")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
    }

    void trainIntoExistingRun()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny.json")),
                                  QStringLiteral("--out"), m_run, QStringLiteral("--quiet")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("--resume"), result, args);
    }
    // --set reaches any key; --json prints the final report.json; a finished run resumed with a
    // larger --epochs trains on to it.
    void setJsonAndResumeWithMoreEpochs()
    {
        const QString run = path(QStringLiteral("run-set"));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny.json")),
                                  QStringLiteral("--epochs"), QStringLiteral("1"), QStringLiteral("--set"),
                                  QStringLiteral("objective.tau=7.5"), QStringLiteral("--set"),
                                  QStringLiteral("optimizer.decay_epochs=1"), QStringLiteral("--set"),
                                  QStringLiteral("optimizer.decay_factors=0.5"), QStringLiteral("--json"),
                                  QStringLiteral("--quiet"), QStringLiteral("--out"), run};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        QString error;
        const QJsonObject report = parseJson(result.out, &error).object();
        QVERIFY2(error.isEmpty(), qPrintable(error + result.describe(args)));
        QVERIFY(report.contains(QStringLiteral("evaluation")));
        const QJsonObject config = parseJson(QString::fromUtf8(readFile(run + QStringLiteral("/config.json"))), &error).object();
        QCOMPARE(config[QStringLiteral("objective")][QStringLiteral("tau")].toDouble(), 7.5);
        QCOMPARE(config[QStringLiteral("optimizer")][QStringLiteral("decay_epochs")].toArray().size(), 1);

        const QStringList more = {QStringLiteral("train"), QStringLiteral("--resume"), run, QStringLiteral("--epochs"),
                                  QStringLiteral("2"), QStringLiteral("--quiet")};
        const Result resumed = runLbd(more);
        EXPECT_EXIT(resumed, more, 0);
        const QJsonObject status = parseJson(QString::fromUtf8(readFile(run + QStringLiteral("/status.json"))), &error).object();
        QCOMPARE(status[QStringLiteral("epochs_done")].toInt(), 2);
        QCOMPARE(status[QStringLiteral("state")].toString(), QStringLiteral("finished"));
        // Anything but --epochs with --resume is refused, naming the setting.
        const QStringList other = {QStringLiteral("train"), QStringLiteral("--resume"), run, QStringLiteral("--alpha"),
                                   QStringLiteral("2")};
        const Result refused = runLbd(other);
        EXPECT_EXIT(refused, other, 2);
        EXPECT_MENTIONS(refused.err, QStringLiteral("objective.alpha"), refused, other);
    }
};

QTEST_APPLESS_MAIN(TestCliTrain)
#include "test_cli_train.moc"
