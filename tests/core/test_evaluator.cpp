// The whole evaluation on a 3-image case worked out by hand, and its JSON round trip.
#include "core/eval/evaluator.h"
#include "core/eval/reportjson.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <QtTest>

using namespace lbd;

namespace {

// M = 2, N = 3, C = 3. Image 0 is vector A (label 2), image 1 is a confident class 1 (label 1),
// image 2 a confident class 0 (label 0).
torch::Tensor probabilities()
{
    return torch::tensor({// particle 1
                          0.50, 0.30, 0.20, 0.1, 0.8, 0.1, 0.9, 0.05, 0.05,
                          // particle 2
                          0.40, 0.25, 0.35, 0.1, 0.8, 0.1, 0.9, 0.05, 0.05},
                         torch::kFloat64)
        .view({2, 3, 3});
}

const torch::Tensor& labels()
{
    static const torch::Tensor y = torch::tensor({2, 1, 0}, torch::kInt64);
    return y;
}

// Counts scheme: many (> 100) is empty, medium {0, 1}, few {2}.
const std::vector<int64_t> kTrainCounts = {100, 50, 10};

bool near(double a, double b, double tolerance = 1e-9)
{
    return std::abs(a - b) <= tolerance;
}

} // namespace

class TestEvaluator : public QObject {
    Q_OBJECT

private slots:
    void argmaxReport()
    {
        const EvaluationReport r = evaluate(probabilities(), labels(), kTrainCounts,
                                            UtilityMatrix::tailSensitive(3, 1.0), DecisionRule::Argmax);
        QCOMPARE(r.rule, DecisionRule::Argmax);
        QCOMPARE(r.particleCount, int64_t{2});
        QCOMPARE(r.imageCount, int64_t{3});
        QCOMPARE(r.classCount, int64_t{3});
        // Decisions 0, 1, 0: image 0 is a false head.
        QCOMPARE(r.overall.correct, int64_t{2});
        const std::vector<std::vector<int64_t>> confusion = {{1, 0, 0}, {0, 1, 0}, {1, 0, 0}};
        QCOMPARE(r.confusion, confusion);
        QCOMPARE(r.regionsThirds.regions[2].counts.correct, int64_t{0});
        QCOMPARE(r.regionsThirds.regions[2].counts.total, int64_t{1});
        QCOMPARE(r.regionsCounts.regions[0].counts.total, int64_t{0}); // no class has > 100 images
        QCOMPARE(r.regionsCounts.regions[1].counts.total, int64_t{2});
        QCOMPARE(r.regionsCounts.regions[1].counts.correct, int64_t{2});
        QCOMPARE(r.fhrCurve.size(), size_t{2});
        QVERIFY(near(r.fhrCurve[0].rate, 0.5));
        QVERIFY(near(r.fhrCurve[1].rate, 1.0));
        // Confidences 0.45 (wrong), 0.8, 0.9 (right): bins 6, 11, 13.
        QCOMPARE(r.calibration.bins[6].count, int64_t{1});
        QCOMPARE(r.calibration.bins[11].count, int64_t{1});
        QCOMPARE(r.calibration.bins[13].count, int64_t{1});
        QVERIFY(near(r.calibration.ece, (0.45 + 0.2 + 0.1) / 3.0));
        QVERIFY(near(r.calibration.mce, 0.45));
        QCOMPARE(r.regionCalibration.size(), size_t{3});
        QCOMPARE(r.regionCalibration[2].calibration.count, int64_t{1});
        QVERIFY(near(*r.aurocConfidence, 1.0));
        QVERIFY(r.aurocNegativeEntropy.has_value());
        QVERIFY(near(r.nll, -(std::log(0.275) + std::log(0.8) + std::log(0.9)) / 3.0));
        QVERIFY(near(r.meanUtility, (-1.0 + 1.0 + 1.0) / 3.0));
    }

    void lbdRuleSendsUncertainImagesToTheTail()
    {
        const EvaluationReport r = evaluate(probabilities(), labels(), kTrainCounts,
                                            UtilityMatrix::tailSensitive(3, 1.0), DecisionRule::Eq7);
        QCOMPARE(r.rule, DecisionRule::Eq7);
        // Decisions 2, 1, 2: no false heads any more, but image 2 goes to the tail.
        QCOMPARE(r.perClass[2].correct, int64_t{1});
        QCOMPARE(r.perClass[0].correct, int64_t{0});
        QVERIFY(near(r.fhrCurve[0].rate, 0.0));
        QVERIFY(near(r.fhrCurve[1].rate, 0.0));
        QVERIFY(near(r.meanUtility, (1.0 + 1.0 + 0.0) / 3.0));
        // Confidence is pbar of the decision: right are images 0 (pbar[2] = 0.275) and 1 (0.8),
        // wrong image 2 (pbar[2] = 0.05).
        QVERIFY(near(*r.aurocConfidence, 1.0));
        QVERIFY(near(r.calibration.bins[4].meanConfidence, 0.275));
        QCOMPARE(r.calibration.bins[0].count, int64_t{1});
        // eq7 with a negative utility carries the rule's warning.
        QVERIFY(!r.warnings.empty());
        QVERIFY2(QString::fromStdString(r.warnings.front()).contains("eq7"), r.warnings.front().c_str());
    }

    // The expected rule with tail c = 0.5 and defer r = 0.3: image 0 (max EU 0.275, vector A) is
    // deferred; images 1 (EU(1) = 0.8 - 0.5 * 0.1 = 0.75) and 2 (EU(0) = 0.9 - 0.5 * 0.1 = 0.85)
    // are decided, both right.
    void deferReportCountsTheDecidedImages()
    {
        const auto u = UtilityMatrix::tailSensitive(3, 0.5);
        const EvaluationReport r = evaluate(probabilities(), labels(), kTrainCounts, u, DecisionRule::Expected, 0.3);
        QVERIFY(r.defer.has_value());
        QCOMPARE(r.defer->deferred, int64_t{1});
        QCOMPARE(r.defer->decided, int64_t{2});
        QVERIFY(near(r.defer->coverage, 2.0 / 3.0));
        QCOMPARE(r.defer->selective.correct, int64_t{2});
        QCOMPARE(r.defer->selectiveRegions.regions[2].counts.total, int64_t{0}); // the tail image was deferred
        // The full-coverage metrics are those of deciding every image: image 0 goes to class 2.
        QCOMPARE(r.overall.correct, int64_t{3});
        // Risk-coverage in the rule's order, max EU: 0.85 (image 2), 0.75 (image 1), 0.275 (image 0).
        QCOMPARE(r.riskCoverage.count, int64_t{3});
        QVERIFY(near(r.riskCoverage.aurc, 0.0));
        const nlohmann::json j = reportToJson(r);
        QVERIFY(near(j.at("defer").at("coverage").get<double>(), 2.0 / 3.0));
        QVERIFY(j.at("defer").at("selective_regions").at(2).at("accuracy").is_null()); // empty: null, not 0
        const EvaluationReport back = reportFromJson(j);
        QVERIFY(back.defer.has_value());
        QCOMPARE(reportToJson(back), j);
        QVERIFY_THROWS_EXCEPTION(InputError, evaluate(probabilities(), labels(), kTrainCounts, u, DecisionRule::Eq7, 0.3));
    }

    // A collapsed decision (everything into the last class) is flagged: tail region fine, head
    // and med at 0 %, decisions piled into one class.
    void degenerateDecisionsAreFlagged()
    {
        const auto probs = torch::tensor({0.05, 0.05, 0.9}, torch::kFloat64).view({1, 1, 3}).expand({1, 6, 3}).contiguous();
        const auto y = torch::tensor({0, 0, 1, 1, 2, 2}, torch::kInt64);
        const EvaluationReport r = evaluate(probs, y, kTrainCounts, UtilityMatrix::oneHot(3), DecisionRule::Expected);
        QString all;
        for (const auto& w : r.warnings) {
            all += QString::fromStdString(w) + "\n";
        }
        QVERIFY2(all.contains("no head test image is decided correctly"), qPrintable(all));
        QVERIFY2(all.contains("no med test image"), qPrintable(all));
        QVERIFY2(all.contains("near chance"), qPrintable(all));
        QVERIFY2(all.contains("of the decisions go to 1 class"), qPrintable(all));
        // A healthy evaluation has none (tail c = 0.5 decides all three images right).
        const EvaluationReport healthy = evaluate(probabilities(), labels(), kTrainCounts,
                                                  UtilityMatrix::tailSensitive(3, 0.5), DecisionRule::Expected);
        QVERIFY(healthy.warnings.empty());
    }

    // The two FHR averages are different numbers with different names.
    void fhrMeansAreNamedApart()
    {
        const EvaluationReport r = evaluate(probabilities(), labels(), kTrainCounts, UtilityMatrix::oneHot(3),
                                            DecisionRule::Argmax);
        QVERIFY(near(r.fhrCurveMean, (0.5 + 1.0) / 2.0));
        // C = 3: points at k = 1, 2, 2.
        QVERIFY(near(r.fhrPointsMean, (0.5 + 1.0 + 1.0) / 3.0));
        const nlohmann::json j = reportToJson(r);
        QVERIFY(near(j.at("fhr").at("curve_mean").get<double>(), r.fhrCurveMean));
        QVERIFY(near(j.at("fhr").at("points_mean").get<double>(), r.fhrPointsMean));
    }

    void jsonRoundTripHasNoNaN()
    {
        // Every decision right: AUROC undefined (null), empty regions and bins.
        const auto probs = torch::tensor({0.9, 0.05, 0.05, 0.1, 0.8, 0.1}, torch::kFloat32).view({1, 2, 3});
        const EvaluationReport r = evaluate(probs, torch::tensor({0, 1}, torch::kInt64), kTrainCounts,
                                            UtilityMatrix::oneHot(3), DecisionRule::Expected);
        QVERIFY(!r.aurocConfidence.has_value());
        const nlohmann::json j = reportToJson(r);
        const std::string text = j.dump();
        QVERIFY2(text.find("NaN") == std::string::npos && text.find("nan") == std::string::npos, text.c_str());
        QVERIFY(j.at("auroc").at("confidence").is_null());
        QCOMPARE(j.at("rule").get<std::string>(), std::string("expected"));

        const EvaluationReport back = reportFromJson(nlohmann::json::parse(text));
        QCOMPARE(reportToJson(back), j);
        QCOMPARE(back.rule, DecisionRule::Expected);
        QCOMPARE(back.confusion, r.confusion);
        QCOMPARE(back.regionsCounts.regions[2].name, std::string("few"));
        QCOMPARE(back.regionsCounts.regions[2].region, Region::Tail);

        const EvaluationReport full = evaluate(probabilities(), labels(), kTrainCounts,
                                               UtilityMatrix::tailSensitive(3, 0.5), DecisionRule::Eq7);
        const nlohmann::json fullJson = full; // through to_json
        QCOMPARE(reportToJson(fullJson.get<EvaluationReport>()), fullJson);
        QVERIFY(near(fullJson.at("fhr").at("points").at(0).at("ratio").get<double>(), 0.25));
    }

    void malformedJsonNamesTheKey()
    {
        nlohmann::json j = reportToJson(evaluate(probabilities(), labels(), kTrainCounts, UtilityMatrix::oneHot(3),
                                                 DecisionRule::Argmax));
        j.erase("mean_utility");
        try {
            reportFromJson(j, "eval.json");
            QFAIL("expected InputError");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).contains("eval.json"), error.what());
            QVERIFY2(QString(error.what()).contains("mean_utility"), error.what());
        }
    }

    void inconsistentInputsThrow()
    {
        const auto u = UtilityMatrix::oneHot(3);
        QVERIFY_THROWS_EXCEPTION(InputError, evaluate(probabilities(), torch::tensor({0, 1}, torch::kInt64), kTrainCounts,
                                                      u, DecisionRule::Argmax));
        QVERIFY_THROWS_EXCEPTION(InputError, evaluate(probabilities(), torch::tensor({0, 1, 3}, torch::kInt64),
                                                      kTrainCounts, u, DecisionRule::Argmax));
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 evaluate(probabilities(), labels(), {10, 5}, u, DecisionRule::Argmax));
        QVERIFY_THROWS_EXCEPTION(InputError, evaluate(probabilities(), labels(), kTrainCounts, UtilityMatrix::oneHot(2),
                                                      DecisionRule::Argmax));
        auto withNaN = probabilities().clone();
        withNaN[0][0][0] = std::nan("");
        QVERIFY_THROWS_EXCEPTION(InputError, evaluate(withNaN, labels(), kTrainCounts, u, DecisionRule::Argmax));
    }
};

QTEST_APPLESS_MAIN(TestEvaluator)
#include "test_evaluator.moc"
