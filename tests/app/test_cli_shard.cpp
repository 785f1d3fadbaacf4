// `lbd study --shard I/N` (issue 29 item 6): two processes on one study folder, shard 1/2 and 2/2,
// started at once as two hosts of a cluster would be. Each trains exactly its own runs (run k
// belongs to shard k mod 2), exits 0 when they are done, and together they give the summary a
// one-process study gives. A SLURM job array's variables choose the shard where --shard is not
// given, and bad shards are refused naming what is wrong.
#include "tests/app/clitest.h"

using namespace lbd::test;

namespace {

// Two cells x two seeds of the tiny synthetic set: four runs of a second or two each.
QByteArray shardStudy()
{
    // One thread a run: the same arithmetic in one and in two processes.
    return tinyStudyJson(QStringLiteral("sharded"), R"([{"label": "CE", "baseline": "ce"}, {"label": "LBD"}])",
                         QJsonObject{{QStringLiteral("threads"), 1}});
}

// results/summary.json's cells with their metric values: what a table is made of, less the
// training time (a measurement of the machine, not of the runs).
QByteArray cellsOf(const QString& studyFolder)
{
    QJsonArray cells = readJsonObject(studyFolder + QStringLiteral("/results/summary.json")).value(QStringLiteral("cells")).toArray();
    for (QJsonValueRef cell : cells) {
        QJsonObject object = cell.toObject();
        QJsonObject metrics = object.value(QStringLiteral("metrics")).toObject();
        metrics.remove(QStringLiteral("train_seconds"));
        object[QStringLiteral("metrics")] = metrics;
        cell = object;
    }
    return QJsonDocument(cells).toJson(QJsonDocument::Compact);
}

} // namespace

class TestCliShard final : public CliTest {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_temp.isValid());
        QVERIFY(writeFile(path(QStringLiteral("sharded.json")), shardStudy()));
    }

    void twoShardsFinishEveryRunOnceAndSummarizeAsOneProcess()
    {
        const QString folder = path(QStringLiteral("shared"));
        QProcess shards[2];
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LBD_RUNS_DIR"), path(QStringLiteral("default-runs")));
        for (int s = 0; s < 2; ++s) {
            shards[s].setProcessEnvironment(env);
            shards[s].start(kLbd, {QStringLiteral("study"), path(QStringLiteral("sharded.json")), QStringLiteral("--out"), folder,
                                   QStringLiteral("--shard"), QStringLiteral("%1/2").arg(s + 1)});
            QVERIFY(shards[s].waitForStarted(30000));
        }
        QString out[2];
        for (int s = 0; s < 2; ++s) {
            QVERIFY(shards[s].waitForFinished(600000));
            out[s] = QString::fromUtf8(shards[s].readAllStandardOutput()) + QString::fromUtf8(shards[s].readAllStandardError());
            QVERIFY2(shards[s].exitStatus() == QProcess::NormalExit && shards[s].exitCode() == 0, qPrintable(out[s]));
            QVERIFY2(out[s].contains(QStringLiteral("shard %1/2 (from --shard %1/2)").arg(s + 1)), qPrintable(out[s]));
            // Its own two runs, trained here: the other shard's are neither trained nor waited for.
            QVERIFY2(out[s].contains(QStringLiteral("2 of 2 runs of shard %1/2 finished (2 trained").arg(s + 1)), qPrintable(out[s]));
        }
        // Run k (study order: ce seed 0, ce seed 1, lbd seed 0, lbd seed 1) belongs to shard k mod 2.
        const QStringList runs = {QStringLiteral("ce/seed-0"), QStringLiteral("ce/seed-1"), QStringLiteral("lbd/seed-0"),
                                  QStringLiteral("lbd/seed-1")};
        for (const QString& run : runs) {
            QVERIFY2(QFileInfo::exists(folder + QStringLiteral("/runs/") + run + QStringLiteral("/report.json")), qPrintable(run));
        }
        QVERIFY2(out[0].contains(QStringLiteral("CE, seed 0")) && out[0].contains(QStringLiteral("LBD, seed 0"))
                     && !out[0].contains(QStringLiteral("seed 1")),
                 qPrintable(out[0]));
        QVERIFY2(out[1].contains(QStringLiteral("CE, seed 1")) && out[1].contains(QStringLiteral("LBD, seed 1"))
                     && !out[1].contains(QStringLiteral("seed 0")),
                 qPrintable(out[1]));

        // The summary, written again from what is on disk, equals one process's study.
        const QStringList summarize = {QStringLiteral("study"), folder, QStringLiteral("--summarize")};
        const Result summarized = runLbd(summarize);
        EXPECT_EXIT(summarized, summarize, 0);
        const QString single = path(QStringLiteral("single"));
        const QStringList one = {QStringLiteral("study"), path(QStringLiteral("sharded.json")), QStringLiteral("--out"), single};
        const Result result = runLbd(one, 600000);
        EXPECT_EXIT(result, one, 0);
        QVERIFY2(result.out.contains(QStringLiteral("4 of 4 runs finished (4 trained")), qPrintable(result.describe(one)));
        const QByteArray sharded = cellsOf(folder);
        QVERIFY(sharded.contains("\"finished\":2") && sharded.contains("\"accuracy\""));
        QCOMPARE(sharded, cellsOf(single));
    }

    // A job array's task chooses the shard where --shard is not given, and the log says so.
    void slurmArrayTaskChoosesTheShard()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SLURM_ARRAY_TASK_ID"), QStringLiteral("5"));
        env.insert(QStringLiteral("SLURM_ARRAY_TASK_MIN"), QStringLiteral("4"));
        env.insert(QStringLiteral("SLURM_ARRAY_TASK_COUNT"), QStringLiteral("4"));
        const QString folder = path(QStringLiteral("array"));
        const QStringList args = {QStringLiteral("study"), path(QStringLiteral("sharded.json")), QStringLiteral("--out"), folder};
        const Result result = runLbd(args, env, 600000);
        EXPECT_EXIT(result, args, 0);
        // Task 5 of 4..7 is shard 2/4: run 1 (CE, seed 1) alone.
        EXPECT_MENTIONS(result.err, QStringLiteral("shard 2/4 (from SLURM_ARRAY_TASK_ID=5 of SLURM_ARRAY_TASK_COUNT=4 from "
                                                   "SLURM_ARRAY_TASK_MIN=4)"), result, args);
        EXPECT_MENTIONS(result.out, QStringLiteral("1 of 1 runs of shard 2/4 finished"), result, args);
        EXPECT_MENTIONS(result.out, QStringLiteral("(1 of 4 runs of every shard finished so far)"), result, args);
        QVERIFY(QFileInfo::exists(folder + QStringLiteral("/runs/ce/seed-1/report.json")));
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/runs/ce/seed-0/status.json")));
    }

    void badShardsAreRefused_data()
    {
        QTest::addColumn<QString>("shard");
        QTest::addColumn<QString>("named");
        QTest::newRow("zero") << QStringLiteral("0/2") << QStringLiteral("--shard 0/2: expected I/N");
        QTest::newRow("beyond") << QStringLiteral("3/2") << QStringLiteral("--shard 3/2: expected I/N");
        QTest::newRow("no slash") << QStringLiteral("2") << QStringLiteral("--shard 2: expected I/N");
        QTest::newRow("text") << QStringLiteral("a/b") << QStringLiteral("--shard a/b: expected I/N");
    }

    void badShardsAreRefused()
    {
        QFETCH(QString, shard);
        QFETCH(QString, named);
        const QStringList args = {QStringLiteral("study"), path(QStringLiteral("sharded.json")), QStringLiteral("--out"),
                                  path(QStringLiteral("refused")), QStringLiteral("--shard"), shard};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, named, result, args);
    }

    void badSlurmArrayIsRefused()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SLURM_ARRAY_TASK_ID"), QStringLiteral("9"));
        env.insert(QStringLiteral("SLURM_ARRAY_TASK_COUNT"), QStringLiteral("4"));
        const QStringList args = {QStringLiteral("study"), path(QStringLiteral("sharded.json")), QStringLiteral("--out"),
                                  path(QStringLiteral("refused-array"))};
        const Result result = runLbd(args, env, 300000);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("SLURM_ARRAY_TASK_ID=9 is not one of the 4 tasks"), result, args);
    }
};

QTEST_MAIN(TestCliShard)
#include "test_cli_shard.moc"
