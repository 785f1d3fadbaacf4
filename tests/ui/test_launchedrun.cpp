// Data-parallel training from the GUI (issue 15, part 2): the device choice offers "All N GPUs"
// when several CUDA devices are visible; such a run is `lbd train` in child processes (one rank per
// GPU; --processes N on the CPU, which is what this machine can test), followed live through its
// run folder. Stop reaches every rank through the launcher (exit 130: stopped, checkpoint kept);
// the window's images/s is the whole run's, every rank's images.
#include "tests/ui/uitestsupport.h"
#include "ui/app/mainwindow.h"
#include "ui/pages/trainingpage.h"
#include "ui/panels/experimentpanel.h"
#include "ui/panels/runsection.h"
#include "ui/runs/rundegeneracy.h"
#include "ui/training/launchedrun.h"
#include "ui/training/visiblegpus.h"
#include "ui/widgets/progresspanel.h"
#include "core/util/buildinfo.h"

#include <QCheckBox>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include "core/dist/communicator.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QStatusBar>

#include <csignal>

using namespace lbd::ui;

namespace {

// The processes whose parent is `parent` (/proc/PID/stat's fourth field).
QList<qint64> childrenOf(qint64 parent)
{
    QList<qint64> children;
    for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly)) {
            continue;
        }
        const QString text = QString::fromUtf8(stat.readAll());
        const QStringList fields = text.mid(text.lastIndexOf(QLatin1Char(')')) + 2).split(QLatin1Char(' '));
        if (fields.size() > 1 && fields[1].toLongLong() == parent) {
            children << pid.toLongLong();
        }
    }
    return children;
}

bool alive(qint64 pid) { return ::kill(static_cast<pid_t>(pid), 0) == 0; }

QList<QJsonObject> metricLines(const QString& run)
{
    QList<QJsonObject> lines;
    QFile file(run + QStringLiteral("/metrics.jsonl"));
    if (file.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : file.readAll().split('\n')) {
            if (!line.trimmed().isEmpty()) {
                lines << QJsonDocument::fromJson(line).object();
            }
        }
    }
    return lines;
}

} // namespace

class TestLaunchedRun : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString runPath(const QString& name) const { return m_dir.filePath(QStringLiteral("runs/") + name); }

    // A window whose errors fail the test, training the tiny config's panel settings.
    void prepare(MainWindow& window, const lbd::TrainConfig& config)
    {
        window.setErrorReporter([](const QString&, const QString& message) { QFAIL(qPrintable(message)); });
        window.experimentPanel()->setConfig(config);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateSettings(m_dir);
        qputenv("LBD_EXECUTABLE", LBD_CLI_PATH);
        qputenv("LBD_DIST_TIMEOUT", "60"); // a rank left alone ends instead of hanging the test
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("tmp"))));
        qputenv("TMPDIR", m_dir.filePath(QStringLiteral("tmp")).toUtf8()); // the ranks' scratch folders
    }

    void cleanup() { setVisibleGpusForTesting(std::nullopt); }

    void deviceChoiceOffersAllGpusWhenSeveralAreVisible()
    {
        setVisibleGpusForTesting(QStringList{QStringLiteral("cuda:0 Test GPU"), QStringLiteral("cuda:1 Test GPU")});
        RunSection two;
        auto* device = two.findChild<QComboBox*>(QStringLiteral("device"));
        QVERIFY(device);
        const int all = device->findText(QStringLiteral("All 2 GPUs (data-parallel)"));
        QVERIFY(all >= 0);
        QCOMPARE(device->count(), 4); // CPU, cuda:0, cuda:1, all
        const QString tip = device->itemData(all, Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("one process per GPU")) && tip.contains(QStringLiteral("sync_bn"))
                     && tip.contains(QStringLiteral("no Pause")),
                 qPrintable(tip));
        QCOMPARE(two.dataParallelRanks(), 1);
        device->setCurrentIndex(all);
        QCOMPARE(two.dataParallelRanks(), 2);
        QVERIFY(!two.findChild<QCheckBox*>(QStringLiteral("cudaGraph"))->isEnabled());
        lbd::TrainConfig config;
        two.apply(config);
        QCOMPARE(config.train.device, std::string("cuda"));

        setVisibleGpusForTesting(QStringList{QStringLiteral("cuda:0 Test GPU")});
        RunSection one;
        auto* single = one.findChild<QComboBox*>(QStringLiteral("device"));
        QCOMPARE(single->count(), 2);
        QCOMPARE(single->findText(QStringLiteral("All"), Qt::MatchStartsWith), -1);
        QCOMPARE(one.dataParallelRanks(), 1);
    }

    // The panel's choice and Start reach the launcher: `lbd train --gpus 2`, which this machine
    // (no GPU) refuses; the failure names the launcher and the end of its stderr.
    void allGpusAndStartLaunchLbdTrainWithGpus()
    {
        if (lbd::buildInfo().cudaDevices.size() >= 2) {
            QSKIP("two GPUs are visible: `lbd train --gpus 2` would train (the CPU tests below cover the launch)");
        }
        setVisibleGpusForTesting(QStringList{QStringLiteral("cuda:0 Test GPU"), QStringLiteral("cuda:1 Test GPU")});
        MainWindow window;
        QStringList reported;
        window.setErrorReporter([&reported](const QString&, const QString& message) { reported << message; });
        window.experimentPanel()->setConfig(test::tinyConfig(2));
        auto* device = window.experimentPanel()->findChild<QComboBox*>(QStringLiteral("device"));
        device->setCurrentIndex(device->findText(QStringLiteral("All 2 GPUs (data-parallel)")));
        QCOMPARE(window.experimentPanel()->dataParallelRanks(), 2);
        auto* deviceLabel = window.findChild<QLabel*>(QStringLiteral("deviceLabel"));
        QCOMPARE(deviceLabel->text(), QStringLiteral("Device: 2 GPUs (data-parallel)"));
        QSignalSpy failed(&window, &MainWindow::runFailed);
        QVERIFY(window.startTraining());
        QCOMPARE(window.controller()->ranks(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 60000);
        const QString error = failed.first().first().toString();
        QVERIFY2(error.contains(QStringLiteral("lbd train --gpus 2 failed with exit status 2"))
                     && error.contains(QStringLiteral("CUDA device(s) visible")),
                 qPrintable(error));
        QCOMPARE(reported, QStringList{error});
        QCOMPARE(window.controller()->state(), TrainingController::State::Idle);
    }

    // Two CPU processes train the run; the pages fill epoch by epoch while it runs; Stop ends
    // every rank after the same batch and the run is reported as stopped with its checkpoint.
    void stopEndsEveryRank()
    {
        if (!lbd::cpuCollectivesAvailable()) {
            QSKIP("this build has no Gloo (pip's PyTorch ships no Gloo headers): CPU ranks cannot run here");
        }
        MainWindow window;
        prepare(window, test::tinyConfig(200, 160));
        QSignalSpy epochs(window.controller(), &TrainingController::epochFinished);
        QSignalSpy finished(&window, &MainWindow::runFinished);
        const QString run = runPath(QStringLiteral("two-stopped"));
        QVERIFY(window.controller()->start(window.experimentPanel()->config(), run, false, 2));
        LaunchedRun* launched = window.controller()->launchedRun();
        QVERIFY(launched);
        QCOMPARE(launched->commandText(), QStringLiteral("lbd train --processes 2"));
        QVERIFY(!window.findChild<QAction*>(QStringLiteral("pauseAction"))->isEnabled());

        QTRY_VERIFY_WITH_TIMEOUT(epochs.size() >= 2, 120000);
        QVERIFY(window.controller()->isActive()); // live: the epochs came while the ranks train
        QVERIFY(window.trainingPage()->pointCount() > 0);
        QVERIFY(window.progressPanel()->text().contains(QStringLiteral("/200")));
        const QList<qint64> ranks = childrenOf(launched->processId());
        QCOMPARE(ranks.size(), 2);

        window.stopTraining();
        QCOMPARE(window.controller()->state(), TrainingController::State::Stopping);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        const auto outcome = finished.first().first().value<TrainingOutcome>();
        QVERIFY(outcome.stopped);
        QCOMPARE(outcome.runDirectory, run);
        QVERIFY(outcome.epochsCompleted >= 2 && outcome.epochsCompleted < 200);
        QVERIFY(outcome.checkpointEpoch >= 2);
        for (const qint64 rank : ranks) {
            QVERIFY2(!alive(rank), qPrintable(QStringLiteral("rank process %1 is still there").arg(rank)));
        }
        QCOMPARE(window.controller()->state(), TrainingController::State::Idle);
        QVERIFY2(window.statusBar()->currentMessage().startsWith(QStringLiteral("Run stopped after")),
                 qPrintable(window.statusBar()->currentMessage()));
        QCOMPARE(window.findChild<QLabel*>(QStringLiteral("trainingState"))->text(), QStringLiteral("<b>Stopped</b>"));
        auto* log = window.findChild<QPlainTextEdit*>(QStringLiteral("engineLog"));
        QVERIFY(log->toPlainText().contains(QStringLiteral("lbd train --processes 2 stopped (exit status 130)")));
        QVERIFY(log->toPlainText().contains(QStringLiteral("rank 0 of 2: joining"))); // log.txt, followed
        QFile status(run + QStringLiteral("/status.json"));
        QVERIFY(status.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(status.readAll()).object().value(QStringLiteral("state")).toString(),
                 QStringLiteral("stopped"));
    }

    // A run that trains to the end is finished with its report; the images/s shown is every
    // rank's images over the epoch's time (the global batch of 16 over the whole epoch), not
    // rank 0's half.
    void aFinishedRunEndsWithItsReport()
    {
        if (!lbd::cpuCollectivesAvailable()) {
            QSKIP("this build has no Gloo (pip's PyTorch ships no Gloo headers): CPU ranks cannot run here");
        }
        MainWindow window;
        prepare(window, test::tinyConfig(3));
        QSignalSpy epochs(window.controller(), &TrainingController::epochFinished);
        QSignalSpy finished(&window, &MainWindow::runFinished);
        QSignalSpy shown(&window, &MainWindow::runShown);
        const QString run = runPath(QStringLiteral("two-finished"));
        QVERIFY(window.controller()->start(window.experimentPanel()->config(), run, false, 2));
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 180000);
        const auto outcome = finished.first().first().value<TrainingOutcome>();
        QVERIFY(!outcome.stopped);
        QCOMPARE(outcome.epochsCompleted, 3);
        QVERIFY(outcome.finalReport.has_value());
        QVERIFY(QFileInfo(run + QStringLiteral("/report.json")).size() > 0);
        QCOMPARE(epochs.size(), 3);
        QCOMPARE(shown.last().first().toString(), run);
        // A 3-epoch run on the tiny data set may end degenerate (all its head images missed): then
        // the status bar says that instead (degeneracynotice.cpp), by what the run's report holds.
        const RunDegeneracy degeneracy = readRunDegeneracy(run);
        QCOMPARE(window.statusBar()->currentMessage(),
                 degeneracy.degenerate() ? QStringLiteral("The run is degenerate: %1. See the Training page.").arg(degeneracy.headline)
                                         : QStringLiteral("Run finished: 3 epochs."));
        QCOMPARE(window.findChild<QLabel*>(QStringLiteral("trainingState"))->text(),
                 degeneracy.degenerate() ? QStringLiteral("<b style='color:#b35c00'>\u26a0 Degenerate</b>") : QStringLiteral("<b>Finished</b>"));

        int64_t trainImages = 0;
        for (const int64_t count : window.experimentPanel()->trainCounts()) {
            trainImages += count;
        }
        const int64_t globalEpoch = trainImages; // every image each epoch, the last smaller batch included (epochorder.h)
        QVERIFY(globalEpoch > 0);
        const auto last = epochs.last().first().value<lbd::EpochMetrics>();
        QCOMPARE(qRound64(last.imagesPerSecond * last.epochSeconds), qint64(globalEpoch));
        QVERIFY(window.progressPanel()->text().contains(QStringLiteral("%1 img/s").arg(last.imagesPerSecond, 0, 'f', 0)));
        const QList<QJsonObject> lines = metricLines(run);
        QCOMPARE(lines.size(), 3);
        for (const QJsonObject& line : lines) {
            const double images = line.value(QStringLiteral("images_per_second")).toDouble()
                                  * line.value(QStringLiteral("epoch_seconds")).toDouble();
            QCOMPARE(qRound64(images), qint64(globalEpoch));
        }
    }

    // Closing the window while the ranks train asks, as for a run in the app, then stops them all.
    void closingTheWindowStopsEveryRank()
    {
        if (!lbd::cpuCollectivesAvailable()) {
            QSKIP("this build has no Gloo (pip's PyTorch ships no Gloo headers): CPU ranks cannot run here");
        }
        MainWindow window;
        prepare(window, test::tinyConfig(200, 160));
        int asked = 0;
        window.setCloseConfirmation([&asked] {
            ++asked;
            return true;
        });
        window.show();
        QSignalSpy epochs(window.controller(), &TrainingController::epochFinished);
        QSignalSpy finished(&window, &MainWindow::runFinished);
        QVERIFY(window.controller()->start(window.experimentPanel()->config(), runPath(QStringLiteral("two-closed")), false, 2));
        const qint64 launcher = window.controller()->launchedRun()->processId();
        QTRY_VERIFY_WITH_TIMEOUT(!epochs.isEmpty(), 120000);
        const QList<qint64> ranks = childrenOf(launcher);
        QCOMPARE(ranks.size(), 2);
        QVERIFY(!window.close()); // it waits for the ranks
        QCOMPARE(asked, 1);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        QTRY_VERIFY(!window.isVisible());
        QVERIFY(finished.first().first().value<TrainingOutcome>().stopped);
        QVERIFY(!alive(launcher));
        for (const qint64 rank : ranks) {
            QVERIFY(!alive(rank));
        }
    }
};

QTEST_MAIN(TestLaunchedRun)
#include "test_launchedrun.moc"
