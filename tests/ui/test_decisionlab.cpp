// The Decision lab on a tiny run trained with the real engine: an empty state before a run, the
// same numbers as the real `lbd eval RUN --utility tail:c --rule R --json` for two rules, a
// tail-sensitive matrix lowering the False Head Rate against one-hot argmax (and the lab saying
// so), re-deciding when the shared matrix changes, and a clear inline error for a folder that is
// not a finished run.
#include "tests/ui/uitestsupport.h"

#include "core/train/trainer.h"

#include "ui/mainwindow.h"
#include "ui/pages/decisionlabpage.h"
#include "ui/utility/utilitydocument.h"
#include "ui/widgets/throttledplot.h"

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
            QTableWidget* table = lab->table();
            QString shownUtility, shownAccuracy;
            for (int row = 0; row < table->rowCount(); ++row) {
                const QString header = table->verticalHeaderItem(row)->text();
                if (header == QStringLiteral("mean utility")) {
                    shownUtility = table->item(row, 1)->text();
                } else if (header == QStringLiteral("accuracy")) {
                    shownAccuracy = table->item(row, 1)->text();
                }
            }
            QCOMPARE(shownUtility, QString::number(meanUtility, 'f', 4));
            QCOMPARE(shownAccuracy,
                     QString::number(100.0 * cli[QStringLiteral("accuracy")][QStringLiteral("accuracy")].toDouble(), 'f', 1)
                         + QLatin1Char('%'));
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

        // Tail-sensitive(c) through the shared document, as the utility editor would set it.
        QSignalSpy evaluated(lab, &DecisionLabPage::evaluated);
        QVERIFY(window.utilityDocument()->setMatrix(lbd::UtilityMatrix::tailSensitive(4, 3.0)));
        QTRY_VERIFY_WITH_TIMEOUT(!evaluated.isEmpty() && !lab->isBusy()
                                     && lab->evaluatedMatrix() == lbd::UtilityMatrix::tailSensitive(4, 3.0),
                                 30000);
        const double tailSensitive = meanFhr(*lab->labReport());
        qInfo("FHR avg: one-hot argmax %.4f, tail-sensitive(3) expected utility %.4f", baseline, tailSensitive);
        QVERIFY2(tailSensitive < baseline, qPrintable(lab->headline()));
        QCOMPARE(meanFhr(*lab->baselineReport()), baseline); // the baseline does not move with U
        // The page says so: a negative relative FHR change, and the lower curve is drawn.
        QVERIFY2(lab->headline().contains(QStringLiteral("FHR avg -")), qPrintable(lab->headline()));
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

private:
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
