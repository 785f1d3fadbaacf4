// The run comparison plots any metric the runs recorded, and runs that differ only in their seed
// as one curve: hand-written run folders (three seeds of one config, one other config) whose
// metrics.jsonl carry known accuracy, ECE and NLL at two evaluations. The seed group's curve is
// the mean and its band the mean ± sample std computed here by hand; the picker lists what the
// runs recorded (NLL, ECE) and not what none did (validation accuracy); unticking "Seeds as one
// curve" draws every run.
#include "tests/ui/uitestsupport.h"

#include "core/train/configjson.h"
#include "core/train/epochmetricsjson.h"
#include "ui/runs/comparisonmetrics.h"
#include "ui/runs/runcomparisonview.h"
#include "ui/widgets/throttledplot.h"

#include <nlohmann/json.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QTest>

#include <cmath>

#include <qcustomplot.h>

using namespace lbd::ui;
using nlohmann::json;

namespace {

struct Recorded {
    double accuracy[2];
    double ece[2];
    double nll[2];
};

// A finished two-epoch run with an evaluation at both epochs.
void writeRun(const QString& dir, int seed, int particles, const Recorded& values)
{
    test::writeRunDescription(dir, "tiny", seed, particles);
    std::string lines;
    for (int e = 0; e < 2; ++e) {
        lbd::EpochMetrics metrics;
        metrics.epoch = e + 1;
        metrics.epochs = 2;
        metrics.objective.total = 1.0 / (e + 1);
        metrics.learningRate = 0.05;
        metrics.imagesPerSecond = 100;
        lbd::EvaluationReport report;
        report.classCount = 4;
        report.overall = {static_cast<int64_t>(std::lround(values.accuracy[e] * 100)), 100, values.accuracy[e]};
        report.calibration.ece = values.ece[e];
        report.nll = values.nll[e];
        metrics.evaluation = report;
        lines += lbd::toJson(metrics).dump() + "\n";
    }
    test::writeText(dir + "/metrics.jsonl", lines);
}

QCPGraph* graphNamed(QCPAxisRect* rect, const QString& name)
{
    for (QCPGraph* graph : rect->graphs()) {
        if (graph->name() == name) {
            return graph;
        }
    }
    return nullptr;
}

double valueAt(QCPGraph* graph, double epoch)
{
    const auto it = graph->data()->findBegin(epoch, false);
    return it != graph->data()->constEnd() && it->key == epoch ? it->value : std::nan("");
}

// The sample mean and std, by hand.
void meanStd(const std::vector<double>& values, double& mean, double& std)
{
    mean = 0;
    for (const double v : values) {
        mean += v / values.size();
    }
    double squares = 0;
    for (const double v : values) {
        squares += (v - mean) * (v - mean);
    }
    std = std::sqrt(squares / (values.size() - 1));
}

} // namespace

class TestComparisonMetrics final : public QObject {
    Q_OBJECT

    QTemporaryDir m_temp;
    QStringList m_dirs;
    const Recorded m_seeds[3] = {{{0.50, 0.70}, {0.20, 0.10}, {1.40, 0.90}},
                                 {{0.54, 0.76}, {0.16, 0.08}, {1.30, 0.80}},
                                 {{0.58, 0.73}, {0.18, 0.12}, {1.20, 0.95}}};
    const Recorded m_other = {{0.40, 0.90}, {0.30, 0.02}, {2.00, 0.50}};

private slots:
    void initTestCase()
    {
        QVERIFY(m_temp.isValid());
        test::isolateSettings(m_temp);
        for (int seed = 0; seed < 3; ++seed) {
            m_dirs << m_temp.filePath(QStringLiteral("runs/tiny-s%1").arg(seed));
            writeRun(m_dirs.last(), seed, 2, m_seeds[seed]);
        }
        m_dirs << m_temp.filePath(QStringLiteral("runs/other"));
        writeRun(m_dirs.last(), 0, 3, m_other);
    }

    void metricCurvesReadEveryRecordedMetric()
    {
        const ComparedRun run = loadComparedRun(m_dirs[0]);
        QVERIFY2(run.error.isEmpty(), qPrintable(run.error));
        QCOMPARE(run.curves.at("accuracy").values, (QVector<double>{50.0, 70.0}));
        QCOMPARE(run.curves.at("ece").epochs, (QVector<double>{1, 2}));
        QVERIFY(std::abs(run.curves.at("ece").values[1] - 10.0) < 1e-9); // a rate, in %
        QVERIFY(std::abs(run.curves.at("nll").values[0] - 1.40) < 1e-12); // nats, unscaled
        QVERIFY(std::abs(run.curves.at("loss").values[1] - 0.5) < 1e-12);
        QVERIFY(!run.curves.count("val_accuracy")); // no validation split
    }

    void theUserPicksAnyRecordedMetric()
    {
        RunComparisonView view;
        std::vector<ComparedRun> runs;
        for (const QString& dir : m_dirs) {
            runs.push_back(loadComparedRun(dir));
        }
        view.setRuns(std::move(runs));
        QComboBox* picker = view.metricPicker(1);
        for (const char* key : {"accuracy", "tail", "ece", "nll", "fhr_curve", "aurc", "loss"}) {
            QVERIFY2(picker->findData(QString::fromLatin1(key)) >= 0, key);
        }
        QCOMPARE(picker->findData(QStringLiteral("val_accuracy")), -1); // none of the runs recorded it
        QVERIFY(!view.setPanelMetric(1, "val_accuracy"));

        // NLL on the middle panel, chosen in its picker as a user would.
        picker->setCurrentIndex(picker->findData(QStringLiteral("nll")));
        emit picker->activated(picker->currentIndex());
        QCOMPARE(view.panelMetric(1), std::string("nll"));
        QVERIFY(view.panelRect(1)->axis(QCPAxis::atLeft)->label().contains(QStringLiteral("NLL")));
        QCPGraph* other = graphNamed(view.panelRect(1), QStringLiteral("other"));
        QVERIFY(other);
        QVERIFY(std::abs(valueAt(other, 1) - 2.00) < 1e-12);
        QVERIFY(std::abs(valueAt(other, 2) - 0.50) < 1e-12);
    }

    void seedsAreOneCurveWithMeanAndStd()
    {
        RunComparisonView view;
        std::vector<ComparedRun> runs;
        for (const QString& dir : m_dirs) {
            runs.push_back(loadComparedRun(dir));
        }
        view.setRuns(std::move(runs));
        QVERIFY(view.setPanelMetric(2, "ece"));
        const QString group = RunComparisonView::groupLabel(QStringLiteral("tiny"), {0, 1, 2});
        QCOMPARE(view.plot()->legend->itemCount(), 2); // the seed group and the other run
        for (int panel : {0, 2}) {
            QCPAxisRect* rect = view.panelRect(panel);
            QCPGraph* mean = graphNamed(rect, group);
            QCPGraph* high = graphNamed(rect, group + QStringLiteral(" + 1 std"));
            QCPGraph* low = graphNamed(rect, group + QStringLiteral(" - 1 std"));
            QVERIFY(mean && high && low);
            QCOMPARE(low->channelFillGraph(), high);
            for (int e = 0; e < 2; ++e) {
                std::vector<double> values;
                for (const Recorded& seed : m_seeds) {
                    values.push_back(100.0 * (panel == 0 ? seed.accuracy[e] : seed.ece[e]));
                }
                double m = 0, s = 0;
                meanStd(values, m, s);
                QVERIFY2(std::abs(valueAt(mean, e + 1) - m) < 1e-9, qPrintable(QString::number(valueAt(mean, e + 1))));
                QVERIFY(std::abs(valueAt(high, e + 1) - (m + s)) < 1e-9);
                QVERIFY(std::abs(valueAt(low, e + 1) - (m - s)) < 1e-9);
            }
            QVERIFY(graphNamed(rect, QStringLiteral("other")));
        }
        // The hand-computed numbers themselves: accuracy at epoch 1 is 54 ± 4 %.
        QVERIFY(std::abs(valueAt(graphNamed(view.panelRect(0), group), 1) - 54.0) < 1e-9);
        QVERIFY(std::abs(valueAt(graphNamed(view.panelRect(0), group + QStringLiteral(" + 1 std")), 1) - 58.0) < 1e-9);

        // Unticked: every run is its own curve again.
        view.groupSeedsBox()->setChecked(false);
        QCOMPARE(view.plot()->legend->itemCount(), 4);
        QCOMPARE(view.panelRect(0)->graphs().size(), 4);
        QVERIFY(!graphNamed(view.panelRect(0), group));
    }
};

QTEST_MAIN(TestComparisonMetrics)
#include "test_comparisonmetrics.moc"
