// Stop in the middle of a run stops within about one batch and keeps the last checkpoint;
// closing the window while training asks, then stops cleanly before the window closes.
#include "tests/ui/uitestsupport.h"
#include "ui/app/mainwindow.h"
#include "ui/pages/runspage.h"
#include "ui/panels/experimentpanel.h"
#include "core/train/runfolder.h"
#include "ui/pages/trainingpage.h"

#include <nlohmann/json.hpp>

#include <QPushButton>
#include <QTabWidget>

#include <QElapsedTimer>

using namespace lbd::ui;

class TestStopAndClose : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::isolateSettings(m_dir); }

    void stopInTheMiddleKeepsTheLastCheckpoint()
    {
        MainWindow window;
        window.setErrorReporter([](const QString&, const QString& message) { QFAIL(qPrintable(message)); });
        window.experimentPanel()->setConfig(test::tinyConfigOnTestDevice(200, 160));
        QSignalSpy epochs(window.controller(), &TrainingController::epochFinished);
        QSignalSpy batches(window.controller(), &TrainingController::batchProgress);
        QSignalSpy finished(&window, &MainWindow::runFinished);
        QVERIFY(window.startTraining());

        // Wait for a finished epoch (so a checkpoint exists) and a batch of the next one.
        QTRY_VERIFY_WITH_TIMEOUT(!epochs.isEmpty(), 60000);
        const int epochAtStop = epochs.last().first().value<lbd::EpochMetrics>().epoch;
        QTRY_VERIFY_WITH_TIMEOUT(!batches.isEmpty() && batches.last().first().value<lbd::BatchProgress>().epoch > epochAtStop,
                                 30000);
        const auto atStop = batches.last().first().value<lbd::BatchProgress>();
        QElapsedTimer clock;
        clock.start();
        window.stopTraining();
        QCOMPARE(window.controller()->state(), TrainingController::State::Stopping);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 30000);
        const qint64 stopMs = clock.elapsed();

        const auto outcome = finished.first().first().value<TrainingOutcome>();
        QVERIFY(outcome.stopped);
        QVERIFY(outcome.epochsCompleted < 200);
        QVERIFY(outcome.epochsCompleted >= epochAtStop);
        // Within one batch: no batch signal later than the one after the batch seen at Stop
        // (signals are thinned, so the last one seen is at most a few batches behind the worker).
        const auto last = batches.last().first().value<lbd::BatchProgress>();
        const int64_t batchesAfterStop = (last.epoch - atStop.epoch) * atStop.batches + (last.batch - atStop.batch);
        qInfo("stop took %lld ms; last batch signal %lld batches after the one seen at Stop", stopMs,
              static_cast<long long>(batchesAfterStop));
        QVERIFY2(stopMs < 5000, "stopping took longer than 5 s");
        QVERIFY(batchesAfterStop <= 8);
        QVERIFY2(!test::filesMatching(outcome.runDirectory, QStringLiteral("checkpoint")).isEmpty(), "no checkpoint kept");
        QCOMPARE(window.controller()->state(), TrainingController::State::Idle);
    }

    // Runs > Continue training picks a stopped run up at its checkpoint and trains it to the end.
    void continueTrainsAStoppedRunToTheEnd()
    {
        MainWindow window;
        window.setErrorReporter([](const QString&, const QString& message) { QFAIL(qPrintable(message)); });
        // Enough epochs that Stop lands in the middle even when the worker runs ahead of the spy.
        constexpr int kEpochs = 30;
        window.experimentPanel()->setConfig(test::tinyConfigOnTestDevice(kEpochs, 160));
        QSignalSpy epochs(window.controller(), &TrainingController::epochFinished);
        QSignalSpy finished(&window, &MainWindow::runFinished);
        QVERIFY(window.startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(epochs.size() >= 2, 60000);
        window.stopTraining();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 30000);
        const auto stopped = finished.takeFirst().first().value<TrainingOutcome>();
        QVERIFY(stopped.stopped);
        QVERIFY(stopped.checkpointEpoch >= 2 && stopped.checkpointEpoch < kEpochs);

        // Asked only once the page has read the folder again: refresh() scans in the background
        // (isScanning() is true from the call until this scan's listing is shown).
        RunsPage* runs = window.runsPage();
        runs->refresh();
        QVERIFY(runs->isScanning());
        QTRY_VERIFY_WITH_TIMEOUT(!runs->isScanning(), 60000);
        QVERIFY2(runs->rowOf(stopped.runDirectory) >= 0, "the stopped run is not listed");
        runs->selectRuns({stopped.runDirectory});
        auto* button = runs->findChild<QPushButton*>(QStringLiteral("continueRunButton"));
        QVERIFY(button);
        QVERIFY2(button->isEnabled(), "Continue training is not offered for a stopped run with a checkpoint");
        epochs.clear();
        button->click();
        QCOMPARE(window.pages()->currentWidget(), static_cast<QWidget*>(window.trainingPage()));
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        const auto done = finished.first().first().value<TrainingOutcome>();
        QVERIFY(!done.stopped);
        QCOMPARE(done.runDirectory, stopped.runDirectory);
        QCOMPARE(done.epochsCompleted, kEpochs);
        QCOMPARE(epochs.first().first().value<lbd::EpochMetrics>().epoch, stopped.checkpointEpoch + 1);
        // One line per epoch, in order: the resume did not duplicate or skip any.
        const auto lines = lbd::RunFolder(stopped.runDirectory.toStdString()).readJsonLines(lbd::RunFolder::kMetrics);
        QCOMPARE(lines.size(), size_t(kEpochs));
        for (size_t i = 0; i < lines.size(); ++i) {
            QCOMPARE(lines[i].at("epoch").get<int>(), static_cast<int>(i + 1));
        }
        // A finished run is not offered again (once the page has re-read the folder: refresh()
        // scans in the background, and the old summary still says "stopped").
        runs->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!runs->isScanning() && runs->rowOf(stopped.runDirectory) >= 0
                                     && runs->runs()[size_t(runs->rowOf(stopped.runDirectory))].state == "finished",
                                 30000);
        runs->selectRuns({stopped.runDirectory});
        QVERIFY(!button->isEnabled());
    }

    void closeWhileTrainingAsksThenStops()
    {
        auto* window = new MainWindow;
        window->setAttribute(Qt::WA_DeleteOnClose, false);
        window->show();
        window->experimentPanel()->setConfig(test::tinyConfigOnTestDevice(200, 160));
        QSignalSpy epochs(window->controller(), &TrainingController::epochFinished);
        QSignalSpy finished(window, &MainWindow::runFinished);
        QVERIFY(window->startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(!epochs.isEmpty(), 60000);

        int asked = 0;
        window->setCloseConfirmation([&asked] { return ++asked == 2; }); // "No" first, then "Yes"
        QVERIFY(!window->close());
        QCOMPARE(asked, 1);
        QVERIFY(window->isVisible());
        QVERIFY(window->controller()->isActive());

        window->close(); // confirmed: stops, then closes itself when the worker is done
        QCOMPARE(asked, 2);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 30000);
        QTRY_VERIFY(!window->isVisible());
        QVERIFY(finished.first().first().value<TrainingOutcome>().stopped);
        delete window; // the controller's thread ends cleanly
    }

    void destroyingTheWindowWhileTrainingStopsTheThread()
    {
        auto* window = new MainWindow;
        window->experimentPanel()->setConfig(test::tinyConfigOnTestDevice(200, 160));
        QSignalSpy epochs(window->controller(), &TrainingController::epochFinished);
        QVERIFY(window->startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(!epochs.isEmpty(), 60000);
        QElapsedTimer clock;
        clock.start();
        delete window; // ~TrainingController: stop flag, quit(), wait()
        QVERIFY(clock.elapsed() < 5000);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestStopAndClose)
#include "test_stopandclose.moc"
