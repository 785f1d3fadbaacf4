// The Decision lab on tiny runs trained with the real engine: an empty state before a run, the
// same numbers as the real `lbd eval RUN --utility tail:c --rule R --json` for two rules, a
// tail-sensitive matrix lowering the False Head Rate against one-hot argmax (and the lab saying
// so), re-deciding when the shared matrix changes, a clear inline error for a folder that is not a
// finished run; a run trained with a utility FILE giving identical numbers after the file is
// edited and deleted; the degenerate-result warning for eq7 + tail:2 (and none for the defaults);
// the risk-coverage plot and the defer option; tuning c and r on a validation split.
#include "tests/ui/uitestsupport.h"

#include "core/infer/runresults.h"
#include "core/infer/runtuning.h"
#include "core/train/trainer.h"

#include "core/eval/reportjson.h"
#include "ui/decisionlab/labtable.h"
#include "ui/decisionlab/tuningpanel.h"
#include "ui/app/mainwindow.h"
#include "ui/pages/decisionlabpage.h"
#include "ui/widgets/decisioncontrols.h"
#include "ui/utility/utilitydocument.h"
#include "ui/widgets/throttledplot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableWidget>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace lbd::ui;

namespace {

const QString kLbd = QStringLiteral(LBD_CLI_PATH);

double meanFhr(const lbd::EvaluationReport& report)
{
    double sum = 0;
    for (const auto& split : report.fhrCurve) {
        sum += split.rate;
    }
    return report.fhrCurve.empty() ? 0.0 : sum / double(report.fhrCurve.size());
}

bool same(double a, double b) { return std::abs(a - b) <= 1e-12; }

QString joined(const std::vector<std::string>& lines)
{
    QStringList out;
    for (const std::string& line : lines) {
        out << QString::fromStdString(line);
    }
    return out.join(QStringLiteral("; "));
}

void writeText(const QString& path, const QByteArray& text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
}

} // namespace

class TestDecisionLab : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        test::isolateSettings(m_dir);
        m_run = m_dir.filePath(QStringLiteral("runs/tiny"));
        // Two epochs: half the test images right, and tail images still often taken for head
        // classes (imbalance 4; measured FHR(k) = 0 / 12.5 / 92% under argmax), the situation
        // tail-sensitive decisions are for. Longer runs of this tiny set make no false heads.
        lbd::TrainConfig config = test::tinyConfig(2);
        config.data.synthetic.seed = 0; // the images for which those rates were measured
        lbd::Trainer trainer(config, m_run.toStdString(), false);
        QCOMPARE(trainer.run({}, nullptr).epochsCompleted, 2);
    }

    void showsAnEmptyStateBeforeARun()
    {
        MainWindow window;
        DecisionLabPage* lab = window.decisionLabPage();
        QVERIFY(lab);
        QCOMPARE(window.pages()->indexOf(lab) >= 0, true);
        QVERIFY(!lab->hasRun());
        auto* empty = lab->findChild<QLabel*>(QStringLiteral("labEmptyState"));
        QVERIFY(empty);
        auto* stack = qobject_cast<QStackedWidget*>(empty->parentWidget());
        QVERIFY(stack);
        QCOMPARE(stack->currentWidget(), empty);
        QVERIFY(empty->text().contains(QStringLiteral("No run yet")));
        // Presets and the rule box work without a run and compute nothing.
        lab->setRule(lbd::DecisionRule::Eq7);
        QTest::mouseClick(lab->tailButton(), Qt::LeftButton);
        QVERIFY(!lab->labReport().has_value());
        QVERIFY(lab->message().isEmpty());
    }

    void numbersEqualLbdEval()
    {
        MainWindow window;
        window.setErrorReporter([](const QString& title, const QString& message) {
            QFAIL(qPrintable(title + QStringLiteral(": ") + message));
        });
        DecisionLabPage* lab = window.decisionLabPage();
        QVERIFY(window.openRun(m_run)); // emits runShown
        QCOMPARE(lab->runDirectory(), m_run);
        QTRY_VERIFY_WITH_TIMEOUT(lab->hasRun() && lab->labReport().has_value() && !lab->isBusy(), 30000);

        // Tail-sensitive(2) through the page's own preset, then the rules one after another.
        lab->tailPenalty()->setValue(2.0);
        QTest::mouseClick(lab->tailButton(), Qt::LeftButton);
        QCOMPARE(window.utilityDocument()->matrix(), lbd::UtilityMatrix::tailSensitive(4, 2.0));
        for (const auto& [rule, name] : {std::pair{lbd::DecisionRule::Expected, QStringLiteral("expected")},
                                         std::pair{lbd::DecisionRule::Eq7, QStringLiteral("eq7")}}) {
            lab->setRule(rule);
            QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && lab->labReport() && lab->labReport()->rule == rule
                                         && lab->evaluatedMatrix() == lbd::UtilityMatrix::tailSensitive(4, 2.0),
                                     30000);
            const QJsonObject cli = lbdEval({QStringLiteral("--utility"), QStringLiteral("tail:2"), QStringLiteral("--rule"), name});
            if (QTest::currentTestFailed()) {
                return;
            }
            const lbd::EvaluationReport& mine = *lab->labReport();
            QCOMPARE(cli.value(QStringLiteral("rule")).toString(), name);
            QCOMPARE(qint64(mine.imageCount), qint64(cli.value(QStringLiteral("images")).toInteger()));
            QVERIFY(same(mine.overall.accuracy, cli[QStringLiteral("accuracy")][QStringLiteral("accuracy")].toDouble()));
            QCOMPARE(qint64(mine.overall.correct), cli[QStringLiteral("accuracy")][QStringLiteral("correct")].toInteger());
            const QJsonArray regions = cli[QStringLiteral("regions")][QStringLiteral("thirds")].toArray();
            QCOMPARE(regions.size(), 3);
            for (int r = 0; r < 3; ++r) {
                const auto& region = mine.regionsThirds.regions[size_t(r)];
                QCOMPARE(QString::fromStdString(region.name), regions[r][QStringLiteral("region")].toString());
                QVERIFY2(same(region.counts.accuracy, regions[r][QStringLiteral("accuracy")].toDouble()),
                         qPrintable(QString::fromStdString(region.name)));
            }
            const QJsonArray curve = cli[QStringLiteral("fhr")][QStringLiteral("curve")].toArray();
            QCOMPARE(qsizetype(mine.fhrCurve.size()), curve.size());
            for (int k = 0; k < curve.size(); ++k) {
                QVERIFY(same(mine.fhrCurve[size_t(k)].rate, curve[k][QStringLiteral("rate")].toDouble()));
            }
            const QJsonArray points = cli[QStringLiteral("fhr")][QStringLiteral("points")].toArray();
            QCOMPARE(qsizetype(mine.fhrPoints.size()), points.size());
            for (int k = 0; k < points.size(); ++k) {
                QVERIFY(same(mine.fhrPoints[size_t(k)].split.rate, points[k][QStringLiteral("rate")].toDouble()));
            }
            const double meanUtility = cli.value(QStringLiteral("mean_utility")).toDouble();
            QVERIFY(same(mine.meanUtility, meanUtility));
            QVERIFY(same(mine.nll, cli.value(QStringLiteral("nll")).toDouble()));

            // What the page shows is these numbers: the table's chosen-rule column.
            QCOMPARE(lab->table()->chosenCell(QStringLiteral("mean utility")), QString::number(meanUtility, 'f', 4));
            QCOMPARE(lab->table()->chosenCell(QStringLiteral("accuracy")),
                     QString::number(100.0 * cli[QStringLiteral("accuracy")][QStringLiteral("accuracy")].toDouble(), 'f', 1)
                         + QStringLiteral(" %"));
            QCOMPARE(lab->table()->chosenCell(QStringLiteral("AURC")),
                     QString::number(cli[QStringLiteral("risk_coverage")][QStringLiteral("all")][QStringLiteral("aurc")].toDouble(), 'f', 4));
        }

        // The baseline is plain argmax: equal to `lbd eval --rule argmax` under the same matrix.
        const QJsonObject argmax = lbdEval({QStringLiteral("--utility"), QStringLiteral("tail:2"), QStringLiteral("--rule"),
                                            QStringLiteral("argmax")});
        QVERIFY(same(lab->baselineReport()->overall.accuracy, argmax[QStringLiteral("accuracy")][QStringLiteral("accuracy")].toDouble()));
        QVERIFY(same(lab->baselineReport()->meanUtility, argmax.value(QStringLiteral("mean_utility")).toDouble()));
    }

    void tailSensitiveLowersTheFalseHeadRate()
    {
        MainWindow window;
        DecisionLabPage* lab = window.decisionLabPage();
        QVERIFY(window.openRun(m_run));
        QTRY_VERIFY_WITH_TIMEOUT(lab->hasRun() && lab->labReport().has_value() && !lab->isBusy(), 30000);

        // One-hot + expected utility decides exactly like argmax: no difference shown.
        QTest::mouseClick(lab->oneHotButton(), Qt::LeftButton);
        lab->setRule(lbd::DecisionRule::Expected);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && lab->evaluatedMatrix() == lbd::UtilityMatrix::oneHot(4)
                                     && lab->labReport()->rule == lbd::DecisionRule::Expected,
                                 30000);
        QCOMPARE(lab->labReport()->confusion, lab->baselineReport()->confusion);
        const double baseline = meanFhr(*lab->baselineReport());
        QVERIFY2(baseline > 0.0, "the tiny run makes no false-head mistakes: nothing for the lab to lower");

        // Tail-sensitive(c) through the shared document, as the utility editor would set it. A
        // small c: on this 2-epoch run any c >= 0.5 already gives up every head image (measured),
        // which the lab flags as degenerate instead of a gain (aDegenerateCombinationIsAWarningNotAWin).
        QSignalSpy evaluated(lab, &DecisionLabPage::evaluated);
        QVERIFY(window.utilityDocument()->setMatrix(lbd::UtilityMatrix::tailSensitive(4, 0.25)));
        QTRY_VERIFY_WITH_TIMEOUT(!evaluated.isEmpty() && !lab->isBusy()
                                     && lab->evaluatedMatrix() == lbd::UtilityMatrix::tailSensitive(4, 0.25),
                                 30000);
        QVERIFY2(lab->labReport()->warnings.empty(), qPrintable(joined(lab->labReport()->warnings)));
        const double tailSensitive = meanFhr(*lab->labReport());
        qInfo("FHR curve mean: one-hot argmax %.4f, tail-sensitive(0.25) expected utility %.4f", baseline, tailSensitive);
        QVERIFY2(tailSensitive < baseline, qPrintable(lab->headline()));
        QCOMPARE(meanFhr(*lab->baselineReport()), baseline); // the baseline does not move with U
        // The page says so: a negative relative FHR change (both means under their own names),
        // and the lower curve is drawn.
        QVERIFY2(lab->headline().contains(QStringLiteral("FHR curve mean -")), qPrintable(lab->headline()));
        QVERIFY2(lab->headline().contains(QStringLiteral("FHR 3-point mean")), qPrintable(lab->headline()));
        QVERIFY2(!lab->headline().contains(QStringLiteral("FHR avg")), qPrintable(lab->headline()));
        QVERIFY2(lab->headline().contains(QStringLiteral("tail-sensitive")), qPrintable(lab->headline()));
        QVERIFY(lab->fhrPlot()->graphCount() == 4);
        QCOMPARE(lab->fhrPlot()->graph(1)->data()->size(), 3); // k = 1..C-1
    }

    void aFolderThatIsNotARunIsExplainedInline()
    {
        MainWindow window;
        DecisionLabPage* lab = window.decisionLabPage();
        QTemporaryDir notARun;
        QSignalSpy failed(lab, &DecisionLabPage::failed);
        lab->showRun(notARun.path());
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 30000);
        QVERIFY2(lab->message().contains(QStringLiteral("not a run folder (config.json is missing)")), qPrintable(lab->message()));
        QVERIFY(!lab->hasRun());
        QVERIFY(!lab->labReport().has_value());
    }

    void aRunTrainedWithAUtilityFileKeepsItsNumbersWhenTheFileChangesAndGoes()
    {
        // Train with a tail-sensitive(2) matrix read from a user's CSV, for training and decisions.
        const QString file = m_dir.filePath(QStringLiteral("tail2.csv"));
        writeText(file, "1,0,0,0\n-2,1,0,0\n-2,-2,1,0\n-2,-2,-2,1\n");
        const QString run = m_dir.filePath(QStringLiteral("runs/from-file"));
        lbd::TrainConfig config = test::tinyConfig(1);
        config.data.synthetic.seed = 0;
        config.objective.utility = lbd::utilityFromSpec(file.toStdString());
        config.decision.utility = lbd::utilityFromSpec(file.toStdString());
        {
            lbd::Trainer trainer(config, run.toStdString(), false);
            QCOMPARE(trainer.run({}, nullptr).epochsCompleted, 1);
        }
        std::string before, edited, deleted;
        labReportJson(run, QStringLiteral("file as trained"), &before);
        QVERIFY(!QTest::currentTestFailed());
        writeText(file, "1,0,0,0\n0,1,0,0\n0,0,1,0\n0,0,0,1\n"); // edited to one-hot
        labReportJson(run, QStringLiteral("file edited"), &edited);
        QVERIFY(!QTest::currentTestFailed());
        QVERIFY(QFile::remove(file));
        labReportJson(run, QStringLiteral("file deleted"), &deleted);
        QVERIFY(!QTest::currentTestFailed());
        QVERIFY(!before.empty());
        QCOMPARE(edited, before);
        QCOMPARE(deleted, before);
    }

    void aDegenerateCombinationIsAWarningNotAWin()
    {
        MainWindow window;
        window.resize(1600, 940);
        window.show();
        DecisionLabPage* lab = window.decisionLabPage();
        window.pages()->setCurrentWidget(lab);
        QVERIFY(window.openRun(m_run));
        // The defaults: expected utility, one-hot. No warning anywhere.
        QCOMPARE(lab->rule(), lbd::kDefaultDecisionRule);
        QTRY_VERIFY_WITH_TIMEOUT(lab->hasRun() && lab->labReport() && !lab->isBusy(), 30000);
        QCOMPARE(lab->evaluatedMatrix(), lbd::UtilityMatrix::oneHot(4));
        QVERIFY2(lab->labReport()->warnings.empty(), qPrintable(joined(lab->labReport()->warnings)));
        QVERIFY(lab->warningText().isEmpty());
        QVERIFY(lab->decisionControls()->warningText().isEmpty());

        // eq7 with tail:2: the registry's warning under the rule, the report's warnings in the
        // banner, and a headline that does not present the FHR drop as a gain.
        lab->tailPenalty()->setValue(2.0);
        QTest::mouseClick(lab->tailButton(), Qt::LeftButton);
        lab->ruleBox()->setCurrentIndex(lab->ruleBox()->findData(int(lbd::DecisionRule::Eq7)));
        QCOMPARE(window.utilityDocument()->rule(), lbd::DecisionRule::Eq7);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && lab->labReport() && lab->labReport()->rule == lbd::DecisionRule::Eq7
                                     && lab->evaluatedMatrix() == lbd::UtilityMatrix::tailSensitive(4, 2.0),
                                 30000);
        QVERIFY(!lab->labReport()->warnings.empty());
        QVERIFY2(lab->warningText().contains(QStringLiteral("degenerate")), qPrintable(lab->warningText()));
        QVERIFY2(lab->warningText().contains(QStringLiteral("eq7")), qPrintable(lab->warningText()));
        QVERIFY2(lab->decisionControls()->warningText().contains(QStringLiteral("eq7")),
                 qPrintable(lab->decisionControls()->warningText()));
        QVERIFY2(!lab->headline().contains(QStringLiteral("FHR curve mean")), qPrintable(lab->headline()));
        QVERIFY2(lab->headline().contains(QStringLiteral("not shown as a gain")), qPrintable(lab->headline()));
        test::keepScreenshot(&window, QStringLiteral("lab-eq7-warning"));

        // Back to the default rule with the same matrix: the warning goes.
        lab->setRule(lbd::DecisionRule::Expected);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && lab->labReport()->rule == lbd::DecisionRule::Expected, 30000);
        QVERIFY(lab->decisionControls()->warningText().isEmpty());
    }

    void riskCoverageAndTheDeferOption()
    {
        MainWindow window;
        DecisionLabPage* lab = window.decisionLabPage();
        QVERIFY(window.openRun(m_run));
        QTRY_VERIFY_WITH_TIMEOUT(lab->hasRun() && lab->labReport() && !lab->isBusy(), 30000);
        // Overall, tail-only and baseline curves, the AURC in the legend, labelled axes.
        ThrottledPlot* plot = lab->riskCoveragePlot();
        QCOMPARE(plot->graphCount(), 3);
        const int images = int(lab->labReport()->imageCount);
        QCOMPARE(plot->graph(0)->dataCount(), images); // every point up to kRiskCoverageSamples images
        QVERIFY(plot->graph(1)->dataCount() > 0);
        QVERIFY2(plot->graph(0)->name().contains(QStringLiteral("AURC")), qPrintable(plot->graph(0)->name()));
        QVERIFY(plot->xAxis->label().contains(QStringLiteral("coverage")));
        QVERIFY(plot->yAxis->label().contains(QStringLiteral("risk")));
        QVERIFY(!lab->labReport()->defer);

        // Defer below r: fewer images decided, the defer point is drawn, the summary says so.
        DecisionControls* controls = lab->decisionControls();
        controls->deferSpin()->setValue(0.9);
        controls->deferBox()->setChecked(true);
        QCOMPARE(window.utilityDocument()->deferUtility(), std::optional<double>(0.9));
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && lab->labReport()->defer, 30000);
        const lbd::DeferReport high = *lab->labReport()->defer;
        QVERIFY2(high.coverage < 1.0 && high.deferred > 0, qPrintable(lab->deferSummary()));
        QCOMPARE(plot->graphCount(), 4);
        QVERIFY(lab->deferSummary().contains(QStringLiteral("coverage")));
        QVERIFY(lab->deferSummary().contains(QStringLiteral("Selective accuracy")));
        // A lower r decides more images.
        controls->deferSpin()->setValue(0.3);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && lab->labReport()->defer && lab->labReport()->defer->deferUtility == 0.3,
                                 30000);
        QVERIFY(lab->labReport()->defer->coverage > high.coverage);
        // Off again.
        controls->deferBox()->setChecked(false);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && !lab->labReport()->defer, 30000);
        QCOMPARE(plot->graphCount(), 3);
    }

    void tuningReadsTheValidationSplitAndReportsTest()
    {
        // A run with a validation split: the tune buttons work, write the shared settings, and
        // the text says which split each number is from.
        const QString run = m_dir.filePath(QStringLiteral("runs/with-validation"));
        lbd::TrainConfig config = test::tinyConfig(2);
        config.data.synthetic.seed = 0;
        // 0.2: 22 images held out, 87 left to train (0.25 leaves 81 = 5 x 16 + 1, and a last batch
        // of one image fails in batch norm).
        config.data.longTail.validationFraction = 0.2;
        {
            lbd::Trainer trainer(config, run.toStdString(), false);
            QCOMPARE(trainer.run({}, nullptr).epochsCompleted, 2);
        }
        MainWindow window;
        DecisionLabPage* lab = window.decisionLabPage();
        QVERIFY(window.openRun(run));
        QTRY_VERIFY_WITH_TIMEOUT(lab->hasRun() && lab->labReport() && !lab->isBusy(), 30000);
        DecisionTuningPanel* tuning = lab->tuning();
        QVERIFY(tuning->tailButton()->isEnabled());
        QVERIFY(tuning->deferButton()->isEnabled());

        QTest::mouseClick(tuning->tailButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && tuning->tunedPenalty(), 30000);
        const double c = *tuning->tunedPenalty();
        const lbd::UtilityMatrix tuned = c > 0 ? lbd::UtilityMatrix::tailSensitive(4, c) : lbd::UtilityMatrix::oneHot(4);
        QCOMPARE(window.utilityDocument()->matrix(), tuned);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && lab->evaluatedMatrix() == tuned, 30000);
        QVERIFY2(tuning->resultText().contains(QStringLiteral("validation")) && tuning->resultText().contains(QStringLiteral("test")),
                 qPrintable(tuning->resultText()));
        // The same c as core's tuning on the validation split, not on the test split.
        const lbd::RunResults validation = lbd::loadRunResults(run.toStdString(), lbd::ResultSplit::Validation);
        QCOMPARE(c, lbd::tuneTailPenalty(validation, lbd::DecisionRule::Expected, 0.01).penalty);

        QTest::mouseClick(tuning->deferButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && tuning->tunedDefer() && lab->labReport()->defer, 30000);
        QCOMPARE(window.utilityDocument()->deferUtility(), tuning->tunedDefer());
        QCOMPARE(*tuning->tunedDefer(),
                 lbd::tuneDeferUtility(validation, tuned, lbd::DecisionRule::Expected, 0.9).deferUtility);
        QVERIFY(tuning->resultText().contains(QStringLiteral("coverage")));

        // A run without a validation split cannot tune (the test set is never used for it).
        QVERIFY(window.openRun(m_run));
        QTRY_VERIFY_WITH_TIMEOUT(lab->runDirectory() == m_run && lab->hasRun() && !lab->isBusy(), 30000);
        QVERIFY(!tuning->tailButton()->isEnabled());
        QVERIFY(!tuning->deferButton()->isEnabled());
        QVERIFY(tuning->resultText().contains(QStringLiteral("No validation split")));
    }

private:
    // Opens `run` in a new window, makes its recorded decision settings the shared ones and
    // writes the lab's report as JSON (core's reportToJson) to `json`.
    static void labReportJson(const QString& run, const QString& step, std::string* json)
    {
        MainWindow window;
        DecisionLabPage* lab = window.decisionLabPage();
        lab->showRun(run);
        QTRY_VERIFY_WITH_TIMEOUT(lab->hasRun() && !lab->isBusy(), 30000);
        QVERIFY2(lab->runNotes().isEmpty(), qPrintable(step + QStringLiteral(": ") + lab->runNotes()));
        QVERIFY(lab->adoptRunDecisions());
        QCOMPARE(window.utilityDocument()->matrix(), lbd::UtilityMatrix::tailSensitive(4, 2.0));
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && lab->labReport()
                                     && lab->evaluatedMatrix() == lbd::UtilityMatrix::tailSensitive(4, 2.0),
                                 30000);
        *json = lbd::reportToJson(*lab->labReport()).dump();
    }

    QJsonObject lbdEval(const QStringList& options)
    {
        QProcess process;
        const QStringList args = QStringList{QStringLiteral("eval"), m_run} + options + QStringList{QStringLiteral("--json")};
        process.start(kLbd, args);
        if (!process.waitForFinished(120000)) {
            QTest::qFail("lbd eval did not finish", __FILE__, __LINE__);
            return {};
        }
        const QByteArray out = process.readAllStandardOutput();
        if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
            QTest::qFail(qPrintable(QStringLiteral("lbd %1 failed: %2").arg(args.join(QLatin1Char(' ')),
                                                                           QString::fromUtf8(process.readAllStandardError()))),
                         __FILE__, __LINE__);
            return {};
        }
        QJsonParseError error;
        const QJsonDocument json = QJsonDocument::fromJson(out, &error);
        if (!json.isObject()) {
            QTest::qFail(qPrintable(QStringLiteral("lbd eval printed no JSON object: %1").arg(error.errorString())),
                         __FILE__, __LINE__);
        }
        return json.object();
    }

    QTemporaryDir m_dir;
    QString m_run;
};

QTEST_MAIN(TestDecisionLab)
#include "test_decisionlab.moc"
