// Decision rules on the hand-checked vector A of lbd-math.md section 7.
#include "core/eval/decisions.h"
#include "core/util/error.h"

#include <QtTest>

using namespace lbd;

namespace {

// Vector A: M = 2, C = 3, one image.
torch::Tensor vectorA(torch::Dtype dtype = torch::kFloat64)
{
    return torch::tensor({0.50, 0.30, 0.20, 0.40, 0.25, 0.35}, torch::kFloat64).view({2, 1, 3}).to(dtype);
}

void compareScores(const torch::Tensor& scores, const std::vector<double>& expected, double tolerance)
{
    QCOMPARE(scores.dim(), 2);
    QCOMPARE(scores.size(1), static_cast<int64_t>(expected.size()));
    const torch::Tensor row = scores[0].to(torch::kCPU, torch::kFloat64);
    for (size_t d = 0; d < expected.size(); ++d) {
        const double actual = row[static_cast<int64_t>(d)].item<double>();
        if (std::abs(actual - expected[d]) > tolerance) {
            QFAIL(qPrintable(QStringLiteral("score[%1] = %2, expected %3").arg(d).arg(actual, 0, 'f', 6).arg(expected[d])));
        }
    }
}

} // namespace

class TestDecisions : public QObject {
    Q_OBJECT

private slots:
    void argmaxIgnoresUtility()
    {
        const Decisions decided = decide(vectorA(), UtilityMatrix::tailSensitive(3, 1.0), DecisionRule::Argmax);
        compareScores(decided.scores, {0.45, 0.275, 0.275}, 1e-12);
        QCOMPARE(decided.decisions.scalar_type(), torch::kInt64);
        QCOMPARE(decided.decisions[0].item<int64_t>(), int64_t{0});
    }

    void oneHot_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::newRow("double") << static_cast<int>(torch::kFloat64);
        QTest::newRow("float") << static_cast<int>(torch::kFloat32);
    }
    void oneHot()
    {
        QFETCH(int, dtype);
        const auto probs = vectorA(static_cast<torch::Dtype>(dtype));
        const auto u = UtilityMatrix::oneHot(3);
        const Decisions lbd = decide(probs, u, DecisionRule::Lbd);
        compareScores(lbd.scores, {-0.8047, -1.2951, -1.3296}, 1e-4);
        QCOMPARE(lbd.decisions[0].item<int64_t>(), int64_t{0});
        const Decisions eu = decide(probs, u, DecisionRule::ExpectedUtility);
        compareScores(eu.scores, {0.45, 0.275, 0.275}, 1e-6);
        QCOMPARE(eu.decisions[0].item<int64_t>(), int64_t{0});
        QCOMPARE(lbd.scores.scalar_type(), static_cast<torch::Dtype>(dtype));
    }

    void tailSensitive_data()
    {
        QTest::addColumn<double>("penalty");
        QTest::addColumn<std::vector<double>>("lbdScores");
        QTest::addColumn<std::vector<double>>("euScores");
        QTest::newRow("c=0.5") << 0.5 << std::vector<double>{-0.8047, -0.8928, -0.2797}
                               << std::vector<double>{0.175, 0.1375, 0.275};
        QTest::newRow("c=1.0") << 1.0 << std::vector<double>{-0.8047, -0.4904, 0.7702}
                               << std::vector<double>{-0.1, 0.0, 0.275};
    }
    void tailSensitive()
    {
        QFETCH(double, penalty);
        QFETCH(std::vector<double>, lbdScores);
        QFETCH(std::vector<double>, euScores);
        const auto u = UtilityMatrix::tailSensitive(3, penalty);
        const Decisions lbd = decide(vectorA(), u, DecisionRule::Lbd);
        compareScores(lbd.scores, lbdScores, 1e-4);
        QCOMPARE(lbd.decisions[0].item<int64_t>(), int64_t{2});
        const Decisions eu = decide(vectorA(), u, DecisionRule::ExpectedUtility);
        compareScores(eu.scores, euScores, 1e-4);
        QCOMPARE(eu.decisions[0].item<int64_t>(), int64_t{2});
    }

    // The orientation matters: LBD uses U[d, k] (row = decision), EU uses U[t, d] (column =
    // decision). A non-symmetric U with distinct rows catches a transposed implementation.
    void orientationOfNonSymmetricUtility()
    {
        UtilityMatrix u(3, {1, 2, 3, 4, 5, 6, 7, 8, 10});
        const auto probs = vectorA();
        const torch::Tensor meanLog = probs.log().mean(0)[0];
        const torch::Tensor pbar = probs.mean(0)[0];
        std::vector<double> lbdExpected(3), euExpected(3);
        for (int d = 0; d < 3; ++d) {
            for (int k = 0; k < 3; ++k) {
                lbdExpected[d] += u(d, k) * meanLog[k].item<double>();
                euExpected[d] += pbar[k].item<double>() * u(k, d);
            }
        }
        compareScores(decisionScores(probs, u, DecisionRule::Lbd), lbdExpected, 1e-12);
        compareScores(decisionScores(probs, u, DecisionRule::ExpectedUtility), euExpected, 1e-12);
    }

    void zeroProbabilitiesGiveFiniteScores()
    {
        // p(k) = 0 with U[d, k] = 0 must be 0, not -inf * 0 = NaN.
        const auto probs = torch::tensor({1.0, 0.0, 0.0, 0.9, 0.1, 0.0}, torch::kFloat32).view({2, 1, 3});
        const Decisions decided = decide(probs, UtilityMatrix::oneHot(3), DecisionRule::Lbd);
        QVERIFY(torch::isfinite(decided.scores).all().item<bool>());
        QCOMPARE(decided.decisions[0].item<int64_t>(), int64_t{0});
    }

    void batchOfImagesAndSingleParticle()
    {
        // [N, C] input is one particle; each row decided on its own.
        const auto probs = torch::tensor({0.1, 0.7, 0.2, 0.6, 0.3, 0.1, 0.2, 0.2, 0.6}, torch::kFloat64).view({3, 3});
        const Decisions decided = decide(probs, UtilityMatrix::oneHot(3), DecisionRule::Lbd);
        QCOMPARE(decided.decisions.sizes().vec(), std::vector<int64_t>({3}));
        QCOMPARE(decided.decisions[0].item<int64_t>(), int64_t{1});
        QCOMPARE(decided.decisions[1].item<int64_t>(), int64_t{0});
        QCOMPARE(decided.decisions[2].item<int64_t>(), int64_t{2});
        QCOMPARE(predictiveMean(probs).sizes().vec(), std::vector<int64_t>({3, 3}));
    }

    void wrongUtilitySizeThrows()
    {
        try {
            decide(vectorA(), UtilityMatrix::oneHot(4), DecisionRule::Lbd);
            QFAIL("expected InputError");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).contains("4 x 4"), error.what());
            QVERIFY2(QString(error.what()).contains("3 classes"), error.what());
        }
        QVERIFY_THROWS_EXCEPTION(InputError, decide(torch::ones({3}), UtilityMatrix::oneHot(3), DecisionRule::Lbd));
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 decide(torch::ones({1, 1, 3}, torch::kInt64), UtilityMatrix::oneHot(3), DecisionRule::Lbd));
    }

    void ruleNames()
    {
        for (const auto rule : {DecisionRule::Argmax, DecisionRule::Lbd, DecisionRule::ExpectedUtility}) {
            QCOMPARE(parseDecisionRule(decisionRuleName(rule)), rule);
        }
        QCOMPARE(decisionRuleName(DecisionRule::ExpectedUtility), std::string("expected"));
        try {
            parseDecisionRule("bayes");
            QFAIL("expected InputError");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).contains("bayes"), error.what());
        }
    }

    void cudaMatchesCpu()
    {
        if (!torch::cuda::is_available()) {
            QSKIP("no CUDA device");
        }
        const auto u = UtilityMatrix::tailSensitive(3, 0.5);
        for (const auto rule : {DecisionRule::Argmax, DecisionRule::Lbd, DecisionRule::ExpectedUtility}) {
            const Decisions cpu = decide(vectorA(torch::kFloat32), u, rule);
            const Decisions gpu = decide(vectorA(torch::kFloat32).to(torch::kCUDA), u, rule);
            QVERIFY(gpu.scores.is_cuda());
            QVERIFY(torch::allclose(cpu.scores, gpu.scores.cpu(), 1e-5, 1e-6));
            QCOMPARE(gpu.decisions.cpu()[0].item<int64_t>(), cpu.decisions[0].item<int64_t>());
        }
    }
};

QTEST_APPLESS_MAIN(TestDecisions)
#include "test_decisions.moc"
