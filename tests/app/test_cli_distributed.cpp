// `lbd train --processes N`: data-parallel training over c10d/Gloo between CPU processes, started
// by lbd itself. One run folder (rank 0's), no scratch left behind, a resume with another rank
// count, a rank that dies ending the run with a message instead of a hang, and a bad launch
// environment refused.
#include "tests/app/clitest.h"

#include <algorithm>
#include <csignal>
#include <utility>
#include <vector>

using namespace lbd::test;

namespace {

QByteArray tinyConfig(int epochs)
{
    QJsonObject config = QJsonDocument::fromJson(kTinyConfig).object();
    QJsonObject train = config.value(QStringLiteral("train")).toObject();
    train[QStringLiteral("epochs")] = epochs;
    train[QStringLiteral("threads")] = 1;
    config[QStringLiteral("train")] = train;
    return QJsonDocument(config).toJson();
}

// The processes whose parent is `parent`, oldest first (from /proc/PID/stat: needs no kernel option).
QStringList childrenOf(qint64 parent)
{
    std::vector<std::pair<std::pair<qulonglong, qint64>, QString>> children; // (start tick, pid): forked in the same tick, the lower pid first
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& pid : entries) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly)) {
            continue;
        }
        const QString text = QString::fromUtf8(stat.readAll());
        // "pid (comm) state ppid ... starttime": the fields after the command's closing parenthesis.
        const QStringList fields = text.mid(text.lastIndexOf(QLatin1Char(')')) + 2).split(QLatin1Char(' '));
        if (fields.size() > 19 && fields[1].toLongLong() == parent) {
            children.push_back({{fields[19].toULongLong(), pid.toLongLong()}, pid});
        }
    }
    std::sort(children.begin(), children.end());
    QStringList pids;
    for (const auto& child : children) {
        pids << child.second;
    }
    return pids;
}

int metricLines(const QString& run)
{
    QFile file(run + QStringLiteral("/metrics.jsonl"));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts).size() : -1;
}

} // namespace

class TestCliDistributed final : public CliTest {
    Q_OBJECT

    QProcessEnvironment m_environment;

    Result lbdWith(const QStringList& args, const QProcessEnvironment& environment) const
    {
        return runLbd(args, environment, 240000);
    }

    QStringList scratchLeft() const
    {
        return QDir(path(QStringLiteral("tmp"))).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_temp.isValid());
        QVERIFY(QDir().mkpath(path(QStringLiteral("tmp"))));
        m_environment = QProcessEnvironment::systemEnvironment();
        m_environment.insert(QStringLiteral("TMPDIR"), path(QStringLiteral("tmp"))); // the ranks' scratch folders
        m_environment.insert(QStringLiteral("LBD_DIST_TIMEOUT"), QStringLiteral("30"));
        QVERIFY(writeFile(path(QStringLiteral("tiny3.json")), tinyConfig(3)));
        QVERIFY(writeFile(path(QStringLiteral("long.json")), tinyConfig(400)));
    }

    void twoProcessesTrainOneRun()
    {
        const QString run = path(QStringLiteral("two"));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny3.json")),
                                  QStringLiteral("--out"), run, QStringLiteral("--processes"), QStringLiteral("2")};
        const Result result = lbdWith(args, m_environment);
        EXPECT_EXIT(result, args, 0);
        EXPECT_MENTIONS(result.out, QStringLiteral("run folder: ") + run, result, args);
        QVERIFY2(!result.out.contains(QStringLiteral("lbd-rank-")), qPrintable(result.out)); // rank 1 says nothing
        QCOMPARE(metricLines(run), 3);
        QVERIFY(QFileInfo(run + QStringLiteral("/report.json")).size() > 0);
        QVERIFY(QFileInfo(run + QStringLiteral("/checkpoint.pt")).size() > 0);
        // The ranks divided the evaluation; the report still counts every test image once.
        const QJsonObject evaluation =
            QJsonDocument::fromJson(readFile(run + QStringLiteral("/report.json"))).object().value(QStringLiteral("evaluation")).toObject();
        QCOMPARE(evaluation.value(QStringLiteral("images")).toInt(), 4 * 10);
        QCOMPARE(scratchLeft(), QStringList());
        QFile log(run + QStringLiteral("/log.txt"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        QVERIFY2(log.readAll().contains("rank 0 of 2: joining 127.0.0.1:"), "rank 0 logs the group it joined");
    }

    // Only rank 0 reads the checkpoint; three ranks continue what two trained.
    void resumesWithAnotherRankCount()
    {
        const QString run = path(QStringLiteral("two"));
        QVERIFY2(metricLines(run) == 3, "needs the run of the test before");
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--resume"), run, QStringLiteral("--epochs"),
                                  QStringLiteral("5"), QStringLiteral("--processes"), QStringLiteral("3")};
        const Result result = lbdWith(args, m_environment);
        EXPECT_EXIT(result, args, 0);
        QCOMPARE(metricLines(run), 5);
        QFile log(run + QStringLiteral("/log.txt"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QByteArray logged = log.readAll();
        QVERIFY2(logged.contains("resumed after epoch 3") && logged.contains("rank 0 of 3: joining"), logged.constData());
        QCOMPARE(scratchLeft(), QStringList());
    }

    void aRankThatDiesEndsTheRunWithAMessage()
    {
        const QString run = path(QStringLiteral("killed"));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("long.json")),
                                  QStringLiteral("--out"), run, QStringLiteral("--processes"), QStringLiteral("2")};
        QProcess launcher;
        launcher.setProcessEnvironment(m_environment);
        launcher.start(kLbd, args);
        QVERIFY(launcher.waitForStarted(30000));
        QElapsedTimer timer;
        timer.start();
        while (metricLines(run) < 2 && timer.elapsed() < 120000) {
            launcher.waitForFinished(100);
        }
        QVERIFY2(metricLines(run) >= 2, qPrintable(QString::fromUtf8(launcher.readAllStandardError())));
        // The launcher's children are the ranks, started in rank order.
        const QStringList ranks = childrenOf(launcher.processId());
        QCOMPARE(ranks.size(), 2);
        ::kill(static_cast<pid_t>(ranks[1].toLongLong()), SIGKILL);
        timer.restart();
        QVERIFY2(launcher.waitForFinished(90000), "the other rank must not hang");
        const QString err = QString::fromUtf8(launcher.readAllStandardError());
        QCOMPARE(launcher.exitStatus(), QProcess::NormalExit);
        QCOMPARE(launcher.exitCode(), 128 + SIGKILL);
        QVERIFY2(err.contains(QStringLiteral("rank 1 of 2 ended with status 137; stopping the other ranks")), qPrintable(err));
        QVERIFY2(timer.elapsed() < 60000, "within the collective timeout");
        QVERIFY(QFileInfo(run + QStringLiteral("/checkpoint.pt")).size() > 0 || metricLines(run) < 10);
        QCOMPARE(scratchLeft(), QStringList()); // the launcher removed the folder of the rank it lost
    }

    void syncBatchNormIsASetting()
    {
        const QString run = path(QStringLiteral("sync"));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny3.json")),
                                  QStringLiteral("--out"), run, QStringLiteral("--processes"), QStringLiteral("2"),
                                  QStringLiteral("--sync-bn")};
        const Result result = lbdWith(args, m_environment);
        EXPECT_EXIT(result, args, 0);
        QFile config(run + QStringLiteral("/config.json"));
        QVERIFY(config.open(QIODevice::ReadOnly));
        const QJsonObject train = QJsonDocument::fromJson(config.readAll()).object().value(QStringLiteral("train")).toObject();
        QCOMPARE(train.value(QStringLiteral("sync_bn")).toBool(), true);
        QCOMPARE(metricLines(run), 3);
    }

    // `lbd bench --processes 2`: both ranks take the same number of steps (rank 0 says when the
    // time is up), each trains half of every global batch of 8, and the one record counts each
    // image once (steps x 8, not steps x 8 x 2: issue 33) and names the typed command.
    void benchMeasuresDataParallelTraining()
    {
        const QString record = path(QStringLiteral("bench-2.json"));
        const QStringList args = {QStringLiteral("bench"), QStringLiteral("--what"), QStringLiteral("train"),
                                  QStringLiteral("--processes"), QStringLiteral("2"), QStringLiteral("--device"),
                                  QStringLiteral("cpu"), QStringLiteral("--arch"), QStringLiteral("smallcnn"),
                                  QStringLiteral("--batch"), QStringLiteral("8"), QStringLiteral("--train-seconds"),
                                  QStringLiteral("0.5"), QStringLiteral("--train-images"), QStringLiteral("200"),
                                  QStringLiteral("--out"), record};
        const Result result = lbdWith(args, m_environment);
        EXPECT_EXIT(result, args, 0);
        EXPECT_MENTIONS(result.out, QStringLiteral("global batch 8, 8/2 = 4 per rank (2 ranks)"), result, args);
        QCOMPARE(result.out.count(QStringLiteral("training (fast")), 1); // rank 1 prints nothing
        QFile file(record);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(json.value(QStringLiteral("ranks")).toInt(), 2);
        QCOMPARE(json.value(QStringLiteral("global_batch")).toInt(), 8);
        QCOMPARE(json.value(QStringLiteral("batch_per_rank")).toInt(), 4);
        QVERIFY(json.value(QStringLiteral("command")).toString().contains(QStringLiteral("--processes 2")));
        const QJsonObject training = json.value(QStringLiteral("results")).toArray().at(0).toObject();
        QCOMPARE(training.value(QStringLiteral("ranks")).toInt(), 2);
        const double steps = training.value(QStringLiteral("steps")).toDouble();
        const double seconds = training.value(QStringLiteral("seconds")).toDouble();
        QVERIFY(steps >= 20 && seconds > 0);
        QCOMPARE(training.value(QStringLiteral("images")).toDouble(), steps * 8); // the images trained
        QCOMPARE(training.value(QStringLiteral("batch_per_rank")).toInt(), 4);
        QCOMPARE(training.value(QStringLiteral("images_per_second")).toDouble(), steps * 8 / seconds);
        QVERIFY(training.value(QStringLiteral("details")).toString().contains(QStringLiteral("through gloo")));
        const QStringList notTrain = {QStringLiteral("bench"), QStringLiteral("--processes"), QStringLiteral("2")};
        EXPECT_EXIT(lbdWith(notTrain, m_environment), notTrain, 2);
    }

    void aBadLaunchIsRefused_data()
    {
        QTest::addColumn<QStringList>("variables");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("rank beyond the world") << QStringList{QStringLiteral("RANK=5"), QStringLiteral("WORLD_SIZE=2")}
                                               << QStringList() << QStringLiteral("RANK=5: must be a whole number from 0 to 1");
        QTest::newRow("rank without world size") << QStringList{QStringLiteral("RANK=0")} << QStringList()
                                                 << QStringLiteral("RANK is set but WORLD_SIZE is not");
        QTest::newRow("--processes inside a rank")
            << QStringList{QStringLiteral("RANK=0"), QStringLiteral("WORLD_SIZE=2")}
            << QStringList{QStringLiteral("--processes"), QStringLiteral("2")} << QStringLiteral("already rank 0 of 2");
        QTest::newRow("a batch smaller than 2 per rank")
            << QStringList() << QStringList{QStringLiteral("--processes"), QStringLiteral("2"), QStringLiteral("--batch-size"), QStringLiteral("3")}
            << QStringLiteral("train.batch_size (3) must be at least 2 per rank (2 ranks)");
        QTest::newRow("more GPUs than there are") << QStringList() << QStringList{QStringLiteral("--gpus"), QStringLiteral("64")}
                                                  << QStringLiteral("--gpus 64: ");
    }

    void aBadLaunchIsRefused()
    {
        QFETCH(QStringList, variables);
        QFETCH(QStringList, extra);
        QFETCH(QString, fragment);
        QProcessEnvironment environment = m_environment;
        for (const QString& variable : variables) {
            environment.insert(variable.section(QLatin1Char('='), 0, 0), variable.section(QLatin1Char('='), 1));
        }
        const QStringList args = QStringList{QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny3.json")),
                                             QStringLiteral("--out"), path(QStringLiteral("refused"))}
            + extra;
        const Result result = lbdWith(args, environment);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, fragment, result, args);
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("refused"))));
    }
};

QTEST_MAIN(TestCliDistributed)
#include "test_cli_distributed.moc"
