// Counting metrics: vectors B and C of lbd-math.md section 7, regions on an unbalanced test set,
// confusion matrix, AUROC ties.
#include "core/eval/auroc.h"
#include "core/eval/calibration.h"
#include "core/eval/falseheadrate.h"
#include "core/eval/metrics.h"
#include "core/eval/riskcoverage.h"
#include "core/util/error.h"

#include <QtTest>

using namespace lbd;

namespace {

// Vector B.
const std::vector<int64_t> kLabelsB = {0, 0, 1, 1, 2, 2, 2, 1, 0, 2};
const std::vector<int64_t> kPredictionsB = {0, 1, 0, 1, 0, 2, 1, 1, 0, 2};

// Vector C.
const std::vector<double> kConfidenceC = {0.95, 0.79, 0.62, 0.55, 0.99, 0.70};
const std::vector<bool> kCorrectC = {true, false, true, false, true, true};

bool near(double a, double b, double tolerance = 1e-12)
{
    return std::abs(a - b) <= tolerance;
}

} // namespace

class TestMetrics : public QObject {
    Q_OBJECT

private slots:
    void falseHeadRateVectorB()
    {
        const auto curve = falseHeadRateCurve(kLabelsB, kPredictionsB, 3);
        QCOMPARE(curve.size(), size_t{2});
        QCOMPARE(curve[0].headClasses, int64_t{1});
        QCOMPARE(curve[0].falseHeads, int64_t{2});
        QCOMPARE(curve[0].tailImages, int64_t{7});
        QVERIFY(near(curve[0].rate, 2.0 / 7.0));
        QCOMPARE(curve[1].headClasses, int64_t{2});
        QCOMPARE(curve[1].falseHeads, int64_t{2});
        QCOMPARE(curve[1].tailImages, int64_t{4});
        QVERIFY(near(curve[1].rate, 0.5));
    }

    void falseHeadRatePointsUseCodeConvention()
    {
        // int(C r + 0.5): C = 3 -> 1, 2, 2; C = 10 -> 3, 5, 8; C = 100 -> 25, 50, 75.
        QCOMPARE(fhrHeadClasses(3, 0.25), int64_t{1});
        QCOMPARE(fhrHeadClasses(3, 0.5), int64_t{2});
        QCOMPARE(fhrHeadClasses(3, 0.75), int64_t{2});
        QCOMPARE(fhrHeadClasses(10, 0.25), int64_t{3});
        QCOMPARE(fhrHeadClasses(10, 0.75), int64_t{8});
        QCOMPARE(fhrHeadClasses(100, 0.25), int64_t{25});
        const auto points = falseHeadRatePoints(kLabelsB, kPredictionsB, 3);
        QCOMPARE(points.size(), size_t{3});
        QCOMPARE(points[0].ratio, 0.25);
        QVERIFY(near(points[0].split.rate, 2.0 / 7.0));
        QVERIFY(near(points[1].split.rate, 0.5));
        QVERIFY(near(points[2].split.rate, 0.5));
        QVERIFY(QString(kFhrConvention).contains("code convention"));
    }

    void falseHeadRateWithoutTailImagesIsZero()
    {
        const FhrSplit split = falseHeadRate({0, 0, 1}, {1, 0, 0}, 2);
        QCOMPARE(split.tailImages, int64_t{0});
        QCOMPARE(split.rate, 0.0);
    }

    void calibrationVectorC()
    {
        const CalibrationReport report = calibrationBins(kConfidenceC, kCorrectC, 15);
        QCOMPARE(report.bins.size(), size_t{15});
        QCOMPARE(report.count, int64_t{6});
        for (int b = 0; b < 15; ++b) {
            const int64_t expected = (b >= 8 && b <= 11) ? 1 : (b == 14 ? 2 : 0);
            QVERIFY2(report.bins[b].count == expected, qPrintable(QStringLiteral("bin %1 holds %2").arg(b).arg(report.bins[b].count)));
        }
        QVERIFY(near(report.bins[14].meanConfidence, 0.97));
        QCOMPARE(report.bins[14].accuracy, 1.0);
        QCOMPARE(report.bins[11].accuracy, 0.0);
        QVERIFY(near(report.bins[8].lower, 8.0 / 15.0));
        QVERIFY(near(report.bins[8].upper, 9.0 / 15.0));
        QVERIFY2(near(report.ece, 0.34667, 1e-5), qPrintable(QString::number(report.ece, 'f', 6)));
        QVERIFY2(near(report.mce, 0.79, 1e-9), qPrintable(QString::number(report.mce, 'f', 6)));
    }

    // Vector C's risk-coverage: sorted by confidence the correctness is 1, 1, 0, 1, 1, 0, so the
    // selective risk is [0, 0, 1/3, 1/4, 1/5, 1/3] and AURC = 0.186111.
    void riskCoverageVectorC()
    {
        const RiskCoverageCurve curve = riskCoverage(kConfidenceC, kCorrectC);
        QCOMPARE(curve.count, int64_t{6});
        const std::vector<double> risk = {0.0, 0.0, 1.0 / 3.0, 0.25, 0.2, 1.0 / 3.0};
        QCOMPARE(curve.risk.size(), risk.size());
        for (size_t k = 0; k < risk.size(); ++k) {
            QVERIFY(near(curve.risk[k], risk[k]));
            QVERIFY(near(curve.coverage[k], static_cast<double>(k + 1) / 6.0));
        }
        QVERIFY2(near(curve.aurc, 0.186111, 1e-6), qPrintable(QString::number(curve.aurc, 'f', 7)));
        QCOMPARE(riskCoverage({}, {}).aurc, 0.0);
        QVERIFY_THROWS_EXCEPTION(InputError, riskCoverage({0.5}, {}));
    }

    // Beyond kRiskCoverageSamples images the curve is sampled, the AURC stays exact and the last
    // point is full coverage.
    void riskCoverageSamplesLargeSets()
    {
        const auto n = static_cast<size_t>(4 * kRiskCoverageSamples + 3);
        std::vector<double> confidence(n);
        std::vector<bool> correct(n);
        double exact = 0.0;
        int64_t errors = 0;
        for (size_t i = 0; i < n; ++i) {
            confidence[i] = 1.0 - static_cast<double>(i) / static_cast<double>(n); // already in order
            correct[i] = i % 3 != 0;
            errors += correct[i] ? 0 : 1;
            exact += static_cast<double>(errors) / static_cast<double>(i + 1);
        }
        const RiskCoverageCurve curve = riskCoverage(confidence, correct);
        QVERIFY(curve.coverage.size() <= static_cast<size_t>(kRiskCoverageSamples) + 1);
        QCOMPARE(curve.coverage.back(), 1.0);
        QVERIFY(near(curve.aurc, exact / static_cast<double>(n)));
    }

    void calibrationBinBoundaries()
    {
        QCOMPARE(calibrationBinIndex(0.0), 0);
        QCOMPARE(calibrationBinIndex(1.0 / 15.0), 0); // (0, 1/15] is closed on the right
        QCOMPARE(calibrationBinIndex(1.0 / 15.0 + 1e-9), 1);
        QCOMPARE(calibrationBinIndex(1.0), 14);
        for (int b = 1; b <= 15; ++b) {
            QCOMPARE(calibrationBinIndex(static_cast<double>(b) / 15.0), b - 1);
        }
        QCOMPARE(calibrationBinIndex(0.8), 11); // 0.8 * 15 is 12 exactly: upper edge of bin 11
    }

    void calibrationOfNothingIsZero()
    {
        const CalibrationReport report = calibrationBins({}, {});
        QCOMPARE(report.count, int64_t{0});
        QCOMPARE(report.ece, 0.0);
        QCOMPARE(report.mce, 0.0);
    }

    void calibrationByRegionGroupsByTrueClass()
    {
        // Thirds of 3 classes: head {0}, med {1}, tail {2}.
        const std::vector<Region> regions = classRegions({100, 50, 10}, RegionScheme::ThirdsByIndex);
        const auto byRegion = regionCalibration({0.9, 0.6, 0.3, 0.32}, {true, false, true, true}, {0, 0, 2, 2}, regions,
                                                RegionScheme::ThirdsByIndex);
        QCOMPARE(byRegion.size(), size_t{3});
        QCOMPARE(byRegion[0].name, std::string("head"));
        QCOMPARE(byRegion[0].calibration.count, int64_t{2});
        QCOMPARE(byRegion[1].calibration.count, int64_t{0});
        QCOMPARE(byRegion[2].calibration.count, int64_t{2});
        // Tail: both in bin 4 ((4/15, 5/15]), accuracy 1, confidence 0.31.
        QVERIFY(near(byRegion[2].calibration.ece, 1.0 - 0.31));
    }

    void aurocVectorC()
    {
        const auto auroc = misclassificationAuroc(kConfidenceC, kCorrectC);
        QVERIFY(auroc.has_value());
        QVERIFY2(near(*auroc, 0.75), qPrintable(QString::number(*auroc)));
    }

    void aurocTiesCountHalf()
    {
        QVERIFY(near(*misclassificationAuroc({0.5, 0.5}, {true, false}), 0.5));
        // Pairs: (0.9, 0.5) 1, (0.9, 0.1) 1, (0.5, 0.5) 1/2, (0.5, 0.1) 1 -> 3.5 / 4.
        QVERIFY(near(*misclassificationAuroc({0.9, 0.5, 0.5, 0.1}, {true, true, false, false}), 0.875));
        // Reversed scores: correct images score lowest.
        QVERIFY(near(*misclassificationAuroc({0.1, 0.2, 0.8, 0.9}, {true, true, false, false}), 0.0));
    }

    void aurocUndefinedWithoutBothClasses()
    {
        QVERIFY(!misclassificationAuroc({0.9, 0.8}, {true, true}).has_value());
        QVERIFY(!misclassificationAuroc({0.9, 0.8}, {false, false}).has_value());
        QVERIFY(!misclassificationAuroc({}, {}).has_value());
    }

    void confusionAndPerClassVectorB()
    {
        const auto confusion = confusionMatrix(kLabelsB, kPredictionsB, 3);
        const std::vector<std::vector<int64_t>> expected = {{2, 1, 0}, {1, 2, 0}, {1, 1, 2}};
        QCOMPARE(confusion, expected);
        const auto perClass = perClassAccuracy(kLabelsB, kPredictionsB, 3);
        QCOMPARE(perClass[0].correct, int64_t{2});
        QCOMPARE(perClass[0].total, int64_t{3});
        QCOMPARE(perClass[2].total, int64_t{4});
        QVERIFY(near(perClass[2].accuracy, 0.5));
        QVERIFY(near(accuracy(kLabelsB, kPredictionsB).accuracy, 0.6));
    }

    void regionAccuracyUnbalancedTestSet()
    {
        // 6 classes; thirds: head {0,1}, med {2,3}, tail {4,5};
        // counts: many (> 100) {0,1,2}, medium (20..100) {3}, few (< 20) {4,5}.
        const std::vector<int64_t> trainCounts = {500, 200, 150, 50, 19, 5};
        const std::vector<int64_t> y = {0, 0, 0, 0, 1, 2, 3, 3, 4, 5, 5, 5};
        const std::vector<int64_t> yhat = {0, 0, 0, 1, 1, 2, 0, 3, 0, 5, 5, 4};

        const RegionAccuracies thirds = regionAccuracy(y, yhat, trainCounts, RegionScheme::ThirdsByIndex);
        QCOMPARE(thirds.regions.size(), size_t{3});
        QCOMPARE(thirds.regions[0].name, std::string("head"));
        QCOMPARE(thirds.regions[0].counts.correct, int64_t{4});
        QCOMPARE(thirds.regions[0].counts.total, int64_t{5});
        // 4/5, not the mean of per-class accuracies (3/4 + 1)/2 = 0.875.
        QVERIFY(near(thirds.regions[0].counts.accuracy, 0.8));
        QVERIFY(near(thirds.regions[1].counts.accuracy, 2.0 / 3.0));
        QCOMPARE(thirds.regions[2].counts.total, int64_t{4});
        QVERIFY(near(thirds.regions[2].counts.accuracy, 0.5));

        const RegionAccuracies counts = regionAccuracy(y, yhat, trainCounts, RegionScheme::ByTrainCount);
        QCOMPARE(counts.regions[0].name, std::string("many"));
        QCOMPARE(counts.regions[0].counts.total, int64_t{6});
        QCOMPARE(counts.regions[0].counts.correct, int64_t{5});
        QCOMPARE(counts.regions[1].counts.total, int64_t{2});
        QVERIFY(near(counts.regions[1].counts.accuracy, 0.5));
        QCOMPARE(counts.regions[2].counts.total, int64_t{4});
    }

    void emptyRegionHasZeroAccuracyAndTotal()
    {
        const RegionAccuracies counts = regionAccuracy({0, 1}, {0, 0}, {1000, 500}, RegionScheme::ByTrainCount);
        QCOMPARE(counts.regions[1].counts.total, int64_t{0});
        QCOMPARE(counts.regions[1].counts.accuracy, 0.0);
        QCOMPARE(counts.regions[2].counts.total, int64_t{0});
        QVERIFY(near(counts.regions[0].counts.accuracy, 0.5));
    }

    void labelsOutOfRangeThrow()
    {
        try {
            confusionMatrix({0, 3}, {0, 1}, 3);
            QFAIL("expected InputError");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).contains("label 3"), error.what());
        }
        QVERIFY_THROWS_EXCEPTION(InputError, perClassAccuracy({0, 1}, {0}, 3));
    }

    void utilityAndNll()
    {
        const auto u = UtilityMatrix::tailSensitive(3, 1.0);
        // U[2,0] = -1, U[1,1] = 1, U[0,2] = 0.
        QVERIFY(near(meanUtility({2, 1, 0}, {0, 1, 2}, u), 0.0));
        QVERIFY(near(negativeLogLikelihood({0.5, 0.25}), (std::log(2.0) + std::log(4.0)) / 2.0));
        QVERIFY(std::isfinite(negativeLogLikelihood({0.0})));
    }
};

QTEST_APPLESS_MAIN(TestMetrics)
#include "test_metrics.moc"
