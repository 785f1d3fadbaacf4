// Issue 14's first-launch and everyday comfort: the default fits a machine without CUDA (quick-cpu
// with an estimated duration before Start), every page fits 1024x700, the window stays on its
// screen, state survives a restart, the Preset box never names a preset the settings no longer
// are, and a run folder that another process is writing is followed live on the Training page.
#include "tests/ui/uitestsupport.h"

#include "core/train/configjson.h"
#include "core/train/presets.h"
#include "core/train/epochmetricsjson.h"
#include "core/train/runfolder.h"
#include "core/train/runlock.h"
#include "core/util/buildinfo.h"
#include "ui/app/appsettings.h"
#include "ui/app/mainwindow.h"
#include "ui/app/screenfit.h"
#include "ui/app/screenshotrunner.h"
#include "ui/app/sessionstate.h"
#include "ui/pages/calibrationpage.h"
#include "ui/pages/studiespage.h"
#include "ui/pages/trainingpage.h"
#include "ui/panels/experimentpanel.h"
#include "ui/training/runfollower.h"
#include "ui/utility/utilitydocument.h"
#include "ui/widgets/progresspanel.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <QTimer>

#include <nlohmann/json.hpp>

using namespace lbd::ui;

namespace {

// A run folder as `lbd train` leaves it after `epochs` epochs, still "running".
QString makeRunFolder(const QString& directory, int epochsPlanned)
{
    QDir().mkpath(directory);
    lbd::TrainConfig config = test::tinyConfig(epochsPlanned);
    const lbd::RunFolder folder(directory.toStdString());
    folder.writeJson(lbd::RunFolder::kConfig, lbd::toJson(config));
    folder.writeStatus("running", 0, epochsPlanned);
    return directory;
}

void appendEpoch(const QString& directory, int epoch, int epochs)
{
    lbd::EpochMetrics metrics;
    metrics.epoch = epoch;
    metrics.epochs = epochs;
    metrics.objective.total = 2.0 / epoch;
    metrics.objective.weightedCe = 1.5 / epoch;
    metrics.learningRate = 0.05;
    metrics.trainAccuracy = 0.2 * epoch;
    metrics.imagesPerSecond = 1000;
    metrics.epochSeconds = 1;
    metrics.elapsedSeconds = epoch;
    QFile file(QDir(directory).filePath(QStringLiteral("metrics.jsonl")));
    QVERIFY(file.open(QIODevice::Append));
    file.write(QByteArray::fromStdString(lbd::toJson(metrics).dump()) + '\n');
}

} // namespace

class TestWorkbench : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::isolateSettings(m_dir); }
    void init() { QSettings().clear(); }

    // The augmentation check box names what the loaded config does, not a fixed recipe.
    void theAugmentationBoxNamesTheConfigsPipeline()
    {
        MainWindow window;
        auto* augment = window.findChild<QCheckBox*>(QStringLiteral("augment"));
        QVERIFY(augment);
        // The ImageNet-LT preset opens although it names no folder (list files have no default
        // one); the panel then asks for the folder before Start.
        QVERIFY(window.experimentPanel()->selectPreset(QStringLiteral("imagenet-lt")));
        QCOMPARE(window.experimentPanel()->config().data.dataset, std::string("list"));
        QVERIFY(window.experimentPanel()->config().data.directory.empty());
        const QString missing = window.experimentPanel()->validate();
        QVERIFY2(missing.contains(QStringLiteral("data_dir")) || missing.contains(QStringLiteral("folder"), Qt::CaseInsensitive),
                 qPrintable(missing));
        QCOMPARE(augment->text(), QStringLiteral("Augmentation (resized crop, flip, colour jitter)"));
        QVERIFY2(augment->toolTip().contains(QStringLiteral("8 to 100 % of the image's area")), qPrintable(augment->toolTip()));
        QVERIFY(augment->toolTip().contains(QStringLiteral("brightness 0.4")));
        lbd::TrainConfig cifar = test::tinyConfig();
        cifar.augment.maxRotationDegrees = 15;
        window.experimentPanel()->setConfig(cifar);
        QCOMPARE(augment->text(), QStringLiteral("Augmentation (crop, flip, rotation)"));
        QVERIFY(augment->toolTip().contains(QStringLiteral("2-pixel zero padding")));
    }

    void firstLaunchWithoutCudaSelectsQuickCpu()
    {
        if (!lbd::buildInfo().cudaDevices.empty()) {
            QSKIP("this build sees a CUDA device: the first launch opens the GPU recipe");
        }
        MainWindow window;
        auto* presets = window.findChild<QComboBox*>(QStringLiteral("presets"));
        QVERIFY(presets);
        QCOMPARE(presets->currentData().toString(), QStringLiteral("quick-cpu"));
        QCOMPARE(window.experimentPanel()->currentPreset(), QStringLiteral("quick-cpu"));
        const lbd::TrainConfig config = window.experimentPanel()->config();
        QCOMPARE(config.model.arch, std::string("smallcnn"));
        QCOMPARE(config.train.epochs, 6);
        QCOMPARE(config.train.device, std::string("cpu"));
        // The duration is there before Start, and says it is an estimate.
        const QString estimate = window.experimentPanel()->durationText();
        QVERIFY2(estimate.contains(QStringLiteral("Estimated duration: about")), qPrintable(estimate));
        QVERIFY2(estimate.contains(QStringLiteral("6 epochs")), qPrintable(estimate));
        // GPU-only options are greyed on the CPU, with the reason.
        auto* precision = window.findChild<QComboBox*>(QStringLiteral("precision"));
        QVERIFY(precision && !precision->isEnabled());
        QVERIFY(precision->toolTip().contains(QStringLiteral("CPU")));
    }

    void noPageNeedsMoreThan1024x700()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // The Studies page reads its chosen study's results in the background and shows the claims
        // once they are in: measure after that. Measured before, the check passed or failed with
        // the timing (d7ba591's claims block made the page 906x882 once it showed).
        QSignalSpy studiesRead(window.studiesPage(), &StudiesPage::summaryRefreshed);
        window.studiesPage()->refreshSummary();
        QTRY_VERIFY_WITH_TIMEOUT(studiesRead.count() >= 1, 60000);
        const QSize limit(1024, 700);
        QStringList tooLarge;
        QTabWidget* pages = window.pages();
        for (int i = 0; i < pages->count(); ++i) {
            const QSize minimum = pages->widget(i)->minimumSizeHint().expandedTo(pages->widget(i)->minimumSize());
            if (minimum.width() > limit.width() || minimum.height() > limit.height()) {
                tooLarge << QStringLiteral("%1 %2x%3").arg(pages->tabText(i)).arg(minimum.width()).arg(minimum.height());
            }
        }
        // The whole window too once the experiment panel is collapsed (it collapses by itself on a
        // screen too narrow for it and the widest page).
        window.experimentDock()->hide();
        const QSize window_ = window.minimumSizeHint();
        if (window_.width() > limit.width() || window_.height() > limit.height()) {
            tooLarge << QStringLiteral("main window %1x%2").arg(window_.width()).arg(window_.height());
        }
        QVERIFY2(tooLarge.isEmpty(), qPrintable(tooLarge.join(QStringLiteral(", "))));
    }

    void screenshotSizesAreParsed()
    {
        QCOMPARE(ScreenshotRunner::parseSizes(QStringLiteral("1600x1000,1024x700")),
                 (QList<QSize>{QSize(1600, 1000), QSize(1024, 700)}));
        QCOMPARE(ScreenshotRunner::parseSizes(QStringLiteral("800x600")), QList<QSize>{QSize(800, 600)});
        for (const char* bad : {"", "1024", "1024x", "0x700", "1024x700,big", "-5x3"}) {
            QVERIFY2(ScreenshotRunner::parseSizes(QString::fromLatin1(bad)).isEmpty(), bad);
        }
    }

    void aRestoredGeometryIsKeptOnTheScreen()
    {
        const QRect screen(0, 0, 1600, 1000);
        // Wider than the screen: shrunk to it; hanging off the bottom: moved up, the status bar visible.
        QCOMPARE(fittedRect(QRect(-20, 10, 1618, 900), screen), QRect(0, 10, 1600, 900));
        QCOMPARE(fittedRect(QRect(300, 500, 1200, 800), screen), QRect(300, 200, 1200, 800));
        QCOMPARE(fittedRect(QRect(100, 100, 800, 600), screen), QRect(100, 100, 800, 600));
        QCOMPARE(fittedRect(QRect(2000, 3000, 4000, 3000), QRect(1600, 0, 1024, 700)), QRect(1600, 0, 1024, 700));
    }

    void thePresetBoxNeverNamesStaleSettings()
    {
        MainWindow window;
        ExperimentPanel* panel = window.experimentPanel();
        auto* presets = window.findChild<QComboBox*>(QStringLiteral("presets"));
        QVERIFY(panel->selectPreset(QStringLiteral("quick-cpu")));
        QCOMPARE(presets->currentText(), QStringLiteral("quick-cpu"));
        // Edited by hand: no longer the preset.
        auto* epochs = window.findChild<QSpinBox*>(QStringLiteral("epochs"));
        QVERIFY(epochs);
        epochs->setValue(9);
        QCOMPARE(presets->currentIndex(), -1);
        QVERIFY(panel->currentPreset().isEmpty());
        QVERIFY2(presets->placeholderText().contains(QStringLiteral("edited")), qPrintable(presets->placeholderText()));
        // An opened run's settings name the run.
        const QString run = makeRunFolder(m_dir.filePath(QStringLiteral("runs/opened-run")), 3);
        lbd::RunFolder(run.toStdString()).writeStatus("finished", 3, 3);
        QVERIFY(window.openRun(run));
        QCOMPARE(presets->currentIndex(), -1);
        QVERIFY2(presets->placeholderText().contains(QStringLiteral("opened-run")), qPrintable(presets->placeholderText()));
    }

    void stateSurvivesARestart()
    {
        const QString run = makeRunFolder(m_dir.filePath(QStringLiteral("runs/remembered-run")), 2);
        lbd::RunFolder(run.toStdString()).writeStatus("finished", 2, 2);
        {
            MainWindow window;
            window.show();
            QVERIFY(window.openRun(run));
            // A preset other than this machine's default, chosen after the run was opened.
            QVERIFY(window.experimentPanel()->selectPreset(QStringLiteral("fashion-mnist-lt")));
            UtilityDocument* decisions = window.utilityDocument();
            // A paper preset decides by its protocol's rule; quick-cpu (the app's own) by expected utility.
            QCOMPARE(decisions->rule(), lbd::DecisionRule::MeanLogit);
            QCOMPARE(window.experimentPanel()->config().protocol, lbd::Protocol::PaperStandard);
            QVERIFY(window.experimentPanel()->selectPreset(QStringLiteral("quick-cpu")));
            QCOMPARE(decisions->rule(), lbd::DecisionRule::Expected);
            QVERIFY(window.experimentPanel()->selectPreset(QStringLiteral("fashion-mnist-lt")));
            QCOMPARE(decisions->classCount(), 10);
            QVERIFY(decisions->setMatrix(lbd::UtilityMatrix::tailSensitive(10, 2.0)));
            decisions->setRule(lbd::DecisionRule::Eq7);
            window.pages()->setCurrentWidget(window.calibrationPage());
            window.experimentDock()->show(); // shown (a small screen may collapse it at show), then collapsed by hand
            window.experimentDock()->toggleViewAction()->trigger();
            QVERIFY(window.experimentDock()->isHidden());
            QVERIFY(window.close());
        }
        MainWindow window;
        // Before show(), which may collapse the panel by itself on a small screen.
        QVERIFY(window.experimentDock()->isHidden());
        QVERIFY(!window.experimentDock()->toggleViewAction()->isChecked());
        SessionState::restore(window);
        window.show();
        QCOMPARE(window.experimentPanel()->currentPreset(), QStringLiteral("fashion-mnist-lt"));
        QCOMPARE(window.shownRun(), run);
        QCOMPARE(window.utilityDocument()->tailPenalty().value_or(-1), 2.0);
        QCOMPARE(window.utilityDocument()->rule(), lbd::DecisionRule::Eq7);
        QCOMPARE(window.pages()->tabText(window.pages()->currentIndex()).remove(QLatin1Char('&')), QStringLiteral("Calibration"));
    }

    // The folder of the last session comes back trained as given (profile none), not resampled by
    // the preset's long tail, as when the user chose it in the panel.
    void theLastFolderComesBackAsGiven()
    {
        const QString folder = m_dir.filePath(QStringLiteral("last-folder"));
        AppSettings::setLastDataset(QStringLiteral("folder"), folder);
        MainWindow window;
        SessionState::restore(window); // the remembered preset (each has a long tail), then the last data set
        const lbd::TrainConfig config = window.experimentPanel()->config();
        QCOMPARE(QString::fromStdString(config.data.dataset), QStringLiteral("folder"));
        QCOMPARE(QString::fromStdString(config.data.directory), folder);
        QCOMPARE(config.data.longTail.profile, lbd::LongTailProfile::None);
        AppSettings::setLastDataset({}, {});
    }

    void aRunTrainedElsewhereIsFollowedLive()
    {
        const QString run = makeRunFolder(m_dir.filePath(QStringLiteral("runs/elsewhere")), 6);
        appendEpoch(run, 1, 6);
        QFile log(QDir(run).filePath(QStringLiteral("log.txt")));
        QVERIFY(log.open(QIODevice::Append));
        log.write("2026-01-01 10:00:00  loading synthetic data\n");
        log.close();
        // Another process holds the run's lock, as a trainer does (flock(1) on RUN/lock).
        QProcess holder;
        holder.start(QStringLiteral("flock"), {QDir(run).filePath(QStringLiteral("lock")), QStringLiteral("sleep"), QStringLiteral("120")});
        QVERIFY(holder.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(lbd::RunLock::holder(run.toStdString()).has_value(), 10000);

        MainWindow window;
        window.show();
        window.runFollower()->setPollInterval(100);
        QVERIFY(window.openRun(run));
        QVERIFY(window.runFollower()->isFollowing());
        TrainingPage* page = window.trainingPage();
        const int pointsAtOpen = page->pointCount();
        QVERIFY(pointsAtOpen > 0);

        // The other process writes an epoch every 150 ms and a log line with each.
        int next = 2;
        QTimer writer;
        connect(&writer, &QTimer::timeout, this, [&] {
            if (next > 5) {
                return;
            }
            appendEpoch(run, next, 6);
            QFile more(QDir(run).filePath(QStringLiteral("log.txt")));
            if (more.open(QIODevice::Append)) {
                more.write(QStringLiteral("2026-01-01 10:00:0%1  epoch %1 done\n").arg(next).toUtf8());
            }
            ++next;
        });
        writer.start(150);
        QTRY_VERIFY_WITH_TIMEOUT(window.progressPanel()->text().contains(QStringLiteral("epoch 5/6")), 20000);
        QVERIFY(page->pointCount() > pointsAtOpen);
        auto* engineLog = window.findChild<QPlainTextEdit*>(QStringLiteral("engineLog"));
        QVERIFY(engineLog);
        QTRY_VERIFY(engineLog->toPlainText().contains(QStringLiteral("epoch 5 done")));
        QVERIFY(engineLog->toPlainText().contains(QStringLiteral("loading synthetic data")));
        QVERIFY(window.runFollower()->isFollowing());

        // The run ends: the last epoch and the final status; following stops.
        QSignalSpy ended(window.runFollower(), &RunFollower::ended);
        appendEpoch(run, 6, 6);
        lbd::RunFolder(run.toStdString()).writeStatus("finished", 6, 6);
        QTRY_VERIFY_WITH_TIMEOUT(!ended.isEmpty(), 10000);
        QCOMPARE(ended.first().at(1).toString(), QStringLiteral("finished"));
        QVERIFY(window.progressPanel()->text().contains(QStringLiteral("epoch 6/6")));
        QVERIFY(!window.runFollower()->isFollowing());
        holder.kill();
        holder.waitForFinished();
    }

    void aRunWhoseTrainerDiedIsNotFollowed()
    {
        const QString run = makeRunFolder(m_dir.filePath(QStringLiteral("runs/died")), 4);
        appendEpoch(run, 1, 4);
        MainWindow window;
        QVERIFY(window.openRun(run)); // status "running" but no process holds the lock
        QVERIFY(!window.runFollower()->isFollowing());
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestWorkbench)
#include "test_workbench.moc"
