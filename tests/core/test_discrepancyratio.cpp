// Discrepancy ratios w_c = 1/f(n_c) (lbd-math.md section 4) on the counts [100, 10, 1].
#include "core/lbd/discrepancyratio.h"
#include "core/util/error.h"

#include <cmath>
#include <limits>
#include <set>

using namespace lbd;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

const std::vector<int64_t> kCounts = {100, 10, 1};

void compareWeights(const std::vector<double>& actual, const std::vector<double>& expected)
{
    QCOMPARE(actual.size(), expected.size());
    for (size_t c = 0; c < actual.size(); ++c) {
        if (std::abs(actual[c] - expected[c]) > 1e-12 * std::max(1.0, std::abs(expected[c]))) {
            QFAIL(qPrintable(QString("class %1: %2 != %3").arg(c).arg(actual[c], 0, 'g', 17).arg(expected[c], 0, 'g', 17)));
        }
    }
}

DiscrepancySpec specOf(DiscrepancyKind kind)
{
    DiscrepancySpec spec;
    spec.kind = kind;
    return spec;
}

// Runs `action`, expects an InputError whose message names `field`.
template <typename Action>
void expectInputError(Action action, const char* field)
{
    try {
        action();
        QFAIL(qPrintable(QString("no InputError for %1").arg(field)));
    } catch (const InputError& error) {
        QVERIFY2(std::string(error.what()).find(field) != std::string::npos, error.what());
    }
}

} // namespace

class TestDiscrepancyRatio : public QObject {
    Q_OBJECT

private slots:
    void linear()
    {
        compareWeights(classWeights(kCounts, specOf(DiscrepancyKind::Linear)), {0.01, 0.1, 1.0});
    }

    void effectiveNumber()
    {
        // v_c = (1 - 0.9999) / (1 - 0.9999^n_c): n = 100 -> 1e-4 / 0.0099503...; n = 1 -> 1.
        // Rescaled to sum to C = 3: [0.0271587216, 0.2703688740, 2.7024724044].
        const auto weights = classWeights(kCounts, specOf(DiscrepancyKind::EffectiveNumber));
        const double beta = 0.9999;
        std::vector<double> raw;
        double sum = 0.0;
        for (int64_t n : kCounts) {
            raw.push_back((1.0 - beta) / (1.0 - std::pow(beta, static_cast<double>(n))));
            sum += raw.back();
        }
        for (double& v : raw) {
            v *= 3.0 / sum;
        }
        // The reference uses the plain difference, so allow its rounding (about 1e-12 relative).
        QCOMPARE(weights.size(), size_t(3));
        for (size_t c = 0; c < 3; ++c) {
            QVERIFY(std::abs(weights[c] - raw[c]) < 1e-9);
        }
        QVERIFY(std::abs(weights[0] - 0.0271587216) < 1e-9);
        QVERIFY(std::abs(weights[1] - 0.2703688740) < 1e-9);
        QVERIFY(std::abs(weights[2] - 2.7024724044) < 1e-9);
        QVERIFY(std::abs(weights[0] + weights[1] + weights[2] - 3.0) < 1e-12);
    }

    void sqrtKind()
    {
        compareWeights(classWeights(kCounts, specOf(DiscrepancyKind::Sqrt)), {0.1, 1.0 / std::sqrt(10.0), 1.0});
    }

    // f(n) = ln n, as the published code; a one-image class (ln 1 = 0) is refused by name.
    void logKindIsLnN()
    {
        const auto weights = classWeights({100, 10, 2}, specOf(DiscrepancyKind::Log));
        compareWeights(weights, {1.0 / std::log(100.0), 1.0 / std::log(10.0), 1.0 / std::log(2.0)});
        QVERIFY(weights[0] < weights[1] && weights[1] < weights[2]);
        expectInputError([] { classWeights(kCounts, specOf(DiscrepancyKind::Log)); }, "class 2 has 1");
    }

    void constant()
    {
        compareWeights(classWeights(kCounts, specOf(DiscrepancyKind::Constant)), {1.0, 1.0, 1.0});
    }

    void power()
    {
        DiscrepancySpec spec = specOf(DiscrepancyKind::Power);
        spec.gamma = 2.0;
        compareWeights(classWeights(kCounts, spec), {1e-4, 1e-2, 1.0});
        spec.gamma = 0.5; // the same as sqrt
        compareWeights(classWeights(kCounts, spec), classWeights(kCounts, specOf(DiscrepancyKind::Sqrt)));
        spec.gamma = 1.0; // the same as linear
        compareWeights(classWeights(kCounts, spec), {0.01, 0.1, 1.0});
        spec.gamma = 0.0; // the same as constant
        compareWeights(classWeights(kCounts, spec), {1.0, 1.0, 1.0});
    }

    // as-linear: every ratio rescaled to the linear ratio's sum (here 0.01 + 0.1 + 1 = 1.11), the
    // shape kept; linear itself unchanged. Effective: [0.0271587216, 0.2703688740, 2.7024724044]
    // x 1.11 / 3 = [0.0100487270, 0.1000364834, 0.9999147896].
    void asLinearScaleSumsLikeLinear()
    {
        auto asLinear = [](DiscrepancyKind kind) {
            DiscrepancySpec spec = specOf(kind);
            spec.scale = RatioScale::AsLinear;
            return classWeights(kCounts, spec);
        };
        compareWeights(asLinear(DiscrepancyKind::Linear), {0.01, 0.1, 1.0});
        compareWeights(asLinear(DiscrepancyKind::Constant), {0.37, 0.37, 0.37});
        const double sqrtSum = 0.1 + 1.0 / std::sqrt(10.0) + 1.0;
        compareWeights(asLinear(DiscrepancyKind::Sqrt), {0.1 * 1.11 / sqrtSum, 1.11 / std::sqrt(10.0) / sqrtSum, 1.11 / sqrtSum});
        const auto effective = asLinear(DiscrepancyKind::EffectiveNumber);
        QVERIFY(std::abs(effective[0] - 0.0100487270) < 1e-9);
        QVERIFY(std::abs(effective[1] - 0.1000364834) < 1e-9);
        QVERIFY(std::abs(effective[2] - 0.9999147896) < 1e-9);
        QCOMPARE(ratioScaleName(RatioScale::AsLinear), std::string("as-linear"));
        QVERIFY(parseRatioScale("published") == RatioScale::Published);
        QVERIFY(parseRatioScale("as-linear") == RatioScale::AsLinear);
        expectInputError([] { parseRatioScale("sum"); }, "ratio scale");
    }

    void namesRoundTrip()
    {
        const std::vector<std::string> expected = {"linear", "effective", "sqrt", "log", "constant", "power"};
        QCOMPARE(allDiscrepancyKinds().size(), expected.size());
        std::set<std::string> formulas;
        for (size_t i = 0; i < expected.size(); ++i) {
            const DiscrepancyKind kind = allDiscrepancyKinds()[i];
            QCOMPARE(discrepancyKindName(kind), expected[i]);
            QVERIFY(parseDiscrepancyKind(expected[i]) == kind);
            QVERIFY(!discrepancyFormula(kind).empty());
            formulas.insert(discrepancyFormula(kind));
        }
        QCOMPARE(formulas.size(), expected.size());
        QCOMPARE(discrepancyFormula(DiscrepancyKind::Linear), std::string("w_c = 1 / n_c"));
        QCOMPARE(discrepancyFormula(DiscrepancyKind::Log), std::string("w_c = 1 / ln(n_c)"));
        expectInputError([] { parseDiscrepancyKind("Linear"); }, "discrepancy ratio");
    }

    void validationNamesTheField()
    {
        for (double beta : {0.0, 1.0, -0.5, 1.5, std::nan(""), kInf}) {
            DiscrepancySpec spec;
            spec.beta = beta;
            expectInputError([&] { spec.validate(); }, "'beta'");
            expectInputError([&] { classWeights(kCounts, spec); }, "'beta'");
        }
        for (double gamma : {std::nan(""), kInf, -kInf}) {
            DiscrepancySpec spec;
            spec.gamma = gamma;
            expectInputError([&] { classWeights(kCounts, spec); }, "'gamma'");
        }
        DiscrepancySpec overflow = specOf(DiscrepancyKind::Power);
        overflow.gamma = -400.0; // 100^400 overflows
        expectInputError([&] { classWeights(kCounts, overflow); }, "'gamma'");
        expectInputError([] { classWeights({100, 0, 1}, DiscrepancySpec()); }, "'trainCounts'");
        expectInputError([] { classWeights({100, -3}, DiscrepancySpec()); }, "'trainCounts'");
        expectInputError([] { classWeights({}, DiscrepancySpec()); }, "'trainCounts'");
    }
};

QTEST_APPLESS_MAIN(TestDiscrepancyRatio)
#include "test_discrepancyratio.moc"
