// The Studies page shows a decision-only cell (core/study/decisioncell.h, issue 29 item 2) through
// the same summary as table.md: a tiny study of a CE cell and its post-hoc logit adjustment
// (prior:1, nothing trained) run from the page ends with every run finished, the post-hoc row
// marked † with n = 2/2, a tooltip naming its source and decision, the accuracy cell equal to
// core's Markdown table, and no train time; the setup panel's estimate counts only the trained runs,
// and a decision-only run opens as the run it re-decides.
#include "tests/ui/uitestsupport.h"

#include "core/study/studysummary.h"
#include "core/train/configjson.h"
#include "tests/support/tinyconfig.h"
#include "ui/pages/studiespage.h"
#include "ui/study/studyrunmodel.h"
#include "ui/study/studysetuppanel.h"
#include "ui/study/studysummarymodel.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>

using namespace lbd::ui;

namespace {

QByteArray postHocStudy()
{
    lbd::TrainConfig config = lbd::test::tinyConfig();
    config.train.threads = 1;
    config.train.epochs = 2;
    const QJsonObject configJson = QJsonDocument::fromJson(QByteArray::fromStdString(lbd::toJson(config).dump())).object();
    const QJsonArray levels = QJsonDocument::fromJson(R"([
        {"label": "CE", "baseline": "ce"},
        {"label": "CE + post-hoc", "decide_from": "CE", "decision": {"utility": "prior:1"}}])").array();
    const QJsonObject study{{QStringLiteral("name"), QStringLiteral("posthoc")},
                            {QStringLiteral("title"), QStringLiteral("Post-hoc")},
                            {QStringLiteral("claim"), QStringLiteral("none")},
                            {QStringLiteral("config"), configJson},
                            {QStringLiteral("seeds"), QJsonArray{0, 1}},
                            {QStringLiteral("factors"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("method")},
                                                                               {QStringLiteral("levels"), levels}}}}};
    return QJsonDocument(study).toJson();
}

} // namespace

class TestStudyDecisionOnly final : public QObject {
    Q_OBJECT

    QTemporaryDir m_temp;

private slots:
    void initTestCase()
    {
        QVERIFY(m_temp.isValid());
        test::isolateSettings(m_temp);
    }

    void postHocRowAppearsMarked()
    {
        const QString file = m_temp.filePath(QStringLiteral("posthoc.json"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(postHocStudy());
        out.close();
        StudiesPage page;
        QString error;
        QVERIFY2(page.setupPanel()->addStudyFile(file, &error), qPrintable(error));
        page.setupPanel()->setFolderOverride(m_temp.filePath(QStringLiteral("studies/posthoc")));
        page.resize(1400, 900);
        page.show();
        // The estimate counts the runs that train: the CE cell's two, not the post-hoc row's.
        const auto* estimate = page.setupPanel()->findChild<QLabel*>(QStringLiteral("studyEstimate"));
        QVERIFY(estimate);
        QVERIFY2(estimate->text().contains(QStringLiteral("for 2 runs")), qPrintable(estimate->text()));
        QSignalSpy done(&page, &StudiesPage::studyFinished);
        QVERIFY2(page.startStudy(), qPrintable(page.lastMessage()));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 600000);
        QCOMPARE(page.runModel()->rowCount(), 4);
        QCOMPARE(page.runModel()->count(lbd::StudyRunState::Finished), 4);
        // A decision-only run holds only its report: double-clicking it opens the run it re-decides.
        QVERIFY(page.runModel()->runDirectory(2).endsWith(QStringLiteral("runs/ce/seed-0")));
        QVERIFY(page.runModel()->runDirectory(3).endsWith(QStringLiteral("runs/ce/seed-1")));
        QVERIFY(page.runModel()->index(2, StudyRunModel::Message).data().toString().startsWith(
            QStringLiteral("re-decided from runs/ce/seed-0, utility prior:1, rule expected")));

        StudySummaryModel* table = page.summaryModel();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->index(0, StudySummaryModel::Cell).data().toString(), QStringLiteral("CE"));
        QCOMPARE(table->index(1, StudySummaryModel::Cell).data().toString(), QStringLiteral("CE + post-hoc †"));
        QCOMPARE(table->index(1, StudySummaryModel::Runs).data().toString(), QStringLiteral("2/2"));
        const QString tip = table->index(1, StudySummaryModel::Cell).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("Decision only")) && tip.contains(QStringLiteral("re-decided with prior:1, rule expected")),
                 qPrintable(tip));
        const lbd::StudySummary& summary = table->summary();
        for (int column = StudySummaryModel::FirstMetric; column < table->columnCount(); ++column) {
            const std::string key = table->metricKey(column);
            const QString shown = table->index(1, column).data().toString();
            QCOMPARE(shown.toStdString(), lbd::formatMeanStd(summary.cells[1].metrics.at(key), lbd::studyMetric(key)));
            if (key == "accuracy") {
                QVERIFY2(shown.contains(QStringLiteral("±")), qPrintable(shown));
            }
            if (key == "train_seconds") {
                QCOMPARE(shown, QStringLiteral("–"));
            }
        }
        QVERIFY(lbd::markdownTable(summary).find("| CE + post-hoc † | 2/2 |") != std::string::npos);
        test::keepScreenshot(&page, QStringLiteral("studies-decision-only"));
    }
};

QTEST_MAIN(TestStudyDecisionOnly)
#include "test_studydecisiononly.moc"
