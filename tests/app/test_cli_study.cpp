// `lbd study`: a tiny CPU study run by the real binary: a failed cell is reported and does not stop
// the others, a half-finished study resumes (finished runs untouched), Ctrl+C stops with 130 and
// the same command continues, and bad input is refused with exit 2.
#include "tests/app/clitest.h"

#include <csignal>

using namespace lbd::test;

namespace {

// Two working cells and one that cannot load its data, two seeds each.
QByteArray tinyStudy(int epochs, const QString& name = QStringLiteral("tiny"), const QByteArray& levelsJson = QByteArray())
{
    return tinyStudyJson(name, !levelsJson.isEmpty() ? levelsJson : QByteArray(R"([
        {"label": "CE", "baseline": "ce"},
        {"label": "LBD"},
        {"label": "broken", "set": {"data.dataset": "folder", "data.data_dir": "/nonexistent-lbd-data"}}])"),
                         QJsonObject{{QStringLiteral("epochs"), epochs}});
}

} // namespace

class TestCliStudy final : public CliTest {
    Q_OBJECT

    QString m_study; // the finished tiny study, shared by the tests after the first

private slots:
    void initTestCase()
    {
        QVERIFY(m_temp.isValid());
        QVERIFY(writeFile(path(QStringLiteral("tiny-study.json")), tinyStudy(2)));
    }

    void failedCellIsReportedAndOthersFinish()
    {
        m_study = path(QStringLiteral("study"));
        const QStringList args = {QStringLiteral("study"), path(QStringLiteral("tiny-study.json")), QStringLiteral("--out"),
                                  m_study, QStringLiteral("--parallel"), QStringLiteral("2")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 1);
        EXPECT_MENTIONS(result.out, QStringLiteral("| CE | 2/2 |"), result, args);
        EXPECT_MENTIONS(result.out, QStringLiteral("| LBD | 2/2 |"), result, args);
        EXPECT_MENTIONS(result.out, QStringLiteral("| broken | 0/2 |"), result, args);
        EXPECT_MENTIONS(result.out, QStringLiteral("broken, seed 1: failed: bad input: /nonexistent-lbd-data"), result, args);
        EXPECT_MENTIONS(result.out, QStringLiteral("4 of 6 runs finished"), result, args);
        for (const QString& run : {QStringLiteral("ce/seed-0"), QStringLiteral("ce/seed-1"), QStringLiteral("lbd/seed-0"),
                                   QStringLiteral("lbd/seed-1")}) {
            const QJsonObject status = readJsonObject(m_study + QStringLiteral("/runs/") + run + QStringLiteral("/status.json"));
            QCOMPARE(status.value(QStringLiteral("state")).toString(), QStringLiteral("finished"));
        }
        for (const QString& file : {QStringLiteral("summary.json"), QStringLiteral("table.md"), QStringLiteral("table.csv"),
                                    QStringLiteral("table.tex")}) {
            QVERIFY2(QFileInfo(m_study + QStringLiteral("/results/") + file).size() > 0, qPrintable(file));
        }
        const QJsonObject summary = readJsonObject(m_study + QStringLiteral("/results/summary.json"));
        const QJsonObject ce = summary.value(QStringLiteral("cells")).toArray().at(0).toObject();
        QCOMPARE(ce.value(QStringLiteral("metrics")).toObject().value(QStringLiteral("accuracy")).toObject().value(QStringLiteral("n")).toInt(), 2);
    }

    void halfFinishedStudyResumes()
    {
        QVERIFY2(!m_study.isEmpty(), "needs the study of the test before");
        const QString kept = m_study + QStringLiteral("/runs/ce/seed-0/report.json");
        const QDateTime keptTime = QFileInfo(kept).lastModified();
        // One run never started, one killed while writing its final files.
        QVERIFY(QDir(m_study + QStringLiteral("/runs/lbd/seed-1")).removeRecursively());
        const QString killed = m_study + QStringLiteral("/runs/ce/seed-1");
        QVERIFY(QFile::remove(killed + QStringLiteral("/report.json")));
        QVERIFY(writeFile(killed + QStringLiteral("/status.json"),
                          R"({"state": "running", "epochs_done": 2, "checkpoint_epoch": 2, "epochs": 2, "message": ""})"));
        const QStringList args = {QStringLiteral("study"), m_study};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 1); // the broken cell still fails (not retried without --retry-failed)
        EXPECT_MENTIONS(result.out, QStringLiteral("6 runs finished"), result, args);
        EXPECT_MENTIONS(result.out, QStringLiteral("(2 trained and 0 reused in this call"), result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("started  LBD, seed 1"), result, args);
        QVERIFY2(!result.err.contains(QStringLiteral("started  CE, seed 0")), qPrintable(result.err));
        QVERIFY2(!result.err.contains(QStringLiteral("started  broken")), qPrintable(result.err));
        QCOMPARE(QFileInfo(kept).lastModified(), keptTime);
        QVERIFY(QFileInfo(killed + QStringLiteral("/report.json")).size() > 0);
        QCOMPARE(readJsonObject(killed + QStringLiteral("/status.json")).value(QStringLiteral("state")).toString(),
                 QStringLiteral("finished"));
        // Nothing left to do: no run starts, the same table.
        const Result again = runLbd(args);
        EXPECT_EXIT(again, args, 1);
        EXPECT_MENTIONS(again.out, QStringLiteral("(0 trained and 0 reused in this call"), again, args);
    }

    // Another study whose cells overlap the finished one: the same config and seed is copied, a
    // new seed or another config trains.
    void finishedRunsWithTheSameConfigAreReused()
    {
        QVERIFY2(!m_study.isEmpty(), "needs the study of the tests before");
        QVERIFY(writeFile(path(QStringLiteral("overlap.json")), tinyStudy(2, QStringLiteral("overlap"), R"([
            {"label": "Cross-entropy", "baseline": "ce"},
            {"label": "LBD, 3 epochs", "set": {"train.epochs": 3}}])")));
        const QString folder = path(QStringLiteral("overlap"));
        const QStringList args = {QStringLiteral("study"), path(QStringLiteral("overlap.json")), QStringLiteral("--out"), folder,
                                  QStringLiteral("--seeds"), QStringLiteral("1,2"), QStringLiteral("--reuse-from"), m_study};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        // CE seed 1 is the first study's; CE seed 2 and both 3-epoch runs are new.
        EXPECT_MENTIONS(result.out, QStringLiteral("4 of 4 runs finished (3 trained and 1 reused in this call"), result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("runs/cross-entropy/seed-1: reused "), result, args);
        const QJsonObject reused = readJsonObject(folder + QStringLiteral("/reused.json"));
        QCOMPARE(reused.keys(), QStringList{QStringLiteral("runs/cross-entropy/seed-1")});
        QVERIFY2(reused.value(QStringLiteral("runs/cross-entropy/seed-1")).toString().endsWith(QStringLiteral("/study/runs/ce/seed-1")),
                 qPrintable(reused.value(QStringLiteral("runs/cross-entropy/seed-1")).toString()));
        // The copy is the run itself: the same report, byte for byte.
        QFile original(m_study + QStringLiteral("/runs/ce/seed-1/report.json"));
        QFile copy(folder + QStringLiteral("/runs/cross-entropy/seed-1/report.json"));
        QVERIFY(original.open(QIODevice::ReadOnly) && copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), original.readAll());
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/reused.json.tmp")));

        const QStringList missing = {QStringLiteral("study"), path(QStringLiteral("overlap.json")), QStringLiteral("--out"),
                                     path(QStringLiteral("overlap2")), QStringLiteral("--reuse-from"), path(QStringLiteral("nowhere"))};
        const Result refused = runLbd(missing);
        EXPECT_EXIT(refused, missing, 2);
        EXPECT_MENTIONS(refused.err, QStringLiteral("--reuse-from ") + path(QStringLiteral("nowhere")) + QStringLiteral(": not a folder"),
                        refused, missing);
    }

    void interruptStopsWith130AndTheSameCommandContinues()
    {
        QVERIFY(writeFile(path(QStringLiteral("long-study.json")), tinyStudy(40)));
        const QString folder = path(QStringLiteral("interrupted"));
        const QStringList args = {QStringLiteral("study"), path(QStringLiteral("long-study.json")), QStringLiteral("--out"),
                                  folder};
        QProcess process;
        process.start(kLbd, args);
        QVERIFY(process.waitForStarted(30000));
        QString err;
        QElapsedTimer timer;
        timer.start();
        // Stop once the first run has written a checkpoint.
        while (!QFileInfo::exists(folder + QStringLiteral("/runs/ce/seed-0/checkpoint.pt")) && timer.elapsed() < 240000) {
            process.waitForReadyRead(100);
            err += QString::fromUtf8(process.readAllStandardError());
        }
        QVERIFY2(QFileInfo::exists(folder + QStringLiteral("/runs/ce/seed-0/checkpoint.pt")), qPrintable(err));
        ::kill(static_cast<pid_t>(process.processId()), SIGINT);
        QVERIFY(process.waitForFinished(120000));
        const QString out = QString::fromUtf8(process.readAllStandardOutput());
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 130, qPrintable(out + err));
        QVERIFY2(out.contains(QStringLiteral("stopped; `lbd study ")), qPrintable(out));
        const QString state = readJsonObject(folder + QStringLiteral("/runs/ce/seed-0/status.json")).value(QStringLiteral("state")).toString();
        QVERIFY2(state == QStringLiteral("stopped") || state == QStringLiteral("finished"), qPrintable(state));
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 1);
        EXPECT_MENTIONS(result.out, QStringLiteral("4 of 6 runs finished"), result, args);
    }

    void badInputIsRefused_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named");
        QTest::newRow("unknown study") << QStringList{QStringLiteral("no-such-study")} << QStringLiteral("no-such-study");
        QTest::newRow("missing file") << QStringList{QStringLiteral("/nonexistent/study.json")} << QStringLiteral("/nonexistent/study.json");
        QTest::newRow("parallel 0") << QStringList{QStringLiteral("methods"), QStringLiteral("--parallel"), QStringLiteral("0")}
                                    << QStringLiteral("--parallel");
        QTest::newRow("bad --set") << QStringList{QStringLiteral("methods"), QStringLiteral("--quick"), QStringLiteral("--set"),
                                                  QStringLiteral("train.epochs=0")}
                                   << QStringLiteral("train.epochs");
        QTest::newRow("bad device") << QStringList{QStringLiteral("methods"), QStringLiteral("--quick"), QStringLiteral("--device"),
                                                   QStringLiteral("tpu:0")}
                                    << QStringLiteral("tpu:0");
        // The command line holds seeds to the study file's rules (issue 30): a folder started with
        // them could not be continued.
        QTest::newRow("seed twice") << QStringList{QStringLiteral("methods"), QStringLiteral("--quick"), QStringLiteral("--seeds"),
                                                   QStringLiteral("0,0")}
                                    << QStringLiteral("names seed 0 twice");
        QTest::newRow("seed too large") << QStringList{QStringLiteral("methods"), QStringLiteral("--quick"),
                                                       QStringLiteral("--seeds"), QStringLiteral("3000000000")}
                                        << QStringLiteral("3000000000");
        QTest::newRow("seed overflows") << QStringList{QStringLiteral("methods"), QStringLiteral("--quick"),
                                                       QStringLiteral("--seeds"), QStringLiteral("99999999999999999999")}
                                        << QStringLiteral("99999999999999999999");
        QTest::newRow("negative seed") << QStringList{QStringLiteral("methods"), QStringLiteral("--quick"), QStringLiteral("--seeds"),
                                                      QStringLiteral("-1")}
                                       << QStringLiteral("--seeds");
        QTest::newRow("--set twice") << QStringList{QStringLiteral("methods"), QStringLiteral("--quick"), QStringLiteral("--set"),
                                                    QStringLiteral("train.epochs=1"), QStringLiteral("--set"),
                                                    QStringLiteral("train.epochs=2")}
                                     << QStringLiteral("already given by --set train.epochs=1");
    }

    // Two `lbd study` processes on one folder (issue 30): both end with 0, every run is trained by
    // exactly one of them, the other waits for it and counts it, and the summary is complete.
    void twoProcessesShareAStudyFolder()
    {
        QVERIFY(writeFile(path(QStringLiteral("shared-study.json")),
                          tinyStudy(6, QStringLiteral("shared"), R"([{"label": "CE", "baseline": "ce"}, {"label": "LBD"}])")));
        const QString folder = path(QStringLiteral("shared"));
        const QStringList args = {QStringLiteral("study"), path(QStringLiteral("shared-study.json")), QStringLiteral("--out"), folder};
        QProcess first, second;
        first.start(kLbd, args);
        QVERIFY(first.waitForStarted(30000));
        // The second starts once the first has begun its first run, as a second host would.
        QElapsedTimer timer;
        timer.start();
        while (!QFileInfo::exists(folder + QStringLiteral("/runs/ce/seed-0/status.json")) && timer.elapsed() < 120000) {
            QTest::qWait(50);
        }
        second.start(kLbd, args);
        QVERIFY(second.waitForStarted(30000));
        QVERIFY(first.waitForFinished(600000));
        QVERIFY(second.waitForFinished(600000));
        const QString out1 = QString::fromUtf8(first.readAllStandardOutput()) + QString::fromUtf8(first.readAllStandardError());
        const QString out2 = QString::fromUtf8(second.readAllStandardOutput()) + QString::fromUtf8(second.readAllStandardError());
        QVERIFY2(first.exitStatus() == QProcess::NormalExit && first.exitCode() == 0, qPrintable(out1));
        QVERIFY2(second.exitStatus() == QProcess::NormalExit && second.exitCode() == 0, qPrintable(out2));
        const QRegularExpression counts(QStringLiteral("(\\d+) of 4 runs finished \\((\\d+) trained"));
        const auto m1 = counts.match(out1), m2 = counts.match(out2);
        QVERIFY2(m1.hasMatch() && m2.hasMatch(), qPrintable(out1 + out2));
        QCOMPARE(m1.captured(1).toInt(), 4);
        QCOMPARE(m2.captured(1).toInt(), 4);
        QCOMPARE(m1.captured(2).toInt() + m2.captured(2).toInt(), 4); // every run trained once
        QVERIFY2(!out1.contains(QStringLiteral("failed:")) && !out2.contains(QStringLiteral("failed:")), qPrintable(out1 + out2));
        const QJsonObject summary = readJsonObject(folder + QStringLiteral("/results/summary.json"));
        for (const QJsonValue& cell : summary.value(QStringLiteral("cells")).toArray()) {
            QCOMPARE(cell.toObject().value(QStringLiteral("finished")).toInt(), 2);
        }
    }

    void badInputIsRefused()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        args.prepend(QStringLiteral("study"));
        args << QStringLiteral("--out") << path(QStringLiteral("refused"));
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, named, result, args);
        QVERIFY2(!QFileInfo::exists(path(QStringLiteral("refused"))), "a refused study must not leave a folder");
    }

    void studyFolderKeepsItsOwnSettings()
    {
        QVERIFY2(!m_study.isEmpty(), "needs the study of the first test");
        const QStringList args = {QStringLiteral("study"), m_study, QStringLiteral("--quick")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("its own settings"), result, args);
        const QStringList summarize = {QStringLiteral("study"), QStringLiteral("methods"), QStringLiteral("--summarize"),
                                       QStringLiteral("--out"), path(QStringLiteral("never-ran"))};
        const Result none = runLbd(summarize);
        EXPECT_EXIT(none, summarize, 2);
        EXPECT_MENTIONS(none.err, QStringLiteral("no study has run there"), none, summarize);
    }

    // A decision-only cell (post-hoc logit adjustment, issue 29 item 2) trains nothing: each seed's
    // row is the CE run's cached test probabilities re-decided with prior:tau, tau tuned on the
    // run's validation split, exactly what `lbd eval RUN --tune prior-tau` chooses and
    // `lbd eval RUN --utility prior:TAU` reports. Under --shard it belongs to its source's shard
    // (three seeds: run 3, the post-hoc seed 0, is shard 2's by k mod 2 but shard 1's by its
    // source), and a resumed study re-decides a run that went missing without training.
    void decisionOnlyCellReDecidesItsSourceRuns()
    {
        QJsonObject study = QJsonDocument::fromJson(tinyStudy(2, QStringLiteral("posthoc"), R"([
            {"label": "CE", "baseline": "ce"},
            {"label": "CE + post-hoc logit adjustment", "decide_from": "CE", "decision": {"utility": "prior:tune"}}])")).object();
        study[QStringLiteral("set")] = QJsonObject{{QStringLiteral("data.val_fraction"), 0.25}};
        study[QStringLiteral("seeds")] = QJsonArray{0, 1, 2};
        QVERIFY(writeFile(path(QStringLiteral("posthoc.json")), QJsonDocument(study).toJson()));
        const QString folder = path(QStringLiteral("posthoc"));
        const QString post = folder + QStringLiteral("/runs/ce-post-hoc-logit-adjustment/seed-");
        QStringList args = {QStringLiteral("study"), path(QStringLiteral("posthoc.json")), QStringLiteral("--out"), folder,
                            QStringLiteral("--shard"), QStringLiteral("2/2")};
        const Result second = runLbd(args);
        EXPECT_EXIT(second, args, 0);
        EXPECT_MENTIONS(second.out, QStringLiteral("2 of 2 runs of shard 2/2 finished (1 trained and 0 reused in this call, "
                                                   "1 decision-only runs re-decided without training"), second, args);
        QVERIFY(QFileInfo::exists(post + QStringLiteral("1/report.json")));
        QVERIFY(!QFileInfo::exists(post + QStringLiteral("0")) && !QFileInfo::exists(post + QStringLiteral("2")));
        args.replace(5, QStringLiteral("1/2"));
        const Result first = runLbd(args);
        EXPECT_EXIT(first, args, 0);
        EXPECT_MENTIONS(first.out, QStringLiteral("4 of 4 runs of shard 1/2 finished (2 trained and 0 reused in this call, "
                                                  "2 decision-only runs re-decided without training"), first, args);
        EXPECT_MENTIONS(first.out, QStringLiteral("| CE + post-hoc logit adjustment † | 3/3 |"), first, args);
        EXPECT_MENTIONS(first.out, QStringLiteral("† CE + post-hoc logit adjustment: decision only (nothing trained"), first, args);
        for (int seed = 0; seed < 3; ++seed) {
            const QString source = QStringLiteral("runs/ce/seed-%1").arg(seed);
            const QJsonObject report = readJsonObject(post + QString::number(seed) + QStringLiteral("/report.json"));
            const QString utility = report.value(QStringLiteral("utility")).toString();
            QVERIFY2(utility.startsWith(QStringLiteral("prior:")), qPrintable(utility));
            QVERIFY(!report.contains(QStringLiteral("train_seconds")));
            QVERIFY2(report.value(QStringLiteral("note")).toString().startsWith(
                         QStringLiteral("re-decided from %1, utility %2 (tau = ").arg(source, utility)),
                     qPrintable(report.value(QStringLiteral("note")).toString()));
            // Tau as `lbd eval --tune prior-tau` chooses it on the validation split ...
            const QString run = folder + QLatin1Char('/') + source;
            const QStringList tune = {QStringLiteral("eval"), run, QStringLiteral("--tune"), QStringLiteral("prior-tau"),
                                      QStringLiteral("--rule"), QStringLiteral("expected"), QStringLiteral("--json")};
            const Result tuned = runLbd(tune);
            EXPECT_EXIT(tuned, tune, 0);
            const double tau = QJsonDocument::fromJson(tuned.out.toUtf8()).object().value(QStringLiteral("tuning")).toObject()
                                   .value(QStringLiteral("tau")).toDouble(-1);
            QCOMPARE(report.value(QStringLiteral("tuning")).toObject().value(QStringLiteral("tau")).toDouble(-2), tau);
            // ... and every number as `lbd eval --utility prior:TAU` reports it on the same run.
            const QStringList eval = {QStringLiteral("eval"), run, QStringLiteral("--utility"), utility,
                                      QStringLiteral("--rule"), QStringLiteral("expected"), QStringLiteral("--json")};
            const Result evaluated = runLbd(eval);
            EXPECT_EXIT(evaluated, eval, 0);
            QJsonObject expected = QJsonDocument::fromJson(evaluated.out.toUtf8()).object();
            const QJsonObject got = report.value(QStringLiteral("evaluation")).toObject();
            QCOMPARE(got.value(QStringLiteral("accuracy")).toObject().value(QStringLiteral("accuracy")).toDouble(-1),
                     expected.value(QStringLiteral("accuracy")).toObject().value(QStringLiteral("accuracy")).toDouble(-2));
            // The published metrics are the source run's own (mean-logit) decision: not this row's.
            QVERIFY(expected.contains(QStringLiteral("published")));
            QVERIFY(!got.contains(QStringLiteral("published")));
            for (const QString& key : {QStringLiteral("utility"), QStringLiteral("split"), QStringLiteral("notes"),
                                       QStringLiteral("published")}) {
                expected.remove(key);
            }
            QCOMPARE(QJsonDocument(got).toJson(QJsonDocument::Compact), QJsonDocument(expected).toJson(QJsonDocument::Compact));
        }
        const QJsonObject summary = readJsonObject(folder + QStringLiteral("/results/summary.json"));
        const QJsonObject cell = summary.value(QStringLiteral("cells")).toArray().at(1).toObject();
        QCOMPARE(cell.value(QStringLiteral("decision_only")).toObject().value(QStringLiteral("decided_from")).toString(),
                 QStringLiteral("CE"));
        const QJsonObject metrics = cell.value(QStringLiteral("metrics")).toObject();
        QCOMPARE(metrics.value(QStringLiteral("accuracy")).toObject().value(QStringLiteral("n")).toInt(), 3);
        QCOMPARE(metrics.value(QStringLiteral("train_seconds")).toObject().value(QStringLiteral("n")).toInt(), 0);
        QCOMPARE(metrics.value(QStringLiteral("accuracy_published")).toObject().value(QStringLiteral("n")).toInt(0), 0);

        // Opened as a run, a decision-only row says what it is and the command that gives its numbers.
        const QStringList asRun = {QStringLiteral("eval"), post + QStringLiteral("1")};
        const Result opened = runLbd(asRun);
        EXPECT_EXIT(opened, asRun, 2);
        EXPECT_MENTIONS(opened.err, QStringLiteral("a decision-only study row, not a run (nothing was trained here): it re-decided ")
                                        + QDir::cleanPath(folder + QStringLiteral("/runs/ce/seed-1")),
                        opened, asRun);
        EXPECT_MENTIONS(opened.err, QStringLiteral("the same numbers: lbd eval "), opened, asRun);

        // Resumed: a lost decision-only run is re-decided, nothing trains, the report is the same.
        const QByteArray before = readJsonObject(post + QStringLiteral("2/report.json")).value(QStringLiteral("evaluation")).toObject()
                                      .value(QStringLiteral("accuracy")).toObject().value(QStringLiteral("accuracy")).toVariant().toByteArray();
        QVERIFY(QDir(post + QStringLiteral("2")).removeRecursively());
        const QStringList resume = {QStringLiteral("study"), folder};
        const Result resumed = runLbd(resume);
        EXPECT_EXIT(resumed, resume, 0);
        EXPECT_MENTIONS(resumed.out, QStringLiteral("6 of 6 runs finished (0 trained and 0 reused in this call, "
                                                    "1 decision-only runs re-decided without training"), resumed, resume);
        QCOMPARE(readJsonObject(post + QStringLiteral("2/report.json")).value(QStringLiteral("evaluation")).toObject()
                     .value(QStringLiteral("accuracy")).toObject().value(QStringLiteral("accuracy")).toVariant().toByteArray(),
                 before);
        // A source run written again after its decision (retrained) is re-decided; the others stay.
        const QString sourceReport = folder + QStringLiteral("/runs/ce/seed-0/report.json");
        QFile source(sourceReport);
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QByteArray content = source.readAll();
        source.close();
        QTest::qWait(20);
        QVERIFY(writeFile(sourceReport, content));
        const Result redecided = runLbd(resume);
        EXPECT_EXIT(redecided, resume, 0);
        EXPECT_MENTIONS(redecided.out, QStringLiteral("(0 trained and 0 reused in this call, 1 decision-only runs re-decided"),
                        redecided, resume);
        EXPECT_MENTIONS(redecided.err, QStringLiteral("runs/ce-post-hoc-logit-adjustment/seed-0: re-decided from runs/ce/seed-0"),
                        redecided, resume);
    }

    void listsTheBuiltInStudies()
    {
        const QStringList args = {QStringLiteral("study"), QStringLiteral("--list")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        for (const QString& name : {QStringLiteral("methods"), QStringLiteral("utility"), QStringLiteral("discrepancy"),
                                    QStringLiteral("particles"), QStringLiteral("repulsion"), QStringLiteral("calibration")}) {
            EXPECT_MENTIONS(result.out, name, result, args);
        }
    }
};

QTEST_MAIN(TestCliStudy)
#include "test_cli_study.moc"
