// `lbd study --retry-failed`: a run that failed in the middle of its training (here its loss
// became NaN after epoch 2, a learning-rate jump of 1e30) says why in its status, its log and the
// study's output, keeps its last good checkpoint, and once the cause is gone (the factor set back
// to 1 in its config.json, as a transient GPU fault would be gone by itself) `--retry-failed`
// resumes it from that checkpoint, not from epoch 1: it ends as the same run trained straight
// through (on the CPU, byte-identical metrics).
#include "tests/app/clitest.h"

using namespace lbd::test;

namespace {

// Two seeds of the tiny config, checkpointed every epoch, with no warm-up and the learning rate
// multiplied by `factor` after epoch 2.
QByteArray jumpingStudy(const QString& name, double factor)
{
    QJsonObject study = QJsonDocument::fromJson(tinyStudyJson(name, R"([{"label": "LBD"}])",
                                                              QJsonObject{{QStringLiteral("epochs"), 4},
                                                                          {QStringLiteral("threads"), 1},
                                                                          {QStringLiteral("checkpoint_every"), 1}}))
                            .object();
    QJsonObject config = study.value(QStringLiteral("config")).toObject();
    config[QStringLiteral("optimizer")] = QJsonObject{{QStringLiteral("warmup_epochs"), 0},
                                                      {QStringLiteral("decay_epochs"), QJsonArray{2}},
                                                      {QStringLiteral("decay_factors"), QJsonArray{factor}}};
    study[QStringLiteral("config")] = config;
    return QJsonDocument(study).toJson();
}

QStringList metricLines(const QString& run)
{
    QFile file(run + QStringLiteral("/metrics.jsonl"));
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

// A metrics line without the wall-clock fields, which differ between any two runs.
QJsonObject withoutTimes(const QString& line)
{
    QJsonObject metrics = QJsonDocument::fromJson(line.toUtf8()).object();
    for (const char* key : {"elapsed_seconds", "epoch_seconds", "images_per_second"}) {
        metrics.remove(QLatin1String(key));
    }
    return metrics;
}

} // namespace

class TestCliStudyRetry final : public CliTest {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(kLbd).isExecutable(), qPrintable(kLbd + QStringLiteral(" is not built")));
        QVERIFY(m_temp.isValid());
    }

    void failedRunSaysWhyAndResumesFromItsCheckpoint()
    {
        QVERIFY(writeFile(path(QStringLiteral("jump.json")), jumpingStudy(QStringLiteral("jump"), 1e30)));
        const QString study = path(QStringLiteral("jump"));
        const QStringList args = {QStringLiteral("study"), path(QStringLiteral("jump.json")), QStringLiteral("--out"), study,
                                  QStringLiteral("--parallel"), QStringLiteral("2"), QStringLiteral("--threads"), QStringLiteral("1")};
        const Result failed = runLbd(args);
        EXPECT_EXIT(failed, args, 1);
        EXPECT_MENTIONS(failed.out, QStringLiteral("LBD, seed 0: failed: the loss became nan at epoch 3"), failed, args);
        EXPECT_MENTIONS(failed.out, QStringLiteral("0 of 2 runs finished"), failed, args);
        const QString run = study + QStringLiteral("/runs/lbd/seed-0");
        const QJsonObject status = readJsonObject(run + QStringLiteral("/status.json"));
        QCOMPARE(status.value(QStringLiteral("state")).toString(), QStringLiteral("failed"));
        QVERIFY2(status.value(QStringLiteral("message")).toString().contains(QStringLiteral("the loss became nan at epoch 3")),
                 qPrintable(status.value(QStringLiteral("message")).toString()));
        QCOMPARE(status.value(QStringLiteral("checkpoint_epoch")).toInt(), 2);
        QVERIFY(readFile(run + QStringLiteral("/log.txt")).contains("failed: the loss became nan at epoch 3"));
        QCOMPARE(metricLines(run).size(), 2);

        // Without --retry-failed the failure stands and nothing trains.
        const QStringList again = {QStringLiteral("study"), study};
        const Result stands = runLbd(again);
        EXPECT_EXIT(stands, again, 1);
        EXPECT_MENTIONS(stands.out, QStringLiteral("(0 trained and 0 reused in this call"), stands, again);

        // The cause gone, --retry-failed resumes each run after its checkpoint's epoch.
        for (const QString& seed : {QStringLiteral("seed-0"), QStringLiteral("seed-1")}) {
            const QString file = study + QStringLiteral("/runs/lbd/") + seed + QStringLiteral("/config.json");
            QJsonObject config = readJsonObject(file);
            QJsonObject optimizer = config.value(QStringLiteral("optimizer")).toObject();
            optimizer[QStringLiteral("decay_factors")] = QJsonArray{1.0};
            config[QStringLiteral("optimizer")] = optimizer;
            QVERIFY(writeFile(file, QJsonDocument(config).toJson()));
        }
        const QStringList retry = {QStringLiteral("study"), study, QStringLiteral("--retry-failed")};
        const Result retried = runLbd(retry);
        EXPECT_EXIT(retried, retry, 0);
        EXPECT_MENTIONS(retried.out, QStringLiteral("2 of 2 runs finished (2 trained"), retried, retry);
        const QByteArray log = readFile(run + QStringLiteral("/log.txt"));
        QVERIFY2(log.contains("resumed after epoch 2"), log.constData());
        const QJsonObject done = readJsonObject(run + QStringLiteral("/status.json"));
        QCOMPARE(done.value(QStringLiteral("state")).toString(), QStringLiteral("finished"));
        QCOMPARE(done.value(QStringLiteral("epochs_done")).toInt(), 4);

        // The same run trained straight through with factor 1 (identical to 1e30 up to epoch 2).
        QVERIFY(writeFile(path(QStringLiteral("straight.json")), jumpingStudy(QStringLiteral("straight"), 1.0)));
        const QString straight = path(QStringLiteral("straight"));
        const QStringList plain = {QStringLiteral("study"), path(QStringLiteral("straight.json")), QStringLiteral("--out"),
                                   straight};
        const Result through = runLbd(plain);
        EXPECT_EXIT(through, plain, 0);
        const QStringList resumedLines = metricLines(run);
        const QStringList straightLines = metricLines(straight + QStringLiteral("/runs/lbd/seed-0"));
        QCOMPARE(resumedLines.size(), 4);
        QCOMPARE(straightLines.size(), 4);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(withoutTimes(resumedLines[i]), withoutTimes(straightLines[i]));
        }
    }
};

QTEST_MAIN(TestCliStudyRetry)
#include "test_cli_studyretry.moc"
