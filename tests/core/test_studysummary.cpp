// A study's aggregation against hand-computed values: a fixed set of report.json files in run
// folders (finished, failed, stopped, missing), the mean, sample std and Student-t interval per
// cell, the FHR curve band, and the Markdown / CSV / LaTeX tables written to results/.
#include "core/study/decisioncell.h"
#include "core/study/studyfolder.h"
#include "core/study/studysummary.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace lbd;
using json = nlohmann::json;

namespace {

json studyJson()
{
    return json::parse(R"({
      "name": "pair", "title": "Two methods", "paper_table": "Table 1", "claim": "B beats A.",
      "config": {"data": {"dataset": "synthetic"}, "model": {"arch": "smallcnn"}},
      "seeds": [0, 1, 2],
      "factors": [{"name": "method", "levels": [{"label": "A"}, {"label": "B | b"}]}],
      "metrics": ["accuracy", "tail", "fhr_25", "ece"]
    })");
}

// What report.json holds for these metrics (the rest of a real report is not read).
json report(double accuracy, double tail, double fhr25, double ece, std::vector<double> curve)
{
    json curvePoints = json::array();
    double mean = 0;
    for (size_t k = 0; k < curve.size(); ++k) {
        curvePoints.push_back({{"head_classes", int(k + 1)}, {"rate", curve[k]}});
        mean += curve[k] / double(curve.size());
    }
    return {{"train_seconds", 10.0},
            {"evaluation",
             {{"accuracy", {{"accuracy", accuracy}}},
              {"regions", {{"thirds", json::array({{{"region", "head"}, {"accuracy", 0.99}},
                                                   {{"region", "med"}, {"accuracy", 0.9}},
                                                   {{"region", "tail"}, {"accuracy", tail}}})}}},
              {"fhr", {{"points", json::array({{{"ratio", 0.25}, {"rate", fhr25}}})}, {"curve", curvePoints}, {"curve_mean", mean}}},
              {"calibration", {{"ece", ece}}},
              {"auroc", {{"confidence", 0.8}}},
              {"nll", 0.5},
              {"risk_coverage", {{"all", {{"aurc", 0.05}}}}}}}};
}

void writeText(const QString& path, const std::string& text)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text.data(), qint64(text.size()));
}

void writeRun(const QString& run, const std::string& state, const json& reportJson = json())
{
    writeText(run + "/status.json", json{{"state", state}, {"epochs_done", 5}, {"epochs", 5}, {"message", state == "failed" ? "the loss became nan at epoch 3" : ""}}.dump());
    if (!reportJson.is_null()) {
        writeText(run + "/report.json", reportJson.dump());
        writeText(run + "/test_probabilities.pt", "x");
        writeText(run + "/weights.pt", "x");
    }
}

} // namespace

class TestStudySummary : public QObject {
    Q_OBJECT

    QTemporaryDir m_temp;
    ResolvedStudy m_study;
    StudySummary m_summary;

private slots:
    void initTestCase()
    {
        QVERIFY(m_temp.isValid());
        m_study = resolveStudy(studySpecFromJson(studyJson()), {});
        const QString root = m_temp.path();
        prepareStudyFolder(m_study, root.toStdString());
        // A: three finished seeds. B: two finished, one failed.
        writeRun(root + "/runs/a/seed-0", "finished", report(0.90, 0.80, 0.10, 0.05, {0.1, 0.2}));
        writeRun(root + "/runs/a/seed-1", "finished", report(0.92, 0.84, 0.12, 0.04, {0.2, 0.4}));
        writeRun(root + "/runs/a/seed-2", "finished", report(0.94, 0.82, 0.14, 0.03, {0.3, 0.6}));
        writeRun(root + "/runs/b-b/seed-0", "finished", report(0.95, 0.90, 0.05, 0.02, {0.1, 0.1}));
        writeRun(root + "/runs/b-b/seed-1", "finished", report(0.96, 0.91, 0.06, 0.02, {0.1, 0.1}));
        writeRun(root + "/runs/b-b/seed-2", "failed");
        m_summary = summarizeStudy(m_study, root.toStdString());
    }

    void studentQuantiles()
    {
        QCOMPARE(studentT975(1), 12.706);
        QCOMPARE(studentT975(2), 4.303);
        QCOMPARE(studentT975(30), 2.042);
        QCOMPARE(studentT975(200), 1.96);
        QVERIFY(std::isnan(studentT975(0)));
    }

    void meanStdAndIntervalByHand()
    {
        const SampleSummary a = m_summary.cells[0].metrics.at("accuracy");
        QCOMPARE(a.n, 3);
        QVERIFY(std::abs(a.mean - 0.92) < 1e-12);
        QVERIFY(std::abs(a.std - 0.02) < 1e-12);                       // sqrt((0.02^2 + 0 + 0.02^2) / 2)
        const double half = 4.303 * 0.02 / std::sqrt(3.0);              // 0.0496867...
        QVERIFY(std::abs(a.low - (0.92 - half)) < 1e-12);
        QVERIFY(std::abs(a.high - (0.92 + half)) < 1e-12);
        const SampleSummary b = m_summary.cells[1].metrics.at("tail");
        QCOMPARE(b.n, 2);
        QVERIFY(std::abs(b.mean - 0.905) < 1e-12);
        QVERIFY(std::abs(b.std - std::sqrt(0.00005)) < 1e-12);         // (0.005^2 * 2) / 1
        QVERIFY(std::abs(b.high - (0.905 + 12.706 * std::sqrt(0.00005) / std::sqrt(2.0))) < 1e-12);
        const SampleSummary one = summarizeSample({0.5});
        QCOMPARE(one.mean, 0.5);
        QVERIFY(std::isnan(one.std) && std::isnan(one.low)); // unknown, never 0
        QCOMPARE(summarizeSample({}).n, 0);
    }

    void failedRunsAreCountedAndNamed()
    {
        QCOMPARE(m_summary.cells[0].finished, 3);
        QCOMPARE(m_summary.cells[1].finished, 2);
        QCOMPARE(m_summary.cells[1].runs, 3);
        QCOMPARE(m_summary.cells[1].problems.size(), size_t(1));
        QVERIFY(QString::fromStdString(m_summary.cells[1].problems[0]).contains("seed 2: failed: the loss became nan"));
    }

    void fhrCurveBandPerHeadSize()
    {
        const auto& curve = m_summary.cells[0].fhrCurve;
        QCOMPARE(curve.size(), size_t(2));
        QCOMPARE(curve[1].headClasses, 2);
        QVERIFY(std::abs(curve[1].rate.mean - 0.4) < 1e-12);
        QVERIFY(std::abs(curve[1].rate.std - 0.2) < 1e-12);
    }

    void runStatesFromTheFolder()
    {
        const QString root = m_temp.path();
        QCOMPARE(inspectStudyRun((root + "/runs/a/seed-0").toStdString()).state, StudyRunState::Finished);
        QCOMPARE(inspectStudyRun((root + "/runs/b-b/seed-2").toStdString()).state, StudyRunState::Failed);
        QCOMPARE(inspectStudyRun((root + "/runs/none").toStdString()).state, StudyRunState::Pending);
        // "running" with no process holding the lock: interrupted, to be resumed.
        writeRun(root + "/elsewhere/interrupted", "running");
        QCOMPARE(inspectStudyRun((root + "/elsewhere/interrupted").toStdString()).state, StudyRunState::Stopped);
        // "finished" without its report (the last file a run writes): resumed to complete.
        writeRun(root + "/elsewhere/incomplete", "finished", report(0.5, 0.5, 0.5, 0.5, {}));
        QVERIFY(QFile::remove(root + "/elsewhere/incomplete/report.json"));
        QCOMPARE(inspectStudyRun((root + "/elsewhere/incomplete").toStdString()).state, StudyRunState::Stopped);
        // Its report but not its model files (copied back from a GPU machine without them):
        // finished, its numbers count, and the status says what is missing.
        writeRun(root + "/elsewhere/reportonly", "finished", report(0.5, 0.5, 0.5, 0.5, {}));
        QVERIFY(QFile::remove(root + "/elsewhere/reportonly/weights.pt"));
        const StudyRunStatus reportOnly = inspectStudyRun((root + "/elsewhere/reportonly").toStdString());
        QCOMPARE(reportOnly.state, StudyRunState::Finished);
        QVERIFY(reportOnly.modelFilesMissing);
        QVERIFY(!inspectStudyRun((root + "/runs/a/seed-0").toStdString()).modelFilesMissing);
    }

    void tablesInThreeFormats()
    {
        const std::string markdown = markdownTable(m_summary);
        QVERIFY2(markdown.find("| A | 3/3 | 92.00 ± 2.00 | 82.00 ± 2.00 | 12.00 ± 2.00 | 4.00 ± 1.00 |") != std::string::npos,
                 markdown.c_str());
        QVERIFY2(markdown.find("| B \\| b | 2/3 | 95.50 ± 0.71 |") != std::string::npos, markdown.c_str());
        QVERIFY(markdown.find("Accuracy (%) ↑") != std::string::npos);
        QVERIFY(markdown.find("ECE (%) ↓") != std::string::npos);
        QVERIFY(markdown.find("seed 2: failed") != std::string::npos);
        const std::string csv = csvTable(m_summary);
        QVERIFY2(csv.rfind("cell,label,method,runs,finished,accuracy_mean,accuracy_std,accuracy_ci95_low,accuracy_ci95_high,accuracy_n,", 0) == 0,
                 csv.c_str());
        QVERIFY2(csv.find("\na,A,A,3,3,0.920000,0.020000,0.870313,0.969687,3,") != std::string::npos, csv.c_str());
        const std::string latex = latexTable(m_summary);
        QVERIFY(latex.find("\\toprule") != std::string::npos && latex.find("\\bottomrule") != std::string::npos);
        QVERIFY2(latex.find("A & $92.00 \\pm 2.00$ & $82.00 \\pm 2.00$") != std::string::npos, latex.c_str());
        QVERIFY(latex.find("Accuracy (\\%) $\\uparrow$") != std::string::npos);
    }

    void resultsWrittenNextToTheRuns()
    {
        writeStudyResults(m_summary, m_temp.path().toStdString());
        for (const char* file : {"summary.json", "table.md", "table.csv", "table.tex"}) {
            QVERIFY2(QFileInfo(m_temp.filePath(QStringLiteral("results/") + file)).size() > 0, file);
        }
        QFile summary(m_temp.filePath("results/summary.json"));
        QVERIFY(summary.open(QIODevice::ReadOnly));
        const json parsed = json::parse(summary.readAll().toStdString());
        QCOMPARE(parsed["cells"][0]["metrics"]["accuracy"]["n"].get<int>(), 3);
        QVERIFY(std::abs(parsed["cells"][0]["metrics"]["accuracy"]["ci95_low"].get<double>() - 0.8703133) < 1e-6);
        QCOMPARE(parsed["claim"].get<std::string>(), std::string("B beats A."));
    }

    // A decision-only cell (decisioncell.h) is a row like any other, read from its runs'
    // report.json, marked † in the Markdown and LaTeX tables, with a note naming its source cell
    // and each seed's utility, and without a train time (its reports have none).
    void decisionOnlyCellIsAMarkedRow()
    {
        json spec = studyJson();
        spec["factors"][0]["levels"].push_back(
            json::parse(R"({"label": "A + post-hoc", "decide_from": "A", "decision": {"utility": "prior:1"}})"));
        const ResolvedStudy study = resolveStudy(studySpecFromJson(spec), {});
        const QString root = m_temp.filePath("decision");
        for (const StudyRunRef& run : study.runs) {
            json file = report(0.8 + 0.01 * double(run.seed), 0.6, 0.2, 0.05, {0.3});
            if (study.cells[run.cell].decisionOnly()) {
                file.erase("train_seconds");
                file["utility"] = "prior:1";
            }
            if (run.seed != 2 || !study.cells[run.cell].decisionOnly()) {
                writeRun(root + "/" + QString::fromStdString(run.directory), "finished", file);
            }
        }
        const StudySummary summary = summarizeStudy(study, root.toStdString());
        const CellSummary& post = summary.cells.at(2);
        QCOMPARE(post.decidedFrom, std::string("A"));
        QCOMPARE(post.decision, std::string("prior:1, rule expected"));
        QCOMPARE(post.finished, 2);
        QCOMPARE(post.metrics.at("accuracy").n, 2);
        QCOMPARE(post.metrics.at("train_seconds").n, 0);
        QVERIFY(summary.cells.at(0).decidedFrom.empty());
        const std::string markdown = markdownTable(summary);
        QVERIFY2(markdown.find("| A + post-hoc † | 2/3 |") != std::string::npos, markdown.c_str());
        QVERIFY2(markdown.find("| A | 3/3 |") != std::string::npos, markdown.c_str());
        QVERIFY2(markdown.find("† A + post-hoc: decision only (nothing trained, no train time): the finished runs of A "
                               "re-decided with prior:1, rule expected (seed 0: prior:1; seed 1: prior:1).")
                     != std::string::npos,
                 markdown.c_str());
        QVERIFY2(markdown.find("Every trained cell: protocol app") != std::string::npos, markdown.c_str());
        QVERIFY(latexTable(summary).find("A + post-hoc$^\\dagger$") != std::string::npos);
        const json out = toJson(summary);
        QCOMPARE(out["cells"][2]["decision_only"]["decided_from"].get<std::string>(), std::string("A"));
        QVERIFY(!out["cells"][0].contains("decision_only"));
    }
};

QTEST_APPLESS_MAIN(TestStudySummary)
#include "test_studysummary.moc"
