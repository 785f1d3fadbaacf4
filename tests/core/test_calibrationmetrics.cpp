// Issue 29: Brier score, classwise ECE, adaptive (equal-mass) ECE and the bootstrap ECE interval
// against hand-computed vectors; temperature scaling (fit, file); the logit-adjustment preset
// prior:tau (tau = 0 is one-hot, tau = 1 is argmax pbar / pi).
#include "core/eval/calibration.h"
#include "core/eval/calibrationmetrics.h"
#include "core/eval/decisions.h"
#include "core/eval/temperature.h"
#include "core/lbd/priorutility.h"
#include "core/util/error.h"
#include "core/util/tensorvector.h"

#include "tests/support/expect.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace lbd;

namespace {

// Vector T (5 images, 3 classes), pbar rows and labels:
//   n0 [0.7, 0.2, 0.1] y 0    decided 0 (0.7) right
//   n1 [0.5, 0.4, 0.1] y 1    decided 0 (0.5) wrong
//   n2 [0.2, 0.2, 0.6] y 2    decided 2 (0.6) right
//   n3 [0.3, 0.6, 0.1] y 2    decided 1 (0.6) wrong
//   n4 [0.4, 0.3, 0.3] y 2    decided 0 (0.4) wrong
const std::vector<double> kPbarT = {0.7, 0.2, 0.1, 0.5, 0.4, 0.1, 0.2, 0.2, 0.6, 0.3, 0.6, 0.1, 0.4, 0.3, 0.3};
const std::vector<int64_t> kLabelsT = {0, 1, 2, 2, 2};
const std::vector<double> kConfidenceT = {0.7, 0.5, 0.6, 0.6, 0.4};
const std::vector<bool> kCorrectT = {true, false, true, false, false};

bool near(double a, double b, double tolerance = 1e-12)
{
    return std::abs(a - b) <= tolerance;
}

} // namespace

class TestCalibrationMetrics : public QObject {
    Q_OBJECT

private slots:
    void brierVectorT()
    {
        // n0 0.3^2 + 0.2^2 + 0.1^2 = 0.14; n1 0.5^2 + 0.6^2 + 0.1^2 = 0.62; n2 0.04 + 0.04 + 0.16 = 0.24;
        // n3 0.09 + 0.36 + 0.81 = 1.26; n4 0.16 + 0.09 + 0.49 = 0.74. Sum 3.0 over 5 images = 0.6.
        QVERIFY(near(brierScore(kPbarT, kLabelsT, 3), 0.6));
        // A perfect one-hot prediction scores 0, the worst one 2.
        QVERIFY(near(brierScore({1, 0, 0}, {0}, 3), 0.0));
        QVERIFY(near(brierScore({0, 1, 0}, {0}, 3), 2.0));
    }

    void classwiseEceVectorT()
    {
        // 15 bins (b/15, (b+1)/15]. Class 0: confidences 0.7 0.5 0.2 0.3 0.4, targets 1 0 0 0 0, each in its own
        //   bin: (0.3 + 0.5 + 0.2 + 0.3 + 0.4) / 5 = 0.34.
        // Class 1: 0.2 0.4 0.2 0.6 0.3, targets 0 1 0 0 0: the two 0.2 share a bin (acc 0, conf 0.2):
        //   2/5 * 0.2 + 0.6/5 + 0.6/5 + 0.3/5 = 0.08 + 0.12 + 0.12 + 0.06 = 0.38.
        // Class 2: 0.1 0.1 0.6 0.1 0.3, targets 0 0 1 1 1: the three 0.1 share a bin (acc 1/3, conf 0.1):
        //   3/5 * (1/3 - 0.1) + 0.4/5 + 0.7/5 = 0.14 + 0.08 + 0.14 = 0.36.
        // Mean over classes: (0.34 + 0.38 + 0.36) / 3 = 0.36.
        QVERIFY(near(classwiseEce(kPbarT, kLabelsT, 3), 0.36, 1e-12));
    }

    void adaptiveEceVectorT()
    {
        // Sorted by confidence, ties by index: n4 0.4 (wrong), n1 0.5 (wrong), n2 0.6 (right), n3 0.6 (wrong), n0 0.7 (right).
        // 2 bins, positions [0, 2) and [2, 5): |0 - 0.9| + |2 - 1.9| = 1.0, / 5 = 0.2.
        QVERIFY(near(adaptiveEce(kConfidenceT, kCorrectT, 2), 0.2));
        // 3 bins [0, 1) [1, 3) [3, 5): |0 - 0.4| + |1 - 1.1| + |1 - 1.3| = 0.8, / 5 = 0.16 (n2 before n3: with the
        // tie the other way round it would be (0.4 + 1.1 + 0.7) / 5 = 0.44).
        QVERIFY(near(adaptiveEce(kConfidenceT, kCorrectT, 3), 0.16));
        // 15 bins for 5 images: one image per non-empty bin, the mean |correct - confidence|
        // (0.3 + 0.5 + 0.4 + 0.6 + 0.4) / 5 = 0.44.
        QVERIFY(near(adaptiveEce(kConfidenceT, kCorrectT), 0.44));
        // Equal-width ECE of the same vector for contrast: 0.4, 0.5, 0.7 alone, the two 0.6 share a bin
        // (acc 0.5): (0.4 + 0.5 + 0.3) / 5 + 2/5 * 0.1 = 0.28.
        QVERIFY(near(calibrationBins(kConfidenceT, kCorrectT).ece, 0.28));
    }

    void eceIntervalIsSeededAndBracketsTheResamples()
    {
        const auto a = bootstrapEceInterval(kConfidenceT, kCorrectT, 1000, 7);
        const auto b = bootstrapEceInterval(kConfidenceT, kCorrectT, 1000, 7);
        QCOMPARE(a, b);
        QVERIFY(a.first <= a.second);
        QVERIFY(a.first >= 0.0 && a.second <= 1.0);
        QVERIFY(a.first < 0.28 && a.second > 0.28);
        // One image: every resample is that image, so the interval is its ECE |0 - 0.8| = 0.8.
        const auto single = bootstrapEceInterval({0.8}, {false}, 50, 1);
        QVERIFY(near(single.first, 0.8) && near(single.second, 0.8));
        QVERIFY_THROWS_EXCEPTION(InputError, bootstrapEceInterval(kConfidenceT, kCorrectT, 0, 1));

        const CalibrationMetrics all = calibrationMetrics(kPbarT, kLabelsT, 3, kConfidenceT, kCorrectT, 200, 3);
        QVERIFY(near(all.brier, 0.6));
        QVERIFY(near(all.classwiseEce, 0.36));
        QVERIFY(near(all.adaptiveEce, 0.44));
        QCOMPARE(all.bootstrapResamples, int64_t{200});
        QCOMPARE(all.bootstrapSeed, uint64_t{3});
        QVERIFY_THROWS_EXCEPTION(InputError, brierScore(kPbarT, {0, 1, 2, 2, 3}, 3));
        QVERIFY_THROWS_EXCEPTION(InputError, classwiseEce(kPbarT, {0, 1}, 3));
    }

    void temperatureFitMatchesTheClosedForm()
    {
        // Four images with pbar [0.9, 0.1], three of class 0: the NLL is least where the calibrated
        // probability of class 0 is 3/4, 9^(1/T) / (9^(1/T) + 1) = 3/4, so T = log 9 / log 3 = 2.
        const std::vector<double> pbar = {0.9, 0.1, 0.9, 0.1, 0.9, 0.1, 0.9, 0.1};
        const std::vector<int64_t> labels = {0, 0, 0, 1};
        const TemperatureFit fit = fitTemperature(pbar, labels, 2);
        QVERIFY2(near(fit.temperature, 2.0, 1e-5), qPrintable(QString::number(fit.temperature, 'g', 10)));
        QVERIFY(fit.nllAfter < fit.nllBefore);
        QVERIFY(near(fit.nllAfter, -(0.75 * std::log(0.75) + 0.25 * std::log(0.25)), 1e-9));
        const std::vector<double> scaled = temperatureScaled(pbar, 2, 2.0);
        QVERIFY(near(scaled[0], 0.75, 1e-12) && near(scaled[1], 0.25, 1e-12));
        QVERIFY(near(temperatureScaled(pbar, 2, 1.0)[0], 0.9, 1e-12));
        QVERIFY_THROWS_EXCEPTION(InputError, temperatureScaled(pbar, 2, 0.0));
        QVERIFY_THROWS_EXCEPTION(InputError, fitTemperature({}, {}, 2));
    }

    void temperatureFileRoundTripsAndRejectsDamage()
    {
        QTemporaryDir dir;
        const std::string folder = dir.path().toStdString();
        QVERIFY(!loadTemperature(folder));
        TemperatureFit fit;
        fit.temperature = 1.37;
        fit.images = 600;
        fit.nllBefore = 0.9;
        fit.nllAfter = 0.8;
        saveTemperature(fit, folder);
        const auto loaded = loadTemperature(folder);
        QVERIFY(loaded);
        QCOMPARE(loaded->temperature, 1.37);
        QCOMPARE(loaded->images, int64_t{600});
        QCOMPARE(loaded->split, std::string("validation"));
        std::ofstream(folder + "/" + kTemperatureFileName) << R"({"temperature": 1.2, "fitted_on": "test", "images": 5,
            "nll_before": 1, "nll_after": 1})";
        QVERIFY_THROWS_EXCEPTION(InputError, loadTemperature(folder));
        std::ofstream(folder + "/" + kTemperatureFileName) << R"({"temperature": -1})";
        QVERIFY_THROWS_EXCEPTION(InputError, loadTemperature(folder));
        // Values no fit gives (issue 37): T outside the fit's [kMinTemperature, kMaxTemperature]
        // (1e308 made pbar uniform, 1e-320 NaN), no image, a negative NLL; the file and field named.
        const std::string path = folder + "/" + kTemperatureFileName;
        const auto write = [&](const std::string& t, int images = 600, const std::string& nll = "0.8") {
            std::ofstream(path) << R"({"temperature": )" << t << R"(, "fitted_on": "validation", "images": )" << images
                                << R"(, "nll_before": 0.9, "nll_after": )" << nll << "}";
        };
        for (const std::string& t : {"1e308", "1e-320", "0.049", "20.5"}) {
            write(t);
            QVERIFY2(test::throwsInputError([&] { loadTemperature(folder); }, {path, "temperature = ", "[0.05, 20]"}), t.c_str());
        }
        write("20");
        QCOMPARE(loadTemperature(folder)->temperature, kMaxTemperature);
        write("1.3", 0);
        QVERIFY(test::throwsInputError([&] { loadTemperature(folder); }, {path, "images"}));
        write("1.3", 600, "-0.5");
        QVERIFY(test::throwsInputError([&] { loadTemperature(folder); }, {path, "nll_after"}));
    }

    void priorTauZeroIsOneHotAndOneIsArgmaxOverPrior()
    {
        const std::vector<int64_t> counts = {100, 10, 1};
        QCOMPARE(priorAdjusted(counts, 0.0), UtilityMatrix::oneHot(3));
        const UtilityMatrix u1 = priorAdjusted(counts, 1.0);
        QVERIFY(near(u1(0, 0), 0.01) && near(u1(1, 1), 0.1) && near(u1(2, 2), 1.0) && u1(0, 1) == 0.0);

        const std::vector<double> rows = {0.98, 0.015, 0.005, 0.6, 0.3, 0.1, 0.5, 0.45, 0.05, 0.2, 0.79, 0.01};
        const torch::Tensor probs = torch::tensor(rows, torch::kFloat64).view({1, 4, 3});
        const auto oneHot = toVector<int64_t>(decide(probs, UtilityMatrix::oneHot(3), DecisionRule::Expected).decisions);
        const auto tau0 = toVector<int64_t>(decide(probs, priorAdjusted(counts, 0.0), DecisionRule::Expected).decisions);
        QCOMPARE(tau0, oneHot);
        // argmax pbar / pi, pi = counts / 111: row 0 [0.0098, 0.0015, 0.005] * 111 -> 0; row 1 [0.006, 0.03, 0.1] -> 2;
        // row 2 [0.005, 0.045, 0.05] -> 2; row 3 [0.002, 0.079, 0.01] -> 1.
        const auto tau1 = toVector<int64_t>(decide(probs, u1, DecisionRule::Expected).decisions);
        QCOMPARE(tau1, (std::vector<int64_t>{0, 2, 2, 1}));
        QCOMPARE(oneHot, (std::vector<int64_t>{0, 0, 0, 1}));

        QCOMPARE(priorSpec(0.5), std::string("prior:0.5"));
        QCOMPARE(priorTauOf("prior:0.5"), std::optional<double>(0.5));
        QVERIFY(!priorTauOf("prior:-1") && !priorTauOf("tail:1") && !priorTauOf("prior:x"));
        const std::vector<std::string> names = {"a", "b", "c"};
        QCOMPARE(parseUtilitySpec("prior:1", names, counts), u1);
        QCOMPARE(parseUtilitySpec("tail:1", names, counts), UtilityMatrix::tailSensitive(3, 1.0));
        QVERIFY_THROWS_EXCEPTION(InputError, parseUtilitySpec("prior:1", names)); // no counts: a clear refusal
        QVERIFY_THROWS_EXCEPTION(InputError, parseUtilitySpec("prior:20", names, counts));
        QVERIFY_THROWS_EXCEPTION(InputError, priorAdjusted({5, 0, 1}, 1.0));
    }
};

QTEST_APPLESS_MAIN(TestCalibrationMetrics)
#include "test_calibrationmetrics.moc"
