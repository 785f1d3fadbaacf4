// What the window says about the run it trains (issue 26's smaller list): the progress bar's ETA
// at an epoch's end is the time left (it read "ETA 0:00": the live epochs carry no elapsed time)
// and goes away once the run is stopped; the stop message points to Runs > Continue training, not
// to `lbd train --resume`; a one-line summary of what Start trains stands beside it; the loss
// plot marks the DRW epoch; Start is refused while a study runs,
// and quitting then names the study.
#include "tests/ui/uitestsupport.h"

#include "core/train/configjson.h"
#include "ui/app/mainwindow.h"
#include "ui/app/windowcommands.h"
#include "ui/pages/studiespage.h"
#include "ui/pages/trainingpage.h"
#include "ui/panels/experimentpanel.h"
#include "ui/study/studysetuppanel.h"
#include "ui/widgets/progresspanel.h"
#include "ui/widgets/throttledplot.h"

#include <QAction>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>

using namespace lbd::ui;

namespace {

// A one-cell study of the tiny config, long enough (200 epochs, two seeds) to be running while
// the test looks at the window.
QByteArray longTinyStudy()
{
    lbd::TrainConfig config = test::tinyConfig(200);
    QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(lbd::toJson(config).dump())).object();
    const QJsonObject factor{{QStringLiteral("name"), QStringLiteral("method")},
                             {QStringLiteral("levels"), QJsonArray{QJsonObject{{QStringLiteral("label"), QStringLiteral("LBD")}}}}};
    return QJsonDocument(QJsonObject{{QStringLiteral("name"), QStringLiteral("busy")},
                                     {QStringLiteral("title"), QStringLiteral("A busy study")},
                                     {QStringLiteral("paper_table"), QStringLiteral("Table T")},
                                     {QStringLiteral("claim"), QStringLiteral("A tiny claim.")},
                                     {QStringLiteral("config"), json},
                                     {QStringLiteral("seeds"), QJsonArray{0, 1}},
                                     {QStringLiteral("factors"), QJsonArray{factor}}})
        .toJson();
}

} // namespace

class TestTrainingFeedback final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateSettings(m_dir);
    }

    void etaAtEpochEndsAndAfterStop()
    {
        MainWindow window;
        window.setErrorReporter([](const QString&, const QString& message) { QFAIL(qPrintable(message)); });
        window.experimentPanel()->setConfig(test::tinyConfigOnTestDevice(200, 160));
        // Read after the window's own slot has shown the epoch (connected after it).
        QStringList atEpochEnds;
        connect(window.controller(), &TrainingController::epochFinished, &window,
                [&] { atEpochEnds << window.progressPanel()->text(); });
        QSignalSpy finished(&window, &MainWindow::runFinished);
        QVERIFY(window.startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(atEpochEnds.size() >= 2, 60000);
        for (const QString& text : std::as_const(atEpochEnds)) {
            // 198 or more epochs left: never 0:00, never unknown.
            QVERIFY2(text.contains(QLatin1String("done")) && text.contains(QLatin1String("ETA ")), qPrintable(text));
            QVERIFY2(!text.contains(QLatin1String("ETA 0:00")) && !text.contains(QLatin1String("ETA --")), qPrintable(text));
        }

        window.stopTraining();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 30000);
        QVERIFY(finished.first().first().value<TrainingOutcome>().stopped);
        QVERIFY2(!window.progressPanel()->text().contains(QLatin1String("ETA")), qPrintable(window.progressPanel()->text()));
        QVERIFY2(window.progressPanel()->text().startsWith(QLatin1String("epoch ")), qPrintable(window.progressPanel()->text()));

        // The engine's stop message, as the Training page shows it: the app's command, not the CLI's.
        auto* log = window.trainingPage()->findChild<QPlainTextEdit*>(QStringLiteral("engineLog"));
        QVERIFY(log);
        const QString shown = log->toPlainText();
        QVERIFY2(shown.contains(QLatin1String("stopped during epoch")), qPrintable(shown));
        QVERIFY2(shown.contains(QLatin1String("Runs > Continue training")), qPrintable(shown));
        QVERIFY2(!shown.contains(QLatin1String("--resume")), qPrintable(shown));
        QVERIFY2(window.statusBar()->currentMessage().contains(QLatin1String("Runs > Continue training")),
                 qPrintable(window.statusBar()->currentMessage()));
    }

    void summaryBesideStart()
    {
        MainWindow window;
        auto* summary = window.findChild<QLabel*>(QStringLiteral("startSummary"));
        QVERIFY(summary);
        QCOMPARE(summary->parentWidget()->objectName(), QStringLiteral("trainingToolBar"));
        // The first launch's preset: its name, Fashion-MNIST long-tailed (6000 down to 60 per
        // class), the estimate (a reference speed here: a fresh settings folder records none).
        ExperimentPanel* panel = window.experimentPanel();
        QTRY_VERIFY(!panel->trainCounts().empty());
        const QString line = summary->text();
        QVERIFY2(line.startsWith(QStringLiteral("quick-cpu \u00b7 Fashion-MNIST-LT \u00b7 ~")) && line.endsWith(QLatin1String(" s")),
                 qPrintable(line));
        QCOMPARE(line, panel->summaryLine());
        // It follows the panel: the tiny synthetic set (48 down to 12 per class), a 20-epoch run
        // named by the user.
        lbd::TrainConfig config = test::tinyConfig(20);
        config.name = "my-run";
        panel->setConfig(config);
        QTRY_COMPARE(summary->text(), panel->summaryLine());
        QVERIFY2(summary->text().startsWith(QStringLiteral("my-run \u00b7 ")) && summary->text().contains(QLatin1String("-LT")),
                 qPrintable(summary->text()));
        // Classes of equal size are not long-tailed.
        config.data.longTail.imbalanceRatio = 1;
        panel->setConfig(config);
        QTRY_VERIFY2(!summary->text().contains(QLatin1String("-LT")), qPrintable(summary->text()));
        QVERIFY(summary->toolTip().contains(summary->text().toHtmlEscaped()));
    }

    void drwMarkerStandsAtTheDrwEpoch()
    {
        TrainingPage page;
        RunContext context;
        context.config = test::tinyConfig(5);
        context.config.objective.drwEpoch = 3;
        page.beginRun(context);
        // Weights change after epoch 3: x = 3 on the epoch axis, where epoch 4's batches begin.
        QCOMPARE(page.drwMarkerPosition(), 3.0);
        QVERIFY2(page.drwMarkerLabel().contains(QLatin1String("DRW")) && page.drwMarkerLabel().contains(QLatin1String("epoch 4")),
                 qPrintable(page.drwMarkerLabel()));
        // No change to mark: re-weighted from the first batch, or never within the run.
        for (const int drw : {0, 5, 9}) {
            context.config.objective.drwEpoch = drw;
            page.beginRun(context);
            QCOMPARE(page.drwMarkerPosition(), -1.0);
            QVERIFY(page.drwMarkerLabel().isEmpty());
        }
        // A run opened after one with a marker: the marker follows the new run.
        context.config.objective.drwEpoch = 2;
        page.beginRun(context);
        QCOMPARE(page.drwMarkerPosition(), 2.0);
    }

    void drwLabelStaysInsideThePlot()
    {
        // The recipe's marker stands late (drw_epoch 160 of 200): its label went to the right of
        // the line, past the plot's edge and into the right axis's label. At 1024x700 the loss plot
        // is about 300 px wide; the label must lie inside the axis rectangle wherever the line is.
        TrainingPage page;
        page.resize(640, 560);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        for (const int drw : {20, 100, 160, 198}) {
            RunContext context;
            context.config = test::tinyConfig(200);
            context.config.objective.drwEpoch = drw;
            page.beginRun(context);
            for (int epoch = 1; epoch <= 200; epoch += 199) {
                lbd::EpochMetrics metrics;
                metrics.epoch = epoch;
                metrics.objective.total = 1.0;
                metrics.objective.weightedCe = 1.0;
                page.addEpoch(metrics);
            }
            page.lossPlot()->fitToData(); // what the throttled replot does, now
            page.lossPlot()->replot();
            const QRectF label = page.drwLabelRect();
            const QRect area = page.lossPlotArea();
            QVERIFY2(!label.isEmpty() && area.adjusted(-1, -1, 1, 1).contains(label.toAlignedRect()),
                     qPrintable(QStringLiteral("drw %1: label %2,%3 %4x%5 outside the plot area %6,%7 %8x%9")
                                    .arg(drw)
                                    .arg(label.x()).arg(label.y()).arg(label.width()).arg(label.height())
                                    .arg(area.x()).arg(area.y()).arg(area.width()).arg(area.height())));
        }
        QCOMPARE(page.drwMarkerLabel(), QStringLiteral("DRW from epoch 199"));
    }

    void startIsRefusedWhileAStudyRuns()
    {
        MainWindow window;
        window.setErrorReporter([](const QString&, const QString& message) { QFAIL(qPrintable(message)); });
        StudiesPage* studies = window.studiesPage();
        const QString file = m_dir.filePath(QStringLiteral("busy.json"));
        test::writeText(file, longTinyStudy().toStdString());
        QString error;
        QVERIFY2(studies->setupPanel()->addStudyFile(file, &error), qPrintable(error));
        const QString folder = m_dir.filePath(QStringLiteral("studies/busy-study"));
        studies->setupPanel()->setFolderOverride(folder);
        studies->setupPanel()->setParallel(1);
        auto* device = studies->setupPanel()->findChild<QComboBox*>(QStringLiteral("studyDevice"));
        QVERIFY(device);
        device->setCurrentIndex(device->findData(QStringLiteral("cpu")));
        auto* start = window.findChild<QAction*>(QStringLiteral("startAction"));
        QVERIFY(start && start->isEnabled());

        QSignalSpy done(studies, &StudiesPage::studyFinished);
        QVERIFY2(studies->startStudy(), qPrintable(studies->lastMessage()));
        QVERIFY(studies->isRunning());
        QVERIFY2(!start->isEnabled(), "Start training is offered while a study trains");
        QVERIFY(start->toolTip().contains(QLatin1String("study")));
        QVERIFY(!window.startTraining());
        QVERIFY(!window.controller()->isActive());
        QVERIFY2(window.statusBar()->currentMessage().contains(QLatin1String("a study (Studies page) is training")),
                 qPrintable(window.statusBar()->currentMessage()));

        // Quitting asks, naming the study; "No" keeps the window and the study.
        QVERIFY2(stopAndQuitQuestion(window).contains(QLatin1String("busy-study")), qPrintable(stopAndQuitQuestion(window)));
        QVERIFY(!stopAndQuitQuestion(window).contains(QLatin1String("A run is training")));
        int asked = 0;
        window.setCloseConfirmation([&asked] {
            ++asked;
            return false;
        });
        window.show();
        QVERIFY(!window.close());
        QCOMPARE(asked, 1);
        QVERIFY(studies->isRunning());

        studies->stopStudy();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 120000);
        QVERIFY(!studies->isRunning());
        QVERIFY(start->isEnabled());
        QVERIFY(stopAndQuitQuestion(window).isEmpty());
    }
};

QTEST_MAIN(TestTrainingFeedback)
#include "test_trainingfeedback.moc"
