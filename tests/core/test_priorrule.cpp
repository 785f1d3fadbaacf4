// Post-hoc logit adjustment prior:tau (lbd-math.md section 9): vector H (expected and argmax decide
// the tail class; eq7 would decide the head class, so the pair is refused by the one check, and
// every place that reads the pair asks it: tunePriorTau, config files, study decision cells), and
// tunePriorTau on validation probabilities built so that the balanced accuracy peaks at a tau
// computed by hand.
#include "core/eval/decisions.h"
#include "core/infer/runtuning.h"
#include "core/lbd/priorutility.h"
#include "core/study/decisioncell.h"
#include "core/train/configjson.h"
#include "core/train/presets.h"
#include "core/util/error.h"

#include "tests/support/expect.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace lbd;

namespace {

// Two classes, counts (100, 1): prior:tau decides the tail class 1 exactly when
// pbar_1 / pi_1^tau > pbar_0 / pi_0^tau, i.e. when log10(pbar_0 / pbar_1) < 2 tau.
// Each image is given by that log-ratio.
RunResults validationOfLogRatios(const std::vector<double>& headLogRatios, const std::vector<double>& tailLogRatios)
{
    RunResults results;
    results.directory = "in-memory";
    results.split = ResultSplit::Validation;
    results.hasValidation = true;
    results.classNames = {"head", "tail"};
    results.trainCounts = {100, 1};
    results.testCounts = {0, 0};
    results.particles = 1;
    results.classes = 2;
    const auto add = [&](double logRatio, int64_t label) {
        const double r = std::pow(10.0, logRatio);
        results.probabilities.push_back(static_cast<float>(r / (1.0 + r)));
        results.probabilities.push_back(static_cast<float>(1.0 / (1.0 + r)));
        results.labels.push_back(label);
        ++results.testCounts[static_cast<size_t>(label)];
    };
    for (const double x : headLogRatios) {
        add(x, 0);
    }
    for (const double x : tailLogRatios) {
        add(x, 1);
    }
    results.images = static_cast<int64_t>(results.labels.size());
    return results;
}

} // namespace

class TestPriorRule : public QObject {
    Q_OBJECT

private slots:
    // Vector H: counts (100, 10, 1), pbar (0.2, 0.3, 0.5). prior:1 is U = diag(0.01, 0.1, 1):
    // EU = (0.002, 0.03, 0.5) -> 2; argmax -> 2; eq7 scores U_dd L_d = (0.01 ln 0.2, 0.1 ln 0.3, ln 0.5)
    // = (-0.0161, -0.1204, -0.6931) -> 0, the head class: refused.
    void vectorH()
    {
        const std::vector<int64_t> counts = {100, 10, 1};
        const UtilityMatrix prior = priorAdjusted(counts, 1.0);
        const torch::Tensor pbar = torch::tensor(std::vector<double>{0.2, 0.3, 0.5}, torch::kFloat64).view({1, 1, 3});
        const Decisions expected = decide(pbar, prior, DecisionRule::Expected);
        QCOMPARE(expected.decisions[0].item<int64_t>(), int64_t(2));
        QVERIFY(std::abs(expected.scores[0][0].item<double>() - 0.002) < 1e-12);
        QVERIFY(std::abs(expected.scores[0][1].item<double>() - 0.03) < 1e-12);
        QVERIFY(std::abs(expected.scores[0][2].item<double>() - 0.5) < 1e-12);
        QCOMPARE(decide(pbar, prior, DecisionRule::Argmax).decisions[0].item<int64_t>(), int64_t(2));
        const Decisions eq7 = decide(pbar, prior, DecisionRule::Eq7); // what the refusal prevents
        QCOMPARE(eq7.decisions[0].item<int64_t>(), int64_t(0));
        QVERIFY(std::abs(eq7.scores[0][0].item<double>() - 0.01 * std::log(0.2)) < 1e-12);

        QVERIFY(priorUtilityRefusal(DecisionRule::Eq7));
        for (const DecisionRule rule : {DecisionRule::Expected, DecisionRule::Argmax, DecisionRule::MeanLogit}) {
            QVERIFY(!priorUtilityRefusal(rule));
        }
        QVERIFY(test::throwsInputError([] { checkPriorUtilityRule(DecisionRule::Eq7, "--utility prior:1"); },
                                       {"--utility prior:1", "head class wins", "vector H", "expected"}));
        QVERIFY(isPriorUtilitySpec(" Prior:1 ") && isPriorUtilitySpec("prior:x") && !isPriorUtilitySpec("tail:1"));
    }

    // Where the pair can be written down, it is refused with the reason.
    void everyPlaceRefusesPriorWithEq7()
    {
        const RunResults validation = validationOfLogRatios({1.0}, {1.0});
        QVERIFY(test::throwsInputError([&] { tunePriorTau(validation, DecisionRule::Eq7); }, {"tuning prior:tau", "vector H"}));

        nlohmann::json config = loadPresetJson("quick-cpu");
        config["decision"] = {{"utility", "prior:1"}, {"rule", "eq7"}, {"defer", nullptr}};
        QVERIFY(test::throwsInputError([&] { trainConfigFromJson(config, "config.json"); },
                                       {"decision.utility prior:1", "vector H"}));

        const nlohmann::json cell = {{"utility", "prior:1"}, {"rule", "eq7"}};
        QVERIFY(test::throwsInputError([&] { studyDecisionFromJson(cell, "factors[0].levels[2].decision"); },
                                       {"factors[0].levels[2].decision.rule", "vector H"}));
        const nlohmann::json tune = {{"utility", "prior:tune"}, {"rule", "eq7"}};
        QVERIFY(test::throwsInputError([&] { studyDecisionFromJson(tune, "decision"); }, {"prior:tune", "vector H"}));
        QCOMPARE(studyDecisionFromJson({{"utility", "prior:1"}, {"rule", "expected"}}, "decision").rule, std::string("expected"));
    }

    // Head images (label 0) at log-ratios 1.6, 1.7, 1.8 and 0.2, tail images (label 1) at 1.2, 1.3,
    // 1.4 and 3.2. With threshold t = 2 tau, a head image is right when its log-ratio >= t, a tail
    // image when it is < t. On the default grid:
    //   tau 0 (t 0): head 4/4, tail 0/4 -> balanced 0.5;  tau 0.25..0.5 (t 0.5, 1): 3/4, 0/4 -> 0.375;
    //   tau 0.75 (t 1.5): 3/4, 3/4 -> 0.75;  tau 1..1.5 (t 2..3): 0/4, 3/4 -> 0.375;
    //   tau 1.75..3 (t 3.5..6): 0/4, 4/4 -> 0.5.
    // So tau = 0.75, uniquely; the worst taus give 0.375.
    void tuningFindsTheHandComputedTau()
    {
        const RunResults validation = validationOfLogRatios({1.6, 1.7, 1.8, 0.2}, {1.2, 1.3, 1.4, 3.2});
        const TunedPriorTau tuned = tunePriorTau(validation, DecisionRule::Expected);
        QCOMPARE(tuned.tau, 0.75);
        QCOMPARE(tuned.candidates.size(), defaultPriorTaus().size());
        const std::vector<double> expected = {0.5, 0.375, 0.375, 0.75, 0.375, 0.375, 0.375, 0.5, 0.5, 0.5, 0.5};
        for (size_t i = 0; i < expected.size(); ++i) {
            QVERIFY2(std::abs(tuned.candidates[i].balancedAccuracy - expected[i]) < 1e-12,
                     qPrintable(QStringLiteral("tau %1: balanced %2, by hand %3")
                                    .arg(tuned.candidates[i].tau).arg(tuned.candidates[i].balancedAccuracy).arg(expected[i])));
        }
        // 6 of the 8 images right at tau = 0.75.
        QVERIFY2(std::abs(tuned.candidates[3].accuracy - 0.75) < 1e-12, qPrintable(QString::number(tuned.candidates[3].accuracy)));
        // A grid without 0.75: the best left is 0.5, at tau 0 and 2 (ties go to the smaller tau).
        QCOMPARE(tunePriorTau(validation, DecisionRule::Expected, {0.0, 1.0, 2.0}).tau, 0.0);
        QCOMPARE(tunePriorTau(validation, DecisionRule::Expected, {0.5, 0.75, 1.0}).tau, 0.75);
    }
};

QTEST_APPLESS_MAIN(TestPriorRule)
#include "test_priorrule.moc"
