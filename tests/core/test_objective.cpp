// LbdObjective against hand-computed values and a plain-loop reference (lbd-math.md section 4).
#include "core/lbd/objective.h"
#include "core/lbd/objectivespec.h"
#include "core/lbd/utilitymatrix.h"
#include "core/util/error.h"

#include <cmath>
#include <limits>

using namespace lbd;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

const torch::Device kCpu(torch::kCPU);

// Tail-sensitive U (lbd-math.md section 5): I plus -c where the decision is head-ward (d < t).
std::vector<double> tailSensitive(int64_t classes, double c)
{
    std::vector<double> u(static_cast<size_t>(classes * classes), 0.0);
    for (int64_t t = 0; t < classes; ++t) {
        for (int64_t d = 0; d < classes; ++d) {
            u[static_cast<size_t>(t * classes + d)] = t == d ? 1.0 : (d < t ? -c : 0.0);
        }
    }
    return u;
}

std::vector<double> identity(int64_t classes, double diagonal = 1.0)
{
    std::vector<double> u(static_cast<size_t>(classes * classes), 0.0);
    for (int64_t c = 0; c < classes; ++c) {
        u[static_cast<size_t>(c * classes + c)] = diagonal;
    }
    return u;
}

struct Reference {
    double weightedCe = 0.0;
    double utility = 0.0;
    double repulsive = 0.0;
};

// The objective written as the spec reads, one loop per sum, in double.
// weights: the w_c in force; margins: m_c; uMatrix: C*C row-major (empty = none); form: the
// utility term's (lbd-math.md section 4).
Reference referenceLoss(const torch::Tensor& logitsIn, const torch::Tensor& labelsIn, const torch::Tensor& classifierIn,
                        const std::vector<double>& weights, const std::vector<double>& margins, double scale,
                        const std::vector<double>& uMatrix, double eps, UtilityForm form = UtilityForm::Paper)
{
    const torch::Tensor logitsD = logitsIn.detach().to(torch::kDouble).contiguous();
    const auto logits = logitsD.accessor<double, 3>();
    const auto labels = labelsIn.accessor<int64_t, 1>();
    const int64_t particles = logitsIn.size(0), batch = logitsIn.size(1), classes = logitsIn.size(2);
    Reference ref;
    for (int64_t j = 0; j < particles; ++j) {
        double ceSum = 0.0, weightSum = 0.0, utSum = 0.0;
        for (int64_t b = 0; b < batch; ++b) {
            const int64_t y = labels[b];
            std::vector<double> z(static_cast<size_t>(classes));
            for (int64_t k = 0; k < classes; ++k) {
                z[k] = logits[j][b][k] - (k == y ? scale * margins[y] : 0.0);
            }
            double sumExp = 0.0;
            for (double v : z) {
                sumExp += std::exp(v);
            }
            const double logSumExp = std::log(sumExp);
            ceSum += weights[y] * (logSumExp - z[y]);
            weightSum += weights[y];
            if (!uMatrix.empty()) {
                // Accumulates -UT contributions: the sign is flipped once below.
                for (int64_t k = 0; k < classes; ++k) {
                    if (k == y) {
                        continue;
                    }
                    const double u = uMatrix[static_cast<size_t>(y * classes + k)];
                    const double logP = z[k] - logSumExp;
                    switch (form) {
                    case UtilityForm::Paper: utSum += weights[y] * u * logP; break;
                    case UtilityForm::Published: utSum += weights[k] * u * logP; break;
                    case UtilityForm::Bounded:
                        // 1 - p is floored at 1e-6, as in the objective (a class at p = 1 stays finite).
                        if (u > 0.0) {
                            utSum -= weights[y] * u * -logP;
                        } else if (u < 0.0) {
                            utSum -= weights[y] * -u * -std::log(std::max(1.0 - std::exp(logP), 1e-6));
                        }
                        break;
                    }
                }
            }
        }
        ref.weightedCe += ceSum / weightSum / static_cast<double>(particles);
        ref.utility += -utSum / static_cast<double>(batch) / static_cast<double>(particles);
    }
    if (classifierIn.defined() && particles > 1) {
        const torch::Tensor flatD = classifierIn.detach().to(torch::kDouble).reshape({particles, -1}).contiguous();
        const auto flat = flatD.accessor<double, 2>();
        const int64_t coordinates = flatD.size(1);
        double logSum = 0.0;
        for (int64_t k = 0; k < coordinates; ++k) {
            double mean = 0.0;
            for (int64_t j = 0; j < particles; ++j) {
                mean += flat[j][k] / static_cast<double>(particles);
            }
            double variance = 0.0;
            for (int64_t j = 0; j < particles; ++j) {
                variance += (flat[j][k] - mean) * (flat[j][k] - mean) / static_cast<double>(particles);
            }
            logSum += std::log(variance + eps);
        }
        ref.repulsive = 0.5 * logSum / static_cast<double>(coordinates);
    }
    return ref;
}

bool near(double actual, double expected, double tolerance = 1e-5)
{
    return std::abs(actual - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

#define LBD_COMPARE_NEAR(actual, expected)                                                                   \
    QVERIFY2(near((actual), (expected)),                                                                     \
             qPrintable(QString("%1 = %2, expected %3").arg(#actual).arg((actual), 0, 'g', 10).arg((expected), 0, 'g', 10)))

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

std::vector<double> tensorValues(const torch::Tensor& t)
{
    const torch::Tensor d = t.detach().to(torch::kDouble).contiguous().cpu();
    return std::vector<double>(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
}

// The spec of the hand-computed example below.
ObjectiveSpec handSpec()
{
    ObjectiveSpec spec;
    spec.discrepancy.kind = DiscrepancyKind::Linear;
    spec.drwEpoch = 2;
    spec.ldamMargins = true;
    spec.maxMargin = 0.5;
    spec.scale = 1.0; // keeps the numbers small enough to check by hand
    spec.utilityTerm = true;
    spec.alpha = 0.5;
    spec.utilityMatrix = tailSensitive(3, 0.5);
    spec.utilityForm = UtilityForm::Paper; // the hand computation below is the paper's Eq. 8
    spec.repulsive = true;
    spec.tau = 40.0;
    spec.eps = 1e-8;
    return spec;
}

} // namespace

class TestObjective : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { torch::manual_seed(20240611); }

    void handComputedExample()
    {
        // C = 3, counts [81, 16, 1]: linear w = [1/81, 1/16, 1];
        // n^(-1/4) = [1/3, 1/2, 1] -> m = 0.5 * that = [1/6, 1/4, 1/2]; s = 1.
        // Epoch 5 > E_drw = 2, so w_c applies and the utility term is on.
        // M = 2, B = 2, labels [0, 2].
        const torch::Tensor logits = torch::tensor({2.0, 1.0, 0.5, 0.5, 0.2, 1.5, //
                                                    1.0, 1.5, 0.0, 0.0, 1.0, 1.0})
                                         .reshape({2, 2, 3});
        const torch::Tensor labels = torch::tensor({0, 2}, torch::kLong);
        // Classifier weights [M=2, C=3, D=2]; particle 2 = particle 1 - d with
        // d = [2, 2, 1, 4, 2, 1] per coordinate, so Var_k = (d/2)^2 = [1, 1, 1/4, 4, 1, 1/4].
        const torch::Tensor w1 = torch::tensor({1.0, 0.0, 0.0, 1.0, 0.5, 0.5});
        const torch::Tensor d = torch::tensor({2.0, 2.0, 1.0, 4.0, 2.0, 1.0});
        const torch::Tensor classifier = torch::stack({w1, w1 - d}).reshape({2, 3, 2});

        // Margin-adjusted logits (true logit minus s*m_y) and log-softmax:
        //  j=1, b=1 (y=0): [1.83333, 1.0, 0.5]  lse 2.362899 -> log p = [-0.529566, -1.362899, -1.862899]
        //  j=1, b=2 (y=2): [0.5, 0.2, 1.0]      lse 1.720694 -> log p = [-1.220694, -1.520694, -0.720694]
        //  j=2, b=1 (y=0): [0.83333, 1.5, 0.0]  lse 2.051899 -> log p = [-1.218565, -0.551899, -2.051899]
        //  j=2, b=2 (y=2): [0.0, 1.0, 0.5]      lse 1.680270 -> log p = [-1.680270, -0.680270, -1.180270]
        // CEw_j = (w0 ce_1 + w2 ce_2) / (w0 + w2) = (ce_1/81 + ce_2) / (82/81):
        //  CEw_1 = (0.529566/81 + 0.720694) * 81/82 = 0.718363
        //  CEw_2 = (1.218565/81 + 1.180270) * 81/82 = 1.180737      mean CE = 0.949550
        // U_off row 0 is zero (nothing is head-ward of class 0); row 2 = [-0.5, -0.5, 0]:
        //  UT_j = -(1/2) * w2 * (-0.5) * (log p_j(0|x_2) + log p_j(1|x_2))
        //  UT_1 = 0.25 * (-1.220694 - 1.520694) = -0.685347
        //  UT_2 = 0.25 * (-1.680270 - 0.680270) = -0.590135          mean UT = -0.637741
        // R = 0.5 * mean(log [1, 1, 0.25, 4, 1, 0.25]) = 0.5 * (-ln 4)/6 = -0.115525
        // a(5) = exp(-5/40) = 0.882497
        // L = 0.949550 + (1/0.5) * (-0.637741) - 0.882497 * (-0.115525) = -0.223982
        LbdObjective objective(handSpec(), {81, 16, 1}, kCpu);
        objective.setEpoch(5);
        const ObjectiveTerms terms = objective.compute(logits, labels, classifier);
        const ObjectiveValues v = LbdObjective::values(terms);

        const auto particleCe = tensorValues(terms.particleCe);
        QCOMPARE(particleCe.size(), size_t(2));
        LBD_COMPARE_NEAR(particleCe[0], 0.7183632403);
        LBD_COMPARE_NEAR(particleCe[1], 1.1807366928);
        LBD_COMPARE_NEAR(v.weightedCe, 0.9495499666);
        LBD_COMPARE_NEAR(v.utility, -0.6377409349);
        LBD_COMPARE_NEAR(v.utilityWeight, 2.0);
        LBD_COMPARE_NEAR(v.repulsive, -0.1155245207);
        LBD_COMPARE_NEAR(v.annealWeight, 0.8824969026);
        LBD_COMPARE_NEAR(v.total, -0.2239818715);

        // The same numbers from the loop reference.
        const Reference ref = referenceLoss(logits, labels, classifier, {1.0 / 81, 1.0 / 16, 1.0},
                                            {1.0 / 6, 0.25, 0.5}, 1.0, tailSensitive(3, 0.5), 1e-8);
        LBD_COMPARE_NEAR(v.weightedCe, ref.weightedCe);
        LBD_COMPARE_NEAR(v.utility, ref.utility);
        LBD_COMPARE_NEAR(v.repulsive, ref.repulsive);
        LBD_COMPARE_NEAR(v.total, ref.weightedCe + 2.0 * ref.utility - std::exp(-5.0 / 40.0) * ref.repulsive);
    }

    void matchesLoopReferenceAndTorchWeightedMean()
    {
        // A realistic size: s = 30, counts [100, 10, 1, 50], M = 3, B = 16, D = 5.
        const std::vector<int64_t> counts = {100, 50, 10, 1};
        ObjectiveSpec spec;
        spec.drwEpoch = 1;
        spec.alpha = 0.3;
        // Negative and positive off-diagonal utilities, so every part of the bounded form counts.
        spec.utilityMatrix = tailSensitive(4, 1.0);
        spec.utilityMatrix[1] = 0.25; // true 0, decided 1: a partial credit
        const torch::Tensor logits = 30.0 * (2.0 * torch::rand({3, 16, 4}) - 1.0);
        const torch::Tensor labels = torch::randint(0, 4, {16}, torch::kLong);
        const torch::Tensor classifier = torch::randn({3, 4, 5});
        for (const UtilityForm form : allUtilityForms()) {
            spec.utilityForm = form;
            LbdObjective objective(spec, counts, kCpu);
            objective.setEpoch(3);
            const ObjectiveValues v = LbdObjective::values(objective.compute(logits, labels, classifier));
            const Reference ref = referenceLoss(logits, labels, classifier, objective.classWeightValues(),
                                                objective.marginValues(), 30.0, spec.utilityMatrix, spec.eps, form);
            LBD_COMPARE_NEAR(v.weightedCe, ref.weightedCe);
            LBD_COMPARE_NEAR(v.utility, ref.utility);
            LBD_COMPARE_NEAR(v.repulsive, ref.repulsive);
            LBD_COMPARE_NEAR(v.total, ref.weightedCe + ref.utility / 0.3 - std::exp(-3.0 / 40.0) * ref.repulsive);
            if (form == UtilityForm::Bounded) {
                QVERIFY(v.utility >= 0.0);
                QVERIFY(objective.boundedBelow());
            } else {
                QVERIFY(!objective.boundedBelow());
            }
        }
        spec.utilityForm = UtilityForm::Paper;
        LbdObjective objective(spec, counts, kCpu);
        objective.setEpoch(3);
        const ObjectiveValues v = LbdObjective::values(objective.compute(logits, labels, classifier));

        // CEw_j has torch's weighted-mean semantics.
        namespace F = torch::nn::functional;
        const torch::Tensor adjusted = objective.marginAdjusted(logits, labels);
        double torchCe = 0.0;
        for (int64_t j = 0; j < 3; ++j) {
            torchCe += F::cross_entropy(adjusted[j], labels, F::CrossEntropyFuncOptions().weight(objective.currentWeights()))
                           .item<double>()
                / 3.0;
        }
        LBD_COMPARE_NEAR(v.weightedCe, torchCe);
    }

    // Vector A of lbd-math.md section 7: label y = 2, c = 0.5, all weights 1 (before DRW), no
    // margins; logits = log p so that softmax gives p back. Per particle: bounded 0.5249 (p_1)
    // and 0.3993 (p_2); published -0.9486 and -1.1513.
    void utilityFormsOnVectorA_data()
    {
        QTest::addColumn<int>("form");
        QTest::addColumn<double>("first");
        QTest::addColumn<double>("second");
        QTest::newRow("bounded") << int(UtilityForm::Bounded) << 0.5249 << 0.3993;
        QTest::newRow("published") << int(UtilityForm::Published) << -0.9486 << -1.1513;
        QTest::newRow("paper") << int(UtilityForm::Paper) << -0.9486 << -1.1513; // w = 1: the same
    }
    void utilityFormsOnVectorA()
    {
        QFETCH(int, form);
        QFETCH(double, first);
        QFETCH(double, second);
        ObjectiveSpec spec;
        spec.ldamMargins = false;
        spec.repulsive = false;
        spec.drwEpoch = 10; // weights 1 ...
        spec.utilityAfterDrwOnly = false; // ... and the term on
        spec.utilityForm = static_cast<UtilityForm>(form);
        spec.utilityMatrix = tailSensitive(3, 0.5);
        LbdObjective objective(spec, {100, 10, 1}, kCpu);
        const torch::Tensor logits = torch::tensor({0.50, 0.30, 0.20, 0.40, 0.25, 0.35}, torch::kDouble).log().reshape({2, 1, 3});
        const ObjectiveTerms terms = objective.compute(logits.to(torch::kFloat), torch::tensor({2}, torch::kLong));
        const auto perParticle = tensorValues(terms.particleUtility);
        QVERIFY2(std::abs(perParticle[0] - first) < 1e-4, qPrintable(QString::number(perParticle[0], 'f', 6)));
        QVERIFY2(std::abs(perParticle[1] - second) < 1e-4, qPrintable(QString::number(perParticle[1], 'f', 6)));
    }

    // The bounded form stays bounded where the others run away: as a head-ward probability goes
    // to 0, published and paper keep rewarding (log p -> -inf), bounded gives at most w * c * ln 2.
    void boundedFormIsBoundedBelow()
    {
        ObjectiveSpec spec;
        spec.ldamMargins = false;
        spec.repulsive = false;
        spec.drwEpoch = 10;
        spec.utilityAfterDrwOnly = false;
        spec.utilityMatrix = tailSensitive(3, 2.0);
        const torch::Tensor labels = torch::tensor({2}, torch::kLong);
        for (const UtilityForm form : allUtilityForms()) {
            spec.utilityForm = form;
            LbdObjective objective(spec, {100, 10, 1}, kCpu);
            double previous = kInf;
            for (const double gap : {5.0, 20.0, 60.0}) {
                // p(0) and p(1) shrink like exp(-gap) next to p(2).
                const torch::Tensor logits = torch::tensor({-gap, -gap, 0.0}).reshape({1, 1, 3});
                const double ut = LbdObjective::values(objective.compute(logits, labels)).utility;
                QVERIFY(std::isfinite(ut));
                if (form == UtilityForm::Bounded) {
                    QVERIFY(ut >= 0.0);
                } else {
                    QVERIFY2(ut < previous, "the unbounded forms keep falling");
                }
                previous = ut;
            }
            if (form != UtilityForm::Bounded) {
                QVERIFY(previous < -100.0); // -c * 2 * 60 = -240: no floor
            }
        }
    }

    void deferredReweighting()
    {
        ObjectiveSpec spec;
        spec.drwEpoch = 3;
        spec.utilityTerm = false;
        spec.repulsive = false;
        LbdObjective objective(spec, {100, 10, 1}, kCpu);
        const void* storage = objective.currentWeights().data_ptr();
        const torch::Tensor logits = torch::randn({1, 8, 3}) * 5.0;
        const torch::Tensor labels = torch::tensor({0, 0, 0, 0, 1, 1, 2, 0}, torch::kLong);
        for (int epoch = 1; epoch <= 5; ++epoch) {
            objective.setEpoch(epoch);
            QCOMPARE(objective.epoch(), epoch);
            // Filled in place: a captured graph would keep reading the same storage.
            QCOMPARE(objective.currentWeights().data_ptr(), storage);
            const auto weights = tensorValues(objective.currentWeights());
            const std::vector<double> expected = epoch <= 3 ? std::vector<double>{1.0, 1.0, 1.0}
                                                            : std::vector<double>{0.01, 0.1, 1.0};
            for (size_t c = 0; c < 3; ++c) {
                LBD_COMPARE_NEAR(weights[c], expected[c]);
            }
            const Reference ref = referenceLoss(logits, labels, {}, expected, objective.marginValues(), 30.0, {}, 1e-8);
            LBD_COMPARE_NEAR(LbdObjective::values(objective.compute(logits, labels)).weightedCe, ref.weightedCe);
        }
        // drwEpoch = 0: w_c from the first epoch.
        spec.drwEpoch = 0;
        LbdObjective fromStart(spec, {100, 10, 1}, kCpu);
        LBD_COMPARE_NEAR(tensorValues(fromStart.currentWeights())[0], 0.01);
    }

    void oneHotUtilityIsZero()
    {
        const torch::Tensor logits = torch::randn({2, 6, 3}) * 10.0;
        const torch::Tensor labels = torch::tensor({0, 1, 2, 2, 1, 0}, torch::kLong);
        const torch::Tensor classifier = torch::randn({2, 3, 4});
        ObjectiveSpec plain;
        plain.drwEpoch = 1;
        plain.utilityTerm = false;
        LbdObjective without(plain, {100, 10, 1}, kCpu);
        without.setEpoch(4);
        const double expectedTotal = LbdObjective::values(without.compute(logits, labels, classifier)).total;

        // Empty (= one-hot), identity, and a diagonal other than 1 (UT ignores the diagonal).
        const std::vector<std::vector<double>> matrices = {{}, identity(3), identity(3, 2.5)};
        for (const auto& matrix : matrices) {
            for (double alpha : {1e-3, 0.002, 0.3, 50.0}) {
                ObjectiveSpec spec = plain;
                spec.utilityTerm = true;
                spec.alpha = alpha;
                spec.utilityMatrix = matrix;
                LbdObjective objective(spec, {100, 10, 1}, kCpu);
                objective.setEpoch(4);
                QVERIFY(!objective.utilityActive());
                const ObjectiveValues v = LbdObjective::values(objective.compute(logits, labels, classifier));
                QCOMPARE(v.utility, 0.0);
                QCOMPARE(v.utilityWeight, 0.0);
                LBD_COMPARE_NEAR(v.total, expectedTotal);
            }
        }
    }

    void utilityOnlyAfterDrwIsSwitchable()
    {
        ObjectiveSpec spec;
        spec.drwEpoch = 3;
        spec.alpha = 0.25;
        spec.repulsive = false;
        spec.utilityMatrix = tailSensitive(3, 0.5);
        spec.utilityForm = UtilityForm::Paper;
        const torch::Tensor logits = torch::randn({2, 6, 3}) * 10.0;
        const torch::Tensor labels = torch::tensor({0, 1, 2, 2, 1, 2}, torch::kLong);

        LbdObjective afterDrw(spec, {100, 10, 1}, kCpu);
        QVERIFY(afterDrw.utilityActive());
        afterDrw.setEpoch(3);
        ObjectiveValues v = LbdObjective::values(afterDrw.compute(logits, labels));
        QCOMPARE(v.utilityWeight, 0.0);
        LBD_COMPARE_NEAR(v.total, v.weightedCe);
        afterDrw.setEpoch(4);
        v = LbdObjective::values(afterDrw.compute(logits, labels));
        LBD_COMPARE_NEAR(v.utilityWeight, 4.0);
        QVERIFY(v.utility < 0.0); // log-probabilities are negative and U_off <= 0 here
        LBD_COMPARE_NEAR(v.total, v.weightedCe + 4.0 * v.utility);

        // Switched off: the term applies from epoch 1, with the weights in force (1 before DRW).
        spec.utilityAfterDrwOnly = false;
        LbdObjective always(spec, {100, 10, 1}, kCpu);
        always.setEpoch(1);
        v = LbdObjective::values(always.compute(logits, labels));
        LBD_COMPARE_NEAR(v.utilityWeight, 4.0);
        const Reference ref = referenceLoss(logits, labels, {}, {1.0, 1.0, 1.0}, always.marginValues(), 30.0,
                                            spec.utilityMatrix, spec.eps);
        LBD_COMPARE_NEAR(v.utility, ref.utility);
        LBD_COMPARE_NEAR(v.total, ref.weightedCe + 4.0 * ref.utility);

        // The utility switch off ignores any matrix.
        spec.utilityTerm = false;
        QVERIFY(!LbdObjective(spec, {100, 10, 1}, kCpu).utilityActive());
    }

    void ldamMargins()
    {
        ObjectiveSpec spec; // s = 30, maxMargin = 0.5
        LbdObjective objective(spec, {100, 10, 1}, kCpu);
        // m_c = 0.5 * (n_c / n_min)^(-1/4): [0.5 * 100^-0.25, 0.5 * 10^-0.25, 0.5].
        const auto& m = objective.marginValues();
        LBD_COMPARE_NEAR(m[0], 0.1581138830);
        LBD_COMPARE_NEAR(m[1], 0.2811706626);
        QCOMPARE(m[2], 0.5);

        const torch::Tensor logits = torch::randn({2, 4, 3});
        const torch::Tensor labels = torch::tensor({0, 1, 2, 2}, torch::kLong);
        const torch::Tensor lowered = logits - objective.marginAdjusted(logits, labels);
        const auto l = lowered.accessor<float, 3>();
        const auto y = labels.accessor<int64_t, 1>();
        for (int64_t j = 0; j < 2; ++j) {
            for (int64_t b = 0; b < 4; ++b) {
                for (int64_t k = 0; k < 3; ++k) {
                    const double expected = k == y[b] ? 30.0 * m[static_cast<size_t>(k)] : 0.0;
                    QVERIFY(std::abs(l[j][b][k] - expected) < 1e-5);
                }
            }
        }
        // The rarest class gets maxMargin wherever it sits.
        LbdObjective unsorted(spec, {1, 100, 10}, kCpu);
        QCOMPARE(unsorted.marginValues()[0], 0.5);
        QVERIFY(unsorted.marginValues()[1] < unsorted.marginValues()[2]);

        spec.ldamMargins = false;
        LbdObjective none(spec, {100, 10, 1}, kCpu);
        QVERIFY(torch::equal(none.marginAdjusted(logits, labels), logits));
        QCOMPARE(none.marginValues(), std::vector<double>(3, 0.0));
    }

    void repulsionPushesParticlesApart()
    {
        ObjectiveSpec spec;
        spec.utilityTerm = false;
        spec.tau = 40.0;
        LbdObjective objective(spec, {100, 10, 1}, kCpu);
        objective.setEpoch(1);
        // The logits do not depend on W, so the gradient of L with respect to W is that of -a R.
        const torch::Tensor logits = torch::randn({3, 4, 3});
        const torch::Tensor labels = torch::tensor({0, 1, 2, 0}, torch::kLong);
        torch::Tensor weights = torch::randn({3, 3, 5}).requires_grad_(true);
        const auto varianceOf = [](const torch::Tensor& w) {
            // Written out: Tensor::var's overloads differ between LibTorch 1.13 and 2.x.
            const torch::Tensor flat = w.detach().reshape({3, -1});
            return (flat - flat.mean(0, /*keepdim=*/true)).pow(2).mean(0);
        };
        const torch::Tensor before = varianceOf(weights);
        const ObjectiveTerms terms = objective.compute(logits, labels, weights);
        const double repulsiveBefore = terms.repulsive.item<double>();
        terms.total.backward();
        const torch::Tensor stepped = weights.detach() - 0.1 * weights.grad();
        const torch::Tensor after = varianceOf(stepped);
        // Every coordinate's spread grows, and so does R.
        QVERIFY(torch::all(after > before).item<bool>());
        const double repulsiveAfter = LbdObjective::values(objective.compute(logits, labels, stepped)).repulsive;
        QVERIFY(repulsiveAfter > repulsiveBefore);

        // a(e) = exp(-e/tau), refilled in place.
        const void* storage = terms.annealWeight.data_ptr();
        for (int epoch : {1, 40, 80, 200}) {
            objective.setEpoch(epoch);
            const ObjectiveTerms t = objective.compute(logits, labels, weights);
            QCOMPARE(t.annealWeight.data_ptr(), storage);
            LBD_COMPARE_NEAR(LbdObjective::values(t).annealWeight, std::exp(-epoch / 40.0));
        }

        // One particle, or the switch off: no repulsive term.
        const torch::Tensor single = torch::randn({1, 4, 3});
        ObjectiveValues v = LbdObjective::values(objective.compute(single, labels));
        QCOMPARE(v.repulsive, 0.0);
        QCOMPARE(v.annealWeight, 0.0);
        LBD_COMPARE_NEAR(v.total, v.weightedCe);
        spec.repulsive = false;
        LbdObjective off(spec, {100, 10, 1}, kCpu);
        v = LbdObjective::values(off.compute(logits, labels));
        QCOMPARE(v.repulsive, 0.0);
        QCOMPARE(v.annealWeight, 0.0);
    }

    void reducedPrecisionLogitsArePromoted()
    {
        LbdObjective objective(handSpec(), {81, 16, 1}, kCpu);
        objective.setEpoch(5);
        const torch::Tensor logits = torch::randn({2, 4, 3});
        const torch::Tensor labels = torch::tensor({0, 1, 2, 2}, torch::kLong);
        const torch::Tensor classifier = torch::randn({2, 3, 2});
        const ObjectiveTerms half = objective.compute(logits.to(torch::kBFloat16), labels, classifier);
        QCOMPARE(half.total.scalar_type(), torch::kFloat);
        const double exact = LbdObjective::values(objective.compute(logits.to(torch::kBFloat16).to(torch::kFloat), labels, classifier)).total;
        LBD_COMPARE_NEAR(LbdObjective::values(half).total, exact);
    }

    // The CE baseline through the engine is plain cross-entropy of the raw logits.
    void crossEntropyBaselineIsPlainCrossEntropy()
    {
        const BaselinePreset ce = baselinePreset(Baseline::CrossEntropy);
        LbdObjective ceObjective(ce.objective, {100, 10, 1}, kCpu);
        const torch::Tensor logits = torch::randn({1, 6, 3});
        const torch::Tensor labels = torch::tensor({0, 1, 2, 0, 0, 1}, torch::kLong);
        LBD_COMPARE_NEAR(LbdObjective::values(ceObjective.compute(logits, labels)).total,
                         torch::nn::functional::cross_entropy(logits[0], labels).item<double>());
    }

    void validationNamesTheField()
    {
        const auto rejects = [](auto change, const char* field) {
            ObjectiveSpec spec;
            change(spec);
            expectInputError([&] { spec.validate(); }, field);
            expectInputError([&] { LbdObjective(spec, {100, 10, 1}, kCpu); }, field);
        };
        for (double bad : {std::nan(""), kInf, -1.0, 0.0}) {
            rejects([bad](ObjectiveSpec& s) { s.alpha = bad; }, "'alpha'");
            rejects([bad](ObjectiveSpec& s) { s.tau = bad; }, "'tau'");
            rejects([bad](ObjectiveSpec& s) { s.eps = bad; }, "'eps'");
            rejects([bad](ObjectiveSpec& s) { s.scale = bad; }, "'scale'");
            rejects([bad](ObjectiveSpec& s) { s.maxMargin = bad; }, "'maxMargin'");
        }
        // Checked even with the switch off.
        rejects([](ObjectiveSpec& s) { s.utilityTerm = false; s.alpha = -2.0; }, "'alpha'");
        rejects([](ObjectiveSpec& s) { s.drwEpoch = -1; }, "'drwEpoch'");
        rejects([](ObjectiveSpec& s) { s.discrepancy.beta = 1.0; }, "'beta'");
        rejects([](ObjectiveSpec& s) { s.discrepancy.gamma = std::nan(""); }, "'gamma'");

        ObjectiveSpec spec;
        spec.utilityMatrix = std::vector<double>(8, 0.0);
        expectInputError([&] { LbdObjective(spec, {100, 10, 1}, kCpu); }, "'utilityMatrix'");
        spec.utilityMatrix = identity(3);
        spec.utilityMatrix[5] = std::nan("");
        expectInputError([&] { LbdObjective(spec, {100, 10, 1}, kCpu); }, "'utilityMatrix'");
        expectInputError([] { LbdObjective(ObjectiveSpec(), {100, 0, 1}, kCpu); }, "'trainCounts'");
        expectInputError([] { LbdObjective(ObjectiveSpec(), {}, kCpu); }, "'trainCounts'");

        LbdObjective objective(ObjectiveSpec(), {100, 10, 1}, kCpu);
        expectInputError([&] { objective.setEpoch(0); }, "'epoch'");
        const torch::Tensor labels = torch::tensor({0, 1}, torch::kLong);
        expectInputError([&] { objective.compute(torch::randn({2, 2, 4}), labels); }, "'logits'");
        expectInputError([&] { objective.compute(torch::randn({2, 3}), labels); }, "'logits'");
        expectInputError([&] { objective.compute(torch::randn({2, 2, 3}), labels.to(torch::kInt)); }, "'labels'");
        expectInputError([&] { objective.compute(torch::randn({2, 3, 3}), labels); }, "'labels'");
        expectInputError([&] { objective.compute(torch::randn({2, 2, 3}), labels); }, "'classifierWeights'");
        expectInputError([&] { objective.compute(torch::randn({2, 2, 3}), labels, torch::randn({3, 3, 4})); },
                         "'classifierWeights'");
    }
};

QTEST_APPLESS_MAIN(TestObjective)
#include "test_objective.moc"
