// The Runs page's "Group seeds" view on hand-written run folders: three finished runs that differ
// only in their seeds (and names), a failed fourth repeat without a report, and one run with
// another config. The repeats are one group whose accuracy and ECE columns show the mean ± sample
// std computed here by hand, over the finished runs only; the other run is a group of its own;
// double-clicking a group selects its runs in the run list.
#include "tests/ui/uitestsupport.h"

#include "core/eval/reportjson.h"
#include "core/study/rungroups.h"
#include "core/train/configjson.h"
#include "ui/pages/runspage.h"
#include "ui/runs/rungroupmodel.h"
#include "ui/runs/rungroupview.h"

#include <nlohmann/json.hpp>

#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <cmath>

using namespace lbd::ui;
using nlohmann::json;

namespace {

// A run folder as the trainer leaves it, minus the tensors: config, manifest, status, report.
void writeRun(const QString& dir, int seed, int particles, const QString& state, double accuracy, double ece)
{
    test::writeRunDescription(dir, "tiny-s" + std::to_string(seed), seed, particles, state.toStdString(),
                              state == "failed" ? "the loss became nan" : "");
    if (state == "finished") {
        lbd::EvaluationReport report;
        report.classCount = 4;
        report.overall = {static_cast<int64_t>(std::lround(accuracy * 100)), 100, accuracy}; // a report without images reads 0
        report.calibration.ece = ece;
        test::writeText(dir + "/report.json", json{{"evaluation", lbd::reportToJson(report)}}.dump());
    }
}

} // namespace

class TestRunGroups final : public QObject {
    Q_OBJECT

    QTemporaryDir m_temp;
    QString m_runs;

private slots:
    void initTestCase()
    {
        QVERIFY(m_temp.isValid());
        test::isolateSettings(m_temp);
        m_runs = m_temp.filePath(QStringLiteral("runs"));
        writeRun(m_runs + "/tiny-s0", 0, 2, "finished", 0.80, 0.10);
        writeRun(m_runs + "/tiny-s1", 1, 2, "finished", 0.84, 0.06);
        writeRun(m_runs + "/tiny-s2", 2, 2, "finished", 0.86, 0.05);
        writeRun(m_runs + "/tiny-s3", 3, 2, "failed", 0, 0);
        writeRun(m_runs + "/other-s0", 0, 3, "finished", 0.90, 0.02);
    }

    void seedFreeConfigDropsOnlySeedsAndName()
    {
        lbd::TrainConfig a = test::tinyConfig();
        lbd::TrainConfig b = a;
        b.name = "other";
        b.train.seed = 7;
        b.data.longTail.seed = 7;
        b.data.synthetic.seed = 7;
        QCOMPARE(lbd::seedFreeConfig(lbd::toJson(a)), lbd::seedFreeConfig(lbd::toJson(b)));
        b.optimizer.learningRate = 0.01;
        QVERIFY(lbd::seedFreeConfig(lbd::toJson(a)) != lbd::seedFreeConfig(lbd::toJson(b)));
    }

    void repeatsAreOneGroupWithHandComputedMeanAndStd()
    {
        RunsPage page;
        page.resize(1200, 700);
        page.show();
        QSignalSpy refreshed(&page, &RunsPage::runsRefreshed);
        page.setRunsFolder(m_runs);
        QTRY_VERIFY_WITH_TIMEOUT(refreshed.count() >= 1 && page.runCount() == 5, 20000);
        page.setGroupedBySeed(true);
        RunGroupModel* model = page.groupView()->model();
        QTRY_COMPARE(model->rowCount(), 2);

        int repeats = -1;
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->groups()[size_t(row)].members.size() == 4) {
                repeats = row;
            }
        }
        QVERIFY(repeats >= 0);
        const auto cell = [&](int row, int column) { return model->index(row, column).data().toString(); };
        QCOMPARE(cell(repeats, RunGroupModel::Runs), QStringLiteral("3/4"));
        QCOMPARE(cell(repeats, RunGroupModel::Seeds), QStringLiteral("0, 1, 2, 3"));

        // By hand: accuracy 0.80, 0.84, 0.86 -> mean 0.833333, squared deviations sum 0.00186667,
        // / (n - 1) = 0.000933333, std 0.0305505. ECE 0.10, 0.06, 0.05 -> mean 0.07, std 0.0264575.
        const lbd::SampleSummary accuracy = model->sample(repeats, RunGroupModel::Accuracy);
        QCOMPARE(accuracy.n, 3);
        QVERIFY(std::abs(accuracy.mean - 0.8333333333) < 1e-9);
        QVERIFY(std::abs(accuracy.std - 0.0305505046) < 1e-9);
        QCOMPARE(cell(repeats, RunGroupModel::Accuracy), QStringLiteral("83.33 ± 3.06"));
        const lbd::SampleSummary ece = model->sample(repeats, RunGroupModel::Ece);
        QVERIFY(std::abs(ece.mean - 0.07) < 1e-9);
        QVERIFY(std::abs(ece.std - 0.0264575131) < 1e-9);
        QCOMPARE(cell(repeats, RunGroupModel::Ece), QStringLiteral("7.00 ± 2.65"));

        const int other = 1 - repeats;
        QCOMPARE(cell(other, RunGroupModel::Runs), QStringLiteral("1/1"));
        QCOMPARE(cell(other, RunGroupModel::Accuracy), QStringLiteral("90.00")); // one run: no ± shown

        // Double-click: back to the run list with the group's four runs selected.
        QTableView* table = page.groupView()->table();
        const QModelIndex index = table->model()->index(table->model()->rowCount() - 1, 0);
        const QString name = index.data().toString();
        const int expected = name == QStringLiteral("tiny-s0") ? 4 : 1;
        table->scrollTo(index);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
        QTRY_VERIFY(page.table()->isVisible());
        QCOMPARE(page.selectedRuns().size(), expected);
    }
};

QTEST_MAIN(TestRunGroups)
#include "test_rungroups.moc"
