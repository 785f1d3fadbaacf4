// Clicking Start on a tiny synthetic run: epochs arrive, plots gain points, the tail-risk and
// calibration pages receive evaluations, the run finishes with a complete folder, and the GUI
// event loop stays responsive while it trains.
#include "tests/ui/uitestsupport.h"
#include "ui/app/latencyprobe.h"
#include "ui/app/mainwindow.h"
#include "ui/pages/calibrationpage.h"
#include "ui/pages/tailriskpage.h"
#include "ui/pages/trainingpage.h"
#include "ui/panels/experimentpanel.h"
#include "ui/widgets/progresspanel.h"

#include <QAction>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QToolBar>
#include <QToolButton>

using namespace lbd::ui;

class TestTrainingRun : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::isolateSettings(m_dir); }

    void startTrainsAndCompletesTheRunFolder()
    {
        MainWindow window;
        window.setErrorReporter([](const QString& title, const QString& message) {
            QFAIL(qPrintable(title + QStringLiteral(": ") + message));
        });
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.experimentPanel()->setConfig(test::tinyConfigOnTestDevice(2));
        QVERIFY2(window.experimentPanel()->validate().isEmpty(), qPrintable(window.experimentPanel()->validationMessage()));

        QSignalSpy epochs(window.controller(), &TrainingController::epochFinished);
        QSignalSpy finished(&window, &MainWindow::runFinished);
        QSignalSpy failed(&window, &MainWindow::runFailed);
        LatencyProbe probe(10);

        // Click the tool bar's Start button, as a user would.
        auto* start = window.findChild<QAction*>(QStringLiteral("startAction"));
        QVERIFY(start && start->isEnabled());
        QToolButton* button = nullptr;
        for (QToolBar* bar : window.findChildren<QToolBar*>()) {
            if (auto* b = qobject_cast<QToolButton*>(bar->widgetForAction(start))) {
                button = b;
            }
        }
        QVERIFY(button);
        probe.start();
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(window.controller()->isActive());
        QVERIFY(!start->isEnabled());

        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || !failed.isEmpty(), 120000);
        probe.stop();
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QCOMPARE(epochs.size(), 2);
        const auto outcome = finished.first().first().value<TrainingOutcome>();
        QCOMPARE(outcome.epochsCompleted, 2);
        QVERIFY(!outcome.stopped);
        QVERIFY(outcome.finalReport.has_value());

        // Plots gained points (epoch means, batch losses, evaluations) and pages saw the evaluations.
        QTRY_VERIFY(window.trainingPage()->pointCount() >= 2 * 4);
        QCOMPARE(window.tailRiskPage()->evaluationCount(), 2);
        QCOMPARE(window.calibrationPage()->evaluationCount(), 2);
        QVERIFY(window.progressPanel()->text().contains(QStringLiteral("2/2")));
        QVERIFY(start->isEnabled());

        // The run folder is complete.
        const QDir run(outcome.runDirectory);
        for (const char* file : {"config.json", "metrics.jsonl", "report.json"}) {
            QVERIFY2(run.exists(QString::fromLatin1(file)), file);
        }
        QVERIFY2(!test::filesMatching(run.path(), QStringLiteral("checkpoint")).isEmpty(), "no checkpoint");
        // It trained where it was asked to (on the GPU machine: cuda:0, see test::testDevice).
        QFile runInfo(run.filePath(QStringLiteral("run.json")));
        QVERIFY(runInfo.open(QIODevice::ReadOnly));
        const QString device = QJsonDocument::fromJson(runInfo.readAll()).object().value(QStringLiteral("device")).toString();
        qInfo("trained on %s", qPrintable(device));
        QVERIFY2(device.startsWith(QString::fromStdString(test::testDevice())), qPrintable(device));

        // Printed for the log only: latency depends on what else the machine runs (CI runs the
        // tests in parallel), so the 100 ms bar is measured by `lbd-studio --measure-latency`,
        // not asserted here, nor is a number of samples (a fast machine trains the tiny run in
        // a few ticks). The probe must have run, though.
        qInfo("%s", qPrintable(probe.summary()));
        QVERIFY(probe.samples() > 0);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestTrainingRun)
#include "test_trainingrun.moc"
