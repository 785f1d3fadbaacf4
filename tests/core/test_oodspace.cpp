// The caution's Mahalanobis distance and threshold on a hand-made 2-D example, with the values
// computed by hand: two classes, each the four points (+-2, 0), (0, +-1) around its mean (0, 0)
// and (10, 0), so the shared covariance is diag(2, 0.5) (before the 1e-3 shrinkage towards
// 1.25 I). An inverted covariance, a flipped sign of the cross term, or the largest distance
// over the classes instead of the smallest each change a value checked here; then a caution on
// a 2-D Gaussian sample: a point 1.5 sigma along the long axis passes, one 4 sigma along the short
// axis does not (an inverted covariance swaps them).
#include "core/eval/oodspace.h"

#include <QtTest>

using namespace lbd;

namespace {

// [M = 1, N, 2]
torch::Tensor points(const std::vector<std::pair<double, double>>& xy)
{
    std::vector<double> flat;
    for (const auto& [x, y] : xy) {
        flat.push_back(x);
        flat.push_back(y);
    }
    return torch::tensor(flat, torch::kFloat64).view({1, static_cast<int64_t>(xy.size()), 2});
}

// The shrunk covariance's diagonal: 2 and 0.5 scaled by 0.999, plus 1e-3 of their mean 1.25.
constexpr double kVarX = 2.0 * 0.999 + 1e-3 * 1.25;   // 1.99925
constexpr double kVarY = 0.5 * 0.999 + 1e-3 * 1.25;   // 0.50075

} // namespace

class TestOodSpace : public QObject {
    Q_OBJECT

private slots:
    void handComputedDistances()
    {
        const auto features = points({{2, 0}, {-2, 0}, {0, 1}, {0, -1}, {12, 0}, {8, 0}, {10, 1}, {10, -1}});
        const auto labels = torch::tensor(std::vector<int64_t>{0, 0, 0, 0, 1, 1, 1, 1});
        OodSpace space;
        const auto classes = fitOodSpace(space, features, labels, 2);
        QCOMPARE(classes, (std::vector<int64_t>{0, 1}));
        QCOMPARE(space.classMeans[0][1][0].item<double>(), 10.0);
        QVERIFY(std::abs(space.precision[0][0][0].item<double>() - 1.0 / kVarX) < 1e-12);
        QVERIFY(std::abs(space.precision[0][1][1].item<double>() - 1.0 / kVarY) < 1e-12);
        QVERIFY(std::abs(space.precision[0][0][1].item<double>()) < 1e-12);

        const auto d = oodSpaceDistances(space, points({{2, 0}, {0, 1}, {8, 0}, {5, 0}, {0, 2}, {-3, 0.5}}));
        const std::vector<double> expected = {
            4.0 / kVarX,                 // (2, 0): 2 from class 0 along x (inverted: 4 * 1.99925)
            1.0 / kVarY,                 // (0, 1): 1 along y (inverted: 0.50075)
            4.0 / kVarX,                 // (8, 0): near class 1 (a flipped cross term: 162 / 1.99925 vs 64 / 1.99925)
            25.0 / kVarX,                // (5, 0): halfway
            4.0 / kVarY,                 // (0, 2)
            9.0 / kVarX + 0.25 / kVarY,  // (-3, 0.5): class 0 (the largest, to class 1: 169 / 1.99925 + ...)
        };
        for (size_t i = 0; i < expected.size(); ++i) {
            QVERIFY2(std::abs(d[static_cast<int64_t>(i)].item<double>() - expected[i]) < 1e-9,
                     qPrintable(QStringLiteral("point %1: %2, by hand %3").arg(i).arg(d[static_cast<int64_t>(i)].item<double>()).arg(expected[i])));
        }
    }

    void meansOnlyClassesGiveAMeanNotASpread()
    {
        // Class 1 has no unseen point: its mean from two training points, the spread class 0's alone.
        const auto features = points({{2, 0}, {-2, 0}, {0, 1}, {0, -1}});
        const auto labels = torch::tensor(std::vector<int64_t>{0, 0, 0, 0});
        OodSpace space;
        const auto classes = fitOodSpace(space, features, labels, 3, points({{9, 0}, {11, 0}}), torch::tensor(std::vector<int64_t>{1, 1}));
        QCOMPARE(classes, (std::vector<int64_t>{0, 1})); // class 2 has no image anywhere: no mean
        QCOMPARE(space.classMeans.size(1), int64_t(2));
        QCOMPARE(space.classMeans[0][1][0].item<double>(), 10.0);
        QVERIFY(std::abs(oodSpaceDistances(space, points({{10, 1}}))[0].item<double>() - 1.0 / kVarY) < 1e-9);
    }

    void classBalancedThresholdByHand()
    {
        // 100 head images scoring 1..100 and 10 tail images scoring 0.1..1.0: every tail image
        // passes from t = 1, so the head class must pass 90 % for the average to reach 95 %: t = 90
        // (a plain 95th percentile of the 110 scores would be 95).
        auto head = torch::arange(1, 101, torch::kFloat64);
        auto tail = torch::arange(1, 11, torch::kFloat64) / 10.0;
        const auto scores = torch::cat({head, tail});
        const auto labels = torch::cat({torch::zeros({100}, torch::kInt64), torch::ones({10}, torch::kInt64)});
        QCOMPARE(classBalancedThreshold(scores, labels, 0.95), 90.0);
        QCOMPARE(classBalancedThreshold(torch::arange(1, 21, torch::kFloat64), torch::zeros({20}, torch::kInt64), 0.95), 19.0);
    }

    void cautionOnATwoDimensionalGaussian()
    {
        // sigma 2 along x, 0.5 along y, classes at (0, 0) and (10, 0).
        torch::manual_seed(7);
        const int64_t n = 4000;
        const auto labels = torch::arange(2, torch::kInt64).repeat_interleave(n / 2);
        auto xy = torch::randn({n, 2}, torch::kFloat64) * torch::tensor({2.0, 0.5}, torch::kFloat64);
        xy.select(1, 0).add_(labels.to(torch::kFloat64) * 10.0);
        const auto features = xy.unsqueeze(0);
        OodSpace space;
        fitOodSpace(space, features.slice(1, 0, n, 2), labels.slice(0, 0, n, 2), 2);
        const double threshold = classBalancedThreshold(oodSpaceDistances(space, features.slice(1, 1, n, 2)), labels.slice(0, 1, n, 2), 0.95);
        // chi-square with 2 degrees of freedom: its 95 % point is 5.99.
        QVERIFY2(threshold > 5.3 && threshold < 6.7, qPrintable(QString::number(threshold)));
        const auto d = oodSpaceDistances(space, points({{3, 0}, {0, 2}, {13, 0}, {10, -2}, {5, 1}, {-12, 0}}));
        const std::vector<bool> caution = {false, true, false, true, true, true};
        for (size_t i = 0; i < caution.size(); ++i) {
            QVERIFY2((d[static_cast<int64_t>(i)].item<double>() > threshold) == caution[i],
                     qPrintable(QStringLiteral("point %1: distance %2, threshold %3").arg(i).arg(d[static_cast<int64_t>(i)].item<double>()).arg(threshold)));
        }
    }

    void aurocByHand()
    {
        // Outside scores 2 and 4 against inside 1, 2, 3: (1 + 0.5 + 0) ... = (1.5 + 3) / 6 = 0.75.
        QCOMPARE(scoreAuroc(torch::tensor({1.0, 2.0, 3.0}), torch::tensor({2.0, 4.0})), 0.75);
    }
};

QTEST_APPLESS_MAIN(TestOodSpace)
#include "test_oodspace.moc"
