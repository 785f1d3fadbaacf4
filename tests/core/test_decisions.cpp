// Decision rules on the hand-checked vector A of lbd-math.md section 7.
#include "core/eval/decisions.h"
#include "core/util/error.h"

#include <QtTest>

#include <limits>

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
        const Decisions lbd = decide(probs, u, DecisionRule::Eq7);
        compareScores(lbd.scores, {-0.8047, -1.2951, -1.3296}, 1e-4);
        QCOMPARE(lbd.decisions[0].item<int64_t>(), int64_t{0});
        const Decisions eu = decide(probs, u, DecisionRule::Expected);
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
        const Decisions lbd = decide(vectorA(), u, DecisionRule::Eq7);
        compareScores(lbd.scores, lbdScores, 1e-4);
        QCOMPARE(lbd.decisions[0].item<int64_t>(), int64_t{2});
        const Decisions eu = decide(vectorA(), u, DecisionRule::Expected);
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
        compareScores(decisionScores(probs, u, DecisionRule::Eq7), lbdExpected, 1e-12);
        compareScores(decisionScores(probs, u, DecisionRule::Expected), euExpected, 1e-12);
    }

    void zeroProbabilitiesGiveFiniteScores()
    {
        // p(k) = 0 with U[d, k] = 0 must be 0, not -inf * 0 = NaN.
        const auto probs = torch::tensor({1.0, 0.0, 0.0, 0.9, 0.1, 0.0}, torch::kFloat32).view({2, 1, 3});
        const Decisions decided = decide(probs, UtilityMatrix::oneHot(3), DecisionRule::Eq7);
        QVERIFY(torch::isfinite(decided.scores).all().item<bool>());
        QCOMPARE(decided.decisions[0].item<int64_t>(), int64_t{0});
    }

    void batchOfImagesAndSingleParticle()
    {
        // [N, C] input is one particle; each row decided on its own.
        const auto probs = torch::tensor({0.1, 0.7, 0.2, 0.6, 0.3, 0.1, 0.2, 0.2, 0.6}, torch::kFloat64).view({3, 3});
        const Decisions decided = decide(probs, UtilityMatrix::oneHot(3), DecisionRule::Eq7);
        QCOMPARE(decided.decisions.sizes().vec(), std::vector<int64_t>({3}));
        QCOMPARE(decided.decisions[0].item<int64_t>(), int64_t{1});
        QCOMPARE(decided.decisions[1].item<int64_t>(), int64_t{0});
        QCOMPARE(decided.decisions[2].item<int64_t>(), int64_t{2});
        QCOMPARE(predictiveMean(probs).sizes().vec(), std::vector<int64_t>({3, 3}));
    }

    void wrongUtilitySizeThrows()
    {
        try {
            decide(vectorA(), UtilityMatrix::oneHot(4), DecisionRule::Eq7);
            QFAIL("expected InputError");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).contains("4 x 4"), error.what());
            QVERIFY2(QString(error.what()).contains("3 classes"), error.what());
        }
        QVERIFY_THROWS_EXCEPTION(InputError, decide(torch::ones({3}), UtilityMatrix::oneHot(3), DecisionRule::Eq7));
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 decide(torch::ones({1, 1, 3}, torch::kInt64), UtilityMatrix::oneHot(3), DecisionRule::Eq7));
    }

    // Vector A: mean-logit decides by L = (1/M) sum_j log p_j = [-0.8047, -1.2951, -1.3296] and
    // ignores U (it is the published code's test-time decision).
    void meanLogitIsThePublishedDecision()
    {
        for (const auto& u : {UtilityMatrix::oneHot(3), UtilityMatrix::tailSensitive(3, 1.0)}) {
            const Decisions decided = decide(vectorA(), u, DecisionRule::MeanLogit);
            compareScores(decided.scores, {-0.8047, -1.2951, -1.3296}, 1e-4);
            QCOMPARE(decided.decisions[0].item<int64_t>(), int64_t{0});
            // Its confidence is pbar of the decision: 0.45.
            QVERIFY(std::abs(decided.confidence[0].item<double>() - 0.45) < 1e-12);
        }
    }

    // Vector A's defer thresholds: tail c = 0.5 defers when r > 0.275 (max EU), one-hot when
    // r > 0.45 (max EU = max pbar).
    void deferThresholdsOfVectorA_data()
    {
        QTest::addColumn<double>("penalty"); // < 0: one-hot
        QTest::addColumn<double>("deferUtility");
        QTest::addColumn<bool>("deferred");
        QTest::newRow("tail 0.5, r = 0.27") << 0.5 << 0.27 << false;
        QTest::newRow("tail 0.5, r = 0.275") << 0.5 << 0.275 << false;
        QTest::newRow("tail 0.5, r = 0.28") << 0.5 << 0.28 << true;
        QTest::newRow("one-hot, r = 0.44") << -1.0 << 0.44 << false;
        QTest::newRow("one-hot, r = 0.45") << -1.0 << 0.45 << false;
        QTest::newRow("one-hot, r = 0.46") << -1.0 << 0.46 << true;
    }
    void deferThresholdsOfVectorA()
    {
        QFETCH(double, penalty);
        QFETCH(double, deferUtility);
        QFETCH(bool, deferred);
        const auto u = penalty < 0 ? UtilityMatrix::oneHot(3) : UtilityMatrix::tailSensitive(3, penalty);
        const Decisions decided = decide(vectorA(), u, DecisionRule::Expected, deferUtility);
        QCOMPARE(decided.decisions[0].item<int64_t>() == kDeferred, deferred);
        QCOMPARE(decided.undeferred[0].item<int64_t>(), penalty < 0 ? int64_t{0} : int64_t{2});
        QVERIFY(std::abs(decided.confidence[0].item<double>() - (penalty < 0 ? 0.45 : 0.275)) < 1e-12);
        // argmax scores with pbar, i.e. the one-hot expected utility: the same thresholds.
        if (penalty < 0) {
            const Decisions argmax = decide(vectorA(), UtilityMatrix::tailSensitive(3, 1.0), DecisionRule::Argmax, deferUtility);
            QCOMPARE(argmax.decisions[0].item<int64_t>() == kDeferred, deferred);
        }
    }

    void deferNeedsARuleThatScoresWithExpectedUtility()
    {
        for (const auto rule : {DecisionRule::MeanLogit, DecisionRule::Eq7}) {
            try {
                decide(vectorA(), UtilityMatrix::oneHot(3), rule, 0.3);
                QFAIL("expected InputError");
            } catch (const InputError& error) {
                QVERIFY2(QString(error.what()).contains(QString::fromStdString(decisionRuleName(rule))), error.what());
            }
        }
        QVERIFY_THROWS_EXCEPTION(InputError, decide(vectorA(), UtilityMatrix::oneHot(3), DecisionRule::Expected,
                                                    std::numeric_limits<double>::quiet_NaN()));
    }

    // One registry: every rule once, the default (expected) first, the published names.
    void registryOrderAndNames()
    {
        const auto& rules = decisionRules();
        QCOMPARE(rules.size(), size_t{4});
        QCOMPARE(rules.front().rule, kDefaultDecisionRule);
        QCOMPARE(kDefaultDecisionRule, DecisionRule::Expected);
        const std::vector<std::string> names = {"expected", "argmax", "mean-logit", "eq7"};
        for (size_t i = 0; i < rules.size(); ++i) {
            QCOMPARE(rules[i].name, names[i]);
            QVERIFY(!rules[i].title.empty() && !rules[i].description.empty());
            QCOMPARE(decisionRuleInfo(rules[i].rule).name, names[i]);
        }
        QVERIFY(decisionRuleInfo(DecisionRule::Eq7).experimental);
        QCOMPARE(parseDecisionRule("lbd"), DecisionRule::Eq7); // run folders from before the registry
        QCOMPARE(decisionRuleNameList(), std::string("expected, argmax, mean-logit or eq7"));
    }

    // eq7 with a negative entry warns; with a non-negative matrix, and every other rule, it does not.
    void eq7WarnsWithNegativeUtilities()
    {
        QVERIFY(decisionRuleWarning(DecisionRule::Eq7, UtilityMatrix::tailSensitive(3, 0.5)).has_value());
        QVERIFY(!decisionRuleWarning(DecisionRule::Eq7, UtilityMatrix::oneHot(3)).has_value());
        for (const auto rule : {DecisionRule::Expected, DecisionRule::Argmax, DecisionRule::MeanLogit}) {
            QVERIFY(!decisionRuleWarning(rule, UtilityMatrix::tailSensitive(3, 2.0)).has_value());
        }
    }

    void ruleNames()
    {
        for (const auto rule : {DecisionRule::Argmax, DecisionRule::Eq7, DecisionRule::Expected, DecisionRule::MeanLogit}) {
            QCOMPARE(parseDecisionRule(decisionRuleName(rule)), rule);
        }
        QCOMPARE(decisionRuleName(DecisionRule::Expected), std::string("expected"));
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
        for (const auto rule : {DecisionRule::Argmax, DecisionRule::Eq7, DecisionRule::Expected, DecisionRule::MeanLogit}) {
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
