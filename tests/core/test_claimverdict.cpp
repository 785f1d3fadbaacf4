// The verdict per claim of a study (core/study/claimverdict.h, core/study/studyclaims.h) against
// hand computations: the paired differences, their mean, sample sd and 95 % Student-t interval,
// the verdict's rule; a claim's keys refused by name; and a verdict row recomputed from committed
// run reports (docs/results/paper-studies/runs-2026-11-28-*.tar.xz: LBD vs CE, tail accuracy, the
// paper-standard runs trained on H200s), its per-seed tail accuracies typed in below.
#include "core/study/claimverdict.h"
#include "core/study/studyfolder.h"
#include "core/study/studysummary.h"
#include "tests/support/claimsfixture.h"
#include "tests/support/expect.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace lbd;
using json = nlohmann::json;

namespace {

StudyClaim claim(const std::string& metric, bool higher, double margin = 0)
{
    StudyClaim c;
    c.text = "B beats A";
    c.cell = "B";
    c.against = "A";
    c.metric = metric;
    c.higher = higher;
    c.margin = margin;
    return c;
}

json studyWithClaims(const json& claims)
{
    json study = json::parse(R"({
      "name": "pair", "config": {"data": {"dataset": "synthetic"}, "model": {"arch": "smallcnn"}},
      "seeds": [0, 1, 2],
      "factors": [{"name": "method", "levels": [{"label": "A"}, {"label": "B"}]},
                  {"name": "M", "key": "model.particles", "values": [1, 3]}]
    })");
    study["claims"] = claims;
    return study;
}

const ClaimVerdict* findVerdict(const std::vector<ClaimVerdict>& verdicts, const std::string& against, const std::string& metric)
{
    for (const ClaimVerdict& v : verdicts) {
        if (v.claim.cell == "LBD" && v.claim.against == against && v.claim.metric == metric) {
            return &v;
        }
    }
    return nullptr;
}

} // namespace

class TestClaimVerdict : public QObject {
    Q_OBJECT

private slots:
    void theTQuantilesAreTheTablesValues()
    {
        // Two-sided 95 % quantiles of Student's t, from a printed table (df 1, 2, 4, 9, 29, 30).
        QCOMPARE(studentT975(1), 12.706);
        QCOMPARE(studentT975(2), 4.303);
        QCOMPARE(studentT975(4), 2.776);
        QCOMPARE(studentT975(9), 2.262);
        QCOMPARE(studentT975(29), 2.045);
        QCOMPARE(studentT975(30), 2.042);
    }

    void pairsBySeedAndComputesTheIntervalByHand()
    {
        // Seed 5 is in one cell only and seed 7's value is not finite: both left out. d = 0.05,
        // 0.04, 0.07: mean 0.0533333, sd 0.0152753, half-width 4.303 sd / sqrt(3) = 0.0379489.
        const std::map<int64_t, double> b{{0, 0.90}, {1, 0.92}, {2, 0.91}, {5, 0.5}, {7, std::nan("")}};
        const std::map<int64_t, double> a{{0, 0.85}, {1, 0.88}, {2, 0.84}, {7, 0.3}};
        const ClaimVerdict v = pairedClaimVerdict(claim("accuracy", true), b, a);
        QCOMPARE(v.seeds, (std::vector<int64_t>{0, 1, 2}));
        QCOMPARE(v.n, 3);
        QVERIFY(std::abs(v.mean - 0.0533333333) < 1e-9);
        QVERIFY(std::abs(v.sd - 0.0152752523) < 1e-9);
        QVERIFY(std::abs(v.low - 0.0153844404) < 1e-9);
        QVERIFY(std::abs(v.high - 0.0912822263) < 1e-9);
        QCOMPARE(v.outcome, ClaimOutcome::Holds);
        QCOMPARE(formatPairedEffect(v), std::string("+5.33 points [+1.54, +9.13]"));
        // The same numbers against a claim of "lower": the interval lies wholly on the other side.
        QCOMPARE(pairedClaimVerdict(claim("accuracy", false), b, a).outcome, ClaimOutcome::Opposite);
    }

    void theVerdictFollowsTheIntervalAndTheMargin()
    {
        // d = +0.01, -0.01, +0.03: mean 0.01, the interval straddles 0.
        const std::map<int64_t, double> b{{0, 0.51}, {1, 0.49}, {2, 0.53}};
        const std::map<int64_t, double> a{{0, 0.50}, {1, 0.50}, {2, 0.50}};
        QCOMPARE(pairedClaimVerdict(claim("accuracy", true), b, a).outcome, ClaimOutcome::NotDetected);
        QCOMPARE(pairedClaimVerdict(claim("accuracy", false), b, a).outcome, ClaimOutcome::NotDetected);
        // sd 0.02, half-width 4.303 * 0.02 / sqrt(3) = 0.0496867: [-0.0397, +0.0597]. A margin of 4
        // points (0.04) puts the boundary at -0.04, below the interval: "not lower by more than 4
        // points" holds; a margin of 3.9 points does not decide it.
        QCOMPARE(pairedClaimVerdict(claim("accuracy", true, 4.0), b, a).outcome, ClaimOutcome::Holds);
        QCOMPARE(pairedClaimVerdict(claim("accuracy", true, 3.9), b, a).outcome, ClaimOutcome::NotDetected);
        // A lower-is-better claim with a margin: "not higher by more than 6 points" holds.
        QCOMPARE(pairedClaimVerdict(claim("ece", false, 6.0), b, a).outcome, ClaimOutcome::Holds);
        // One pair: no interval, no verdict.
        const ClaimVerdict one = pairedClaimVerdict(claim("accuracy", true), {{0, 0.9}}, {{0, 0.8}, {1, 0.7}});
        QCOMPARE(one.n, 1);
        QCOMPARE(one.outcome, ClaimOutcome::NotEnoughSeeds);
        QVERIFY(std::isnan(one.low));
        QCOMPARE(formatPairedEffect(one), std::string("+10.00 points"));
        QCOMPARE(pairedClaimVerdict(claim("accuracy", true), {}, {}).outcome, ClaimOutcome::NotEnoughSeeds);
        QCOMPARE(claimOutcomeName(ClaimOutcome::NotDetected), std::string("not detected"));
    }

    void aStudysClaimsAreReadCheckedAndWrittenBack()
    {
        const json claims = json::parse(R"J([
          {"text": "B beats A with 3 particles", "cell": "B, M=3", "against": "A, M=3", "metric": "tail", "better": "higher",
           "paper": "CIFAR-10-LT, 5 seeds: +1 point (Table 2)"},
          {"text": "no cost", "cell": "B, M=1", "against": "A, M=1", "metric": "accuracy", "better": "higher", "margin": 0.5}
        ])J");
        const StudySpec spec = studySpecFromJson(studyWithClaims(claims));
        QCOMPARE(spec.claims.size(), size_t(2));
        QCOMPARE(spec.claims[0].cell, std::string("B, M=3"));
        QCOMPARE(spec.claims[1].margin, 0.5);
        QVERIFY(spec.claims[0].higher);
        QVERIFY(studySpecFromJson(toJson(spec)).claims == spec.claims); // study.json of a study folder keeps them
        const auto refused = [&](json bad, std::initializer_list<std::string> words) {
            json list = claims;
            list[1] = bad;
            return test::throwsInputError([&] { studySpecFromJson(studyWithClaims(list)); }, words);
        };
        json good = claims[1];
        json bad = good;
        bad["agianst"] = "A, M=1";
        QVERIFY(refused(bad, {"study.claims[1].agianst", "not a key"}));
        bad = good;
        bad.erase("against");
        QVERIFY(refused(bad, {"study.claims[1].against", "missing"}));
        bad = good;
        bad["cell"] = "C, M=1";
        QVERIFY(refused(bad, {"study.claims[1].cell", "'C, M=1'", "'A, M=1'"}));
        bad = good;
        bad["metric"] = "speed";
        QVERIFY(refused(bad, {"study.claims[1].metric", "speed"}));
        bad = good;
        bad["better"] = "more";
        QVERIFY(refused(bad, {"study.claims[1].better", "higher"}));
        bad = good;
        bad["margin"] = -1;
        QVERIFY(refused(bad, {"study.claims[1].margin"}));
        bad = good;
        bad["against"] = "B, M=1";
        QVERIFY(refused(bad, {"study.claims[1].against", "two different cells"}));
        QVERIFY(test::throwsInputError([&] { studySpecFromJson(studyWithClaims(json::object())); }, {"study.claims", "list"}));
    }

    void everyBuiltInStudyStatesItsClaims()
    {
        for (const StudyInfo& info : listBuiltInStudies()) {
            const StudySpec spec = findStudySpec(info.name);
            QVERIFY2(!spec.claims.empty(), info.name.c_str());
            const ResolvedStudy study = resolveStudy(spec, StudyOptions{});
            for (const StudyClaim& c : spec.claims) {
                QVERIFY2(!c.paper.empty(), (info.name + ": " + c.text).c_str()); // the paper's figure, or "not in the paper"
            }
            QCOMPARE(studyClaimVerdicts(study, "/nonexistent").size(), spec.claims.size());
        }
    }

    void aVerdictRowFromCommittedRunReports()
    {
        QTemporaryDir temp;
        const QString folder = temp.filePath(QStringLiteral("methods"));
        const QString error = test::makeMethodsClaimsStudy(folder, QStringLiteral(LBD_SOURCE_DIR));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const ResolvedStudy study = openStudyFolder(folder.toStdString());
        const StudySummary summary = summarizeStudy(study, folder.toStdString());

        // Tail accuracy (4,000 tail test images), read from each report.json by hand:
        //   LBD 3592, 3536, 3582 correct; CE 3225, 3192, 3247; CE + post-hoc 3548, 3530, 3548.
        // LBD - CE: 367, 344, 335 -> 0.09175, 0.086, 0.08375; mean 0.0871667, sd 0.00412563,
        // 95 % interval 0.0871667 -+ 4.303 * 0.00412563 / sqrt(3) = [0.0769172, 0.0974161]: holds.
        const ClaimVerdict* ce = findVerdict(summary.verdicts, "CE", "tail");
        QVERIFY(ce);
        QCOMPARE(ce->seeds, (std::vector<int64_t>{0, 1, 2}));
        const std::vector<double> expected{0.09175, 0.086, 0.08375};
        for (size_t i = 0; i < expected.size(); ++i) {
            QVERIFY(std::abs(ce->differences[i] - expected[i]) < 1e-12);
        }
        QVERIFY(std::abs(ce->mean - 0.0871666667) < 1e-9);
        QVERIFY(std::abs(ce->sd - 0.0041256313) < 1e-9);
        QVERIFY(std::abs(ce->low - 0.0769172033) < 1e-9);
        QVERIFY(std::abs(ce->high - 0.0974161301) < 1e-9);
        QCOMPARE(ce->outcome, ClaimOutcome::Holds);
        QCOMPARE(formatPairedEffect(*ce), std::string("+8.72 points [+7.69, +9.74]"));

        // LBD - (CE + post-hoc logit adjustment), a decision-only cell paired by seed like any:
        // 44, 6, 34 -> mean 0.007, sd 0.00492443, [-0.0052339, +0.0192339]: not detected.
        const ClaimVerdict* postHoc = findVerdict(summary.verdicts, "CE + post-hoc logit adjustment", "tail");
        QVERIFY(postHoc);
        QVERIFY(std::abs(postHoc->mean - 0.007) < 1e-12);
        QVERIFY(std::abs(postHoc->low + 0.0052339469) < 1e-9);
        QVERIFY(std::abs(postHoc->high - 0.0192339469) < 1e-9);
        QCOMPARE(postHoc->outcome, ClaimOutcome::NotDetected);

        // A cell with no run: no pairs.
        const ClaimVerdict* cb = findVerdict(summary.verdicts, "CB loss", "tail");
        QVERIFY(cb);
        QCOMPARE(cb->n, 0);
        QCOMPARE(cb->outcome, ClaimOutcome::NotEnoughSeeds);
        QCOMPARE(formatPairedEffect(*cb), std::string("–"));

        // The same rows in summary.json and under table.md's table.
        writeStudyResults(summary, folder.toStdString());
        QFile summaryFile(folder + QStringLiteral("/results/summary.json"));
        QVERIFY(summaryFile.open(QIODevice::ReadOnly));
        const json written = json::parse(summaryFile.readAll().toStdString());
        QCOMPARE(written["verdicts"].size(), study.spec.claims.size());
        QCOMPARE(written["verdicts"][0]["verdict"].get<std::string>(), std::string("holds"));
        QCOMPARE(written["verdicts"][0]["paired"]["n"].get<int>(), 3);
        QFile table(folder + QStringLiteral("/results/table.md"));
        QVERIFY(table.open(QIODevice::ReadOnly));
        const QString markdown = QString::fromUtf8(table.readAll());
        QVERIFY(markdown.contains(QStringLiteral(
            "| LBD is more accurate than CE on the tail classes | LBD vs CE, Tail acc. (higher) | +8.72 points [+7.69, +9.74] | 3 | **holds** |")));
        QVERIFY(markdown.contains(QStringLiteral("+0.70 points [-0.52, +1.92] | 3 | **not detected** |")));
    }
};

QTEST_APPLESS_MAIN(TestClaimVerdict)
#include "test_claimverdict.moc"
