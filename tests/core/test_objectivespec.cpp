// ObjectiveSpec's vocabulary (core/lbd/objectivespec.h): the baseline presets, what applying
// one keeps, and the warning for a training utility term that is unbounded below.
#include "core/lbd/objectivespec.h"
#include "core/lbd/utilitymatrix.h"

#include "tests/support/expect.h"

#include <QTest>

using namespace lbd;

class TestObjectiveSpec : public QObject {
    Q_OBJECT

private slots:
    void baselinePresets()
    {
        QCOMPARE(allBaselines().size(), size_t(7));
        for (Baseline baseline : allBaselines()) {
            QVERIFY(parseBaseline(baselineName(baseline)) == baseline);
            QVERIFY(!baselineTitle(baseline).empty());
            baselinePreset(baseline).objective.validate();
        }

        const BaselinePreset lbd = baselinePreset(Baseline::Lbd, 200);
        QCOMPARE(lbd.particles, 3);
        QVERIFY(lbd.objective.discrepancy.kind == DiscrepancyKind::Linear);
        QCOMPARE(lbd.objective.drwEpoch, 160);
        QVERIFY(lbd.objective.ldamMargins && lbd.objective.utilityTerm && lbd.objective.repulsive);
        QCOMPARE(baselinePreset(Baseline::Lbd, 100).objective.drwEpoch, 80);

        const BaselinePreset ce = baselinePreset(Baseline::CrossEntropy);
        QCOMPARE(ce.particles, 1);
        QVERIFY(ce.objective.discrepancy.kind == DiscrepancyKind::Constant);
        QVERIFY(!ce.objective.ldamMargins && !ce.objective.utilityTerm && !ce.objective.repulsive);

        const BaselinePreset cb = baselinePreset(Baseline::ClassBalanced);
        QCOMPARE(cb.particles, 1);
        QVERIFY(cb.objective.discrepancy.kind == DiscrepancyKind::EffectiveNumber);
        QCOMPARE(cb.objective.drwEpoch, 0); // weights from epoch 1
        QVERIFY(!cb.objective.ldamMargins && !cb.objective.utilityTerm && !cb.objective.repulsive);

        const BaselinePreset ldam = baselinePreset(Baseline::LdamDrw, 200);
        QCOMPARE(ldam.particles, 1);
        QVERIFY(ldam.objective.ldamMargins);
        QCOMPARE(ldam.objective.drwEpoch, 160);
        QVERIFY(!ldam.objective.utilityTerm && !ldam.objective.repulsive);

        const BaselinePreset ensemble = baselinePreset(Baseline::Ensemble);
        QVERIFY(ensemble.particles > 1);
        QVERIFY(ensemble.objective.discrepancy.kind == DiscrepancyKind::Constant);
        QVERIFY(!ensemble.objective.ldamMargins && !ensemble.objective.utilityTerm && !ensemble.objective.repulsive);

        QVERIFY(test::throwsInputError([] { baselinePreset(Baseline::Lbd, 0); }, {"train.epochs"}));
        QVERIFY(test::throwsInputError([] { parseBaseline("LBD"); }, {"method"}));
    }

    // A method defines only its own switches: what a preset set otherwise (alpha, tau, the
    // utility form) survives applyBaseline.
    void baselineKeepsTheRestOfTheObjective()
    {
        ObjectiveSpec spec;
        spec.alpha = 0.002;
        spec.tau = 17.0;
        spec.utilityForm = UtilityForm::Published;
        spec.discrepancy.beta = 0.999;
        int64_t particles = 7;
        applyBaseline(Baseline::Lbd, 200, spec, particles);
        QCOMPARE(spec.alpha, 0.002);
        QCOMPARE(spec.tau, 17.0);
        QCOMPARE(spec.utilityForm, UtilityForm::Published);
        QCOMPARE(spec.discrepancy.beta, 0.999);
        QCOMPARE(particles, 3);
        QCOMPARE(spec.drwEpoch, 160);
        applyBaseline(Baseline::CrossEntropy, 200, spec, particles);
        QCOMPARE(particles, 1);
        QVERIFY(!spec.utilityTerm && !spec.ldamMargins && !spec.repulsive);
        QCOMPARE(spec.alpha, 0.002);
    }

    void trainingUtilityWarningForUnboundedForms()
    {
        ObjectiveSpec spec;
        const auto tail = UtilityMatrix::tailSensitive(3, 1.0);
        QVERIFY(!trainingUtilityWarning(spec, tail)); // bounded (the default)
        spec.utilityForm = UtilityForm::Paper;
        QVERIFY(trainingUtilityWarning(spec, tail).has_value());
        spec.utilityForm = UtilityForm::Published;
        QVERIFY(trainingUtilityWarning(spec, tail).has_value());
        QVERIFY(!trainingUtilityWarning(spec, UtilityMatrix::oneHot(3)));
        UtilityMatrix positive = UtilityMatrix::oneHot(3);
        positive(0, 1) = 0.5; // only rewards: bounded below in every form
        QVERIFY(!trainingUtilityWarning(spec, positive));
        spec.utilityTerm = false;
        QVERIFY(!trainingUtilityWarning(spec, tail));
        for (const UtilityForm form : allUtilityForms()) {
            QCOMPARE(parseUtilityForm(utilityFormName(form)), form);
        }
        QVERIFY(test::throwsInputError([] { parseUtilityForm("strong"); }, {"strong"}));
    }

    // Fashion-MNIST-LT's counts (6,000 down to 60): the effective-number weights are 240-317x the
    // linear ones (tail 3.99 against 1/60; lbd-math.md section 4), so the utility term they
    // multiply is about 239x stronger at the same alpha (the largest weights' ratio).
    void utilityScaleWarningNamesTheFactor()
    {
        const std::vector<int64_t> counts = {6000, 3596, 2156, 1292, 774, 464, 278, 166, 100, 60};
        const auto tail = UtilityMatrix::tailSensitive(10, 1.0);
        ObjectiveSpec spec;
        QVERIFY(!utilityScaleWarning(spec, tail, counts)); // linear: the reference
        spec.discrepancy.kind = DiscrepancyKind::EffectiveNumber;
        const auto effective = utilityScaleWarning(spec, tail, counts);
        QVERIFY(effective.has_value());
        QVERIFY2(effective->find("239x the linear ratio's") != std::string::npos, effective->c_str());
        QVERIFY2(effective->find("largest 3.99 against 0.0167") != std::string::npos, effective->c_str());
        QVERIFY(effective->find("stronger") != std::string::npos);
        spec.discrepancy.kind = DiscrepancyKind::Constant; // 1 against 1/60: 60x
        QVERIFY(utilityScaleWarning(spec, tail, counts)->find("60x") != std::string::npos);
        spec.discrepancy.kind = DiscrepancyKind::Sqrt; // 1/sqrt(60) against 1/60: 7.75x
        QVERIFY(utilityScaleWarning(spec, tail, counts)->find("7.75x") != std::string::npos);
        spec.discrepancy.kind = DiscrepancyKind::Power; // n^-0.9: 60^0.1 = 1.5x, about the same
        spec.discrepancy.gamma = 0.9;
        QVERIFY(!utilityScaleWarning(spec, tail, counts));
        spec.discrepancy.kind = DiscrepancyKind::EffectiveNumber;
        QVERIFY(!utilityScaleWarning(spec, UtilityMatrix::oneHot(10), counts)); // no utility term to scale
        spec.discrepancy.scale = RatioScale::AsLinear; // summing like linear: the term keeps its strength
        QVERIFY(!utilityScaleWarning(spec, tail, counts));
        spec.discrepancy.scale = RatioScale::Published;
        spec.utilityTerm = false;
        QVERIFY(!utilityScaleWarning(spec, tail, counts));
    }
};

QTEST_APPLESS_MAIN(TestObjectiveSpec)
#include "test_objectivespec.moc"
