// Plot plumbing: replots are coalesced to at most one per ~40 ms however often data arrives,
// pages accept epochs with and without evaluations, and a plot exports a PNG.
#include "ui/pages/calibrationpage.h"

#include <QLabel>
#include "ui/pages/tailriskpage.h"
#include "ui/pages/trainingpage.h"
#include "ui/widgets/throttledplot.h"

#include <QElapsedTimer>
#include <QImage>
#include <QTemporaryDir>

using namespace lbd::ui;

namespace {

lbd::EvaluationReport fakeReport(int classes)
{
    lbd::EvaluationReport r;
    r.rule = lbd::DecisionRule::Eq7;
    r.classCount = classes;
    r.imageCount = 100;
    r.overall = {60, 100, 0.6};
    r.regionsThirds.regions = {{lbd::Region::Head, "head", {30, 33, 30.0 / 33}},
                               {lbd::Region::Medium, "med", {20, 33, 20.0 / 33}},
                               {lbd::Region::Tail, "tail", {10, 34, 10.0 / 34}}};
    r.regionsCounts = r.regionsThirds;
    for (int k = 1; k < classes; ++k) {
        r.fhrCurve.push_back({k, 10 - k, 50, (10.0 - k) / 50.0});
    }
    r.fhrPoints = {{0.25, r.fhrCurve[1]}, {0.5, r.fhrCurve[4]}, {0.75, r.fhrCurve[7]}};
    for (int b = 0; b < 15; ++b) {
        r.calibration.bins.push_back({b / 15.0, (b + 1) / 15.0, b % 3 == 0 ? 0 : 7, 0.05 * b, (b + 0.5) / 15.0});
    }
    r.calibration.count = 70;
    r.calibration.ece = 0.12;
    r.calibration.mce = 0.3;
    r.regionCalibration = {{lbd::Region::Head, "head", r.calibration},
                           {lbd::Region::Medium, "med", r.calibration},
                           {lbd::Region::Tail, "tail", r.calibration}};
    r.aurocConfidence = 0.8;
    return r;
}

lbd::EpochMetrics epoch(int e, bool evaluate)
{
    lbd::EpochMetrics m;
    m.epoch = e;
    m.epochs = 10;
    m.objective.total = 2.0 / e;
    m.objective.weightedCe = 1.8 / e;
    m.objective.repulsive = -3;
    m.objective.annealWeight = std::exp(-e / 2.0);
    m.learningRate = 0.1;
    m.trainAccuracy = 0.1 * e;
    if (evaluate) {
        m.evaluation = fakeReport(10);
        lbd::EvaluationReport argmax = fakeReport(10);
        argmax.rule = lbd::DecisionRule::Argmax;
        m.argmaxEvaluation = argmax;
    }
    return m;
}

} // namespace

class TestPlots : public QObject {
    Q_OBJECT

private slots:
    void replotsAreThrottled()
    {
        ThrottledPlot plot;
        plot.resize(400, 300);
        plot.show();
        QCPGraph* graph = plot.addGraph();
        QElapsedTimer clock;
        clock.start();
        int i = 0;
        while (clock.elapsed() < 400) {
            graph->addData(i, i * i);
            ++i;
            plot.requestReplot();
            QCoreApplication::processEvents();
        }
        QTRY_VERIFY(!plot.replotPending()); // the last request is drawn
        QVERIFY(i > 100);
        QVERIFY2(plot.replotCount() >= 2 && plot.replotCount() <= 400 / ThrottledPlot::kReplotIntervalMs + 2,
                 qPrintable(QString::number(plot.replotCount())));
    }

    void pagesTakeEpochsAndExport()
    {
        TrainingPage training;
        TailRiskPage tail;
        CalibrationPage calibration;
        RunContext context;
        for (RunView* view : std::initializer_list<RunView*>{&training, &tail, &calibration}) {
            view->beginRun(context);
            for (int e = 1; e <= 4; ++e) {
                view->addEpoch(epoch(e, e % 2 == 0));
            }
        }
        QVERIFY(training.pointCount() > 0);
        QCOMPARE(tail.evaluationCount(), 2);
        QCOMPARE(calibration.evaluationCount(), 2);

        training.resize(900, 600);
        training.show();
        QVERIFY(QTest::qWaitForWindowExposed(&training));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("loss.png"));
        QVERIFY(training.lossPlot()->exportPng(path));
        QVERIFY(!QImage(path).isNull());

        // A new run clears what the pages show.
        training.beginRun(context);
        tail.beginRun(context);
        QCOMPARE(training.pointCount(), 0);
        QCOMPARE(tail.evaluationCount(), 0);
    }

    // The Definition toggle shows the published code's ECE and its 10-bin reliability diagram
    // (lbd-math.md section 6), says how it differs from ours, and says when a report predates it.
    void calibrationPageTogglesToThePublishedDefinition()
    {
        CalibrationPage page;
        page.beginRun(RunContext());
        lbd::EpochMetrics m = epoch(2, true);
        lbd::PublishedMetrics published;
        published.accuracy = 0.61;
        published.ece = 0.0914;
        published.auroc = 0.6667;
        published.unbinned = 3;
        for (int b = 0; b < 10; ++b) {
            published.bins.push_back({b / 10.0, (b + 1) / 10.0, b < 6 ? 0 : 9, 0.1 * b, (b + 0.5) / 10.0});
        }
        m.evaluation->published = published;
        page.addEpoch(m);
        auto* scores = page.findChild<QLabel*>(QStringLiteral("calibrationScores"));
        auto* note = page.findChild<QLabel*>(QStringLiteral("calibrationDefinitionNote"));
        QVERIFY(scores && note);
        QVERIFY2(scores->text().contains(QStringLiteral("0.1200")), qPrintable(scores->text())); // ours
        QVERIFY(note->text().contains(QStringLiteral("15")));
        page.showDefinition(1);
        QVERIFY2(scores->text().contains(QStringLiteral("0.0914")), qPrintable(scores->text()));
        QVERIFY(scores->text().contains(QStringLiteral("3 of 100")));
        QVERIFY(note->text().contains(QStringLiteral("10 bins")));
        int bars = 0;
        for (int i = 0; i < page.reliabilityPlot()->plottableCount(); ++i) {
            if (auto* b = qobject_cast<QCPBars*>(page.reliabilityPlot()->plottable(i))) {
                bars = b->data()->size();
            }
        }
        QCOMPARE(bars, 4); // the non-empty ones of the 10 published bins
        // A report written before the published metrics says so, rather than showing zeros.
        page.beginRun(RunContext());
        page.addEpoch(epoch(2, true));
        QVERIFY2(scores->text().contains(QStringLiteral("written before")), qPrintable(scores->text()));
        page.showDefinition(0);
        QVERIFY(scores->text().contains(QStringLiteral("0.1200")));
    }
};

QTEST_MAIN(TestPlots)
#include "test_plots.moc"
