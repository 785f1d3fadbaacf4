// The logit-adjusted loss (Menon et al., ICLR 2021) and Balanced Softmax (Ren et al., NeurIPS
// 2020) as LbdObjective computes them: hand-computed 3-class values of the loss and its gradient,
// equality with cross-entropy on shifted logits, the two methods being one expression at tau = 1,
// the tau key's bounds, and the baselines' switches through applyBaseline and the config parser.
#include "core/lbd/objective.h"
#include "core/lbd/objectivespec.h"
#include "core/train/configjson.h"
#include "core/util/error.h"

#include "tests/support/expect.h"

#include <QTest>

#include <cmath>
#include <nlohmann/json.hpp>

using namespace lbd;

namespace {

const torch::Device kCpu(torch::kCPU);

bool near(double a, double b, double tolerance = 1e-5)
{
    return std::abs(a - b) <= tolerance * std::max(1.0, std::abs(b));
}

#define LA_COMPARE_NEAR(actual, expected)                                                                      \
    QVERIFY2(near((actual), (expected)),                                                                       \
             qPrintable(QString("%1 = %2, expected %3").arg(#actual).arg((actual), 0, 'g', 10).arg((expected), 0, 'g', 10)))

ObjectiveSpec logitAdjusted(double tau)
{
    ObjectiveSpec spec = baselinePreset(Baseline::LogitAdjusted).objective;
    spec.logitAdjustTau = tau;
    return spec;
}

// The loss and d loss / d z of one sample with logits z = (1, 0, -1), label y.
struct LossAndGradient {
    double loss = 0.0;
    std::vector<double> gradient;
};

LossAndGradient oneSample(const ObjectiveSpec& spec, const std::vector<int64_t>& counts, int64_t label)
{
    LbdObjective objective(spec, counts, kCpu);
    const torch::Tensor logits = torch::tensor({1.0f, 0.0f, -1.0f}).view({1, 1, 3}).requires_grad_(true);
    const ObjectiveTerms terms = objective.compute(logits, torch::tensor({label}, torch::kLong));
    terms.total.backward();
    const torch::Tensor g = logits.grad().view({3}).to(torch::kDouble);
    return {terms.total.item<double>(), {g[0].item<double>(), g[1].item<double>(), g[2].item<double>()}};
}

} // namespace

class TestObjectiveLogitAdjust : public QObject {
    Q_OBJECT

private slots:
    // lbd-math.md section 9, vector G. Counts (6, 3, 1), pi = (0.6, 0.3, 0.1), z = (1, 0, -1). At tau = 1 the adjusted softmax is
    // p_k proportional to pi_k e^{z_k} = (0.6 e, 0.3, 0.1 / e), so for y = 2 the loss is
    // ln((0.6 e + 0.3 + 0.1/e) / (0.1/e)) = ln(6 e^2 + 3 e + 1) = 3.979479, and for y = 0 it is
    // ln(1 + 1/(2e) + 1/(6 e^2)) = 0.187720. The gradient is p - onehot(y) with
    // p = (0.6 e^2, 0.3 e, 0.1) / (0.6 e^2 + 0.3 e + 0.1).
    void handComputedThreeClasses()
    {
        const double e = std::exp(1.0);
        const double norm = 0.6 * e * e + 0.3 * e + 0.1;
        const std::vector<double> p = {0.6 * e * e / norm, 0.3 * e / norm, 0.1 / norm};

        const LossAndGradient tail = oneSample(logitAdjusted(1.0), {6, 3, 1}, 2);
        LA_COMPARE_NEAR(tail.loss, std::log(6 * e * e + 3 * e + 1));
        LA_COMPARE_NEAR(tail.loss, 3.9794794293);
        LA_COMPARE_NEAR(tail.gradient[0], p[0]);
        LA_COMPARE_NEAR(tail.gradient[1], p[1]);
        LA_COMPARE_NEAR(tail.gradient[2], p[2] - 1.0);

        const LossAndGradient head = oneSample(logitAdjusted(1.0), {6, 3, 1}, 0);
        LA_COMPARE_NEAR(head.loss, std::log(1 + 1 / (2 * e) + 1 / (6 * e * e)));
        LA_COMPARE_NEAR(head.gradient[0], p[0] - 1.0);
        LA_COMPARE_NEAR(head.gradient[2], p[2]);

        // tau = 2: p_k proportional to pi_k^2 e^{z_k}; the tail sample's loss is ln(36 e^2 + 9 e + 1).
        LA_COMPARE_NEAR(oneSample(logitAdjusted(2.0), {6, 3, 1}, 2).loss, std::log(36 * e * e + 9 * e + 1));
        // tau = 0 is plain cross-entropy: ln(e + 1 + 1/e) + 1 = ln(e^2 + e + 1) for y = 2.
        LA_COMPARE_NEAR(oneSample(logitAdjusted(0.0), {6, 3, 1}, 2).loss, std::log(e * e + e + 1));
        // Without the switch, tau changes nothing.
        ObjectiveSpec off = logitAdjusted(2.0);
        off.logitAdjustment = false;
        LA_COMPARE_NEAR(oneSample(off, {6, 3, 1}, 2).loss, std::log(e * e + e + 1));
    }

    // Over particles and a batch, the loss and its gradient are torch's cross-entropy of
    // z + tau log pi (and of z + log n: the shift by log N cancels, which is why Balanced Softmax
    // is the same expression at tau = 1).
    void equalsCrossEntropyOnShiftedLogits()
    {
        torch::manual_seed(3);
        const std::vector<int64_t> counts = {50, 12, 4, 1};
        const torch::Tensor logits = torch::randn({2, 7, 4}, torch::kDouble).mul(3.0).to(torch::kFloat);
        const torch::Tensor labels = torch::tensor({0, 1, 2, 3, 0, 0, 3}, torch::kLong);
        const torch::Tensor logCounts = torch::log(torch::tensor({50.0, 12.0, 4.0, 1.0}));
        for (const double tau : {1.0, 0.5, 2.5}) {
            LbdObjective objective(logitAdjusted(tau), counts, kCpu);
            const torch::Tensor z = logits.clone().requires_grad_(true);
            const ObjectiveTerms terms = objective.compute(z, labels);
            terms.total.backward();

            const torch::Tensor reference = logits.clone().requires_grad_(true);
            const torch::Tensor shifted = reference + tau * logCounts.to(torch::kFloat);
            const torch::Tensor ce = 0.5
                * (torch::nn::functional::cross_entropy(shifted[0], labels)
                   + torch::nn::functional::cross_entropy(shifted[1], labels));
            ce.backward();
            LA_COMPARE_NEAR(LbdObjective::values(terms).total, ce.item<double>());
            QVERIFY2(torch::allclose(z.grad(), reference.grad(), 1e-5, 1e-6), qPrintable(QString::number(tau)));
        }
        // The offsets are tau log pi_c, each <= 0.
        LbdObjective objective(logitAdjusted(1.0), counts, kCpu);
        LA_COMPARE_NEAR(objective.logitAdjustmentValues()[0], std::log(50.0 / 67.0));
        LA_COMPARE_NEAR(objective.logitAdjustmentValues()[3], std::log(1.0 / 67.0));
        QCOMPARE(LbdObjective(baselinePreset(Baseline::CrossEntropy).objective, counts, kCpu).logitAdjustmentValues(),
                 std::vector<double>(4, 0.0));
    }

    void balancedSoftmaxIsTheLogitAdjustedLossAtTauOne()
    {
        const std::vector<int64_t> counts = {100, 10, 1};
        ObjectiveSpec balanced = baselinePreset(Baseline::BalancedSoftmax).objective;
        QVERIFY(balanced.logitAdjustment);
        QCOMPARE(balanced.logitAdjustTau, 1.0);
        torch::manual_seed(1);
        const torch::Tensor logits = torch::randn({1, 5, 3});
        const torch::Tensor labels = torch::tensor({0, 1, 2, 2, 0}, torch::kLong);
        const double a = LbdObjective::values(LbdObjective(balanced, counts, kCpu).compute(logits, labels)).total;
        const double b = LbdObjective::values(LbdObjective(logitAdjusted(1.0), counts, kCpu).compute(logits, labels)).total;
        QCOMPARE(a, b);
        // Ren et al.'s form: softmax of n_k e^{z_k}.
        const torch::Tensor withCounts = logits[0] + torch::log(torch::tensor({100.0f, 10.0f, 1.0f}));
        LA_COMPARE_NEAR(a, torch::nn::functional::cross_entropy(withCounts, labels).item<double>());
    }

    void tauIsFiniteAndInZeroToTen()
    {
        for (const double bad : {std::nan(""), std::numeric_limits<double>::infinity(), -0.1, 10.5}) {
            ObjectiveSpec spec;
            spec.logitAdjustTau = bad;
            QVERIFY(test::throwsInputError([&] { spec.validate(); }, {"logit_adjust_tau"}));
        }
        for (const double good : {0.0, 1.0, 10.0}) {
            ObjectiveSpec spec;
            spec.logitAdjustTau = good;
            spec.validate();
        }
        QVERIFY(test::throwsInputError(
            [] { trainConfigFromJson({{"objective", {{"baseline", "logit-adjusted"}, {"logit_adjust_tau", 11}}}}); },
            {"logit_adjust_tau", "11"}));
    }

    // What the two methods define: one network, no re-weighting, no margins, no utility term,
    // no repulsion, the adjustment on; tau survives logit-adjusted and is 1 for Balanced Softmax.
    void baselinesSetTheirSwitches()
    {
        for (const Baseline baseline : {Baseline::LogitAdjusted, Baseline::BalancedSoftmax}) {
            ObjectiveSpec spec;
            spec.logitAdjustTau = 0.5;
            int64_t particles = 3;
            applyBaseline(baseline, 200, spec, particles);
            QCOMPARE(particles, int64_t(1));
            QVERIFY(spec.logitAdjustment);
            QVERIFY(spec.discrepancy.kind == DiscrepancyKind::Constant);
            QVERIFY(!spec.ldamMargins && !spec.utilityTerm && !spec.repulsive);
            QCOMPARE(spec.drwEpoch, 0);
            QCOMPARE(spec.logitAdjustTau, baseline == Baseline::LogitAdjusted ? 0.5 : 1.0);
            QVERIFY(parseBaseline(baselineName(baseline)) == baseline);
            QVERIFY(baselineDescription(baseline).find(baseline == Baseline::LogitAdjusted ? "Menon" : "Ren")
                    != std::string::npos);
            // Every other method switches it off again.
            applyBaseline(Baseline::LdamDrw, 200, spec, particles);
            QVERIFY(!spec.logitAdjustment);
        }
        QCOMPARE(baselineName(Baseline::LogitAdjusted), std::string("logit-adjusted"));
        QCOMPARE(baselineName(Baseline::BalancedSoftmax), std::string("balanced-softmax"));

        // Through the config parser, as `lbd train --baseline` and a study level do.
        const TrainConfig config =
            trainConfigFromJson({{"objective", {{"baseline", "logit-adjusted"}, {"logit_adjust_tau", 1.5}}}});
        QCOMPARE(config.model.particles, int64_t(1));
        QVERIFY(config.objective.logitAdjustment);
        QCOMPARE(config.objective.logitAdjustTau, 1.5);
        nlohmann::json preset = toJson(config);
        setBaselineInConfigJson(preset, "ce", false);
        QVERIFY(!trainConfigFromJson(preset).objective.logitAdjustment);
        // The switches round-trip through config.json.
        QCOMPARE(toJson(trainConfigFromJson(toJson(config))).dump(), toJson(config).dump());
    }
};

QTEST_APPLESS_MAIN(TestObjectiveLogitAdjust)
#include "test_objectivelogitadjust.moc"
