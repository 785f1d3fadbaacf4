// The objective section's method presets for the logit-adjusted loss (Menon et al., ICLR 2021) and
// Balanced Softmax (Ren et al., NeurIPS 2020): each item's tooltip cites its paper, choosing one
// sets one particle, no re-weighting or margins and the logit adjustment (tau kept for the
// logit-adjusted loss, 1 for Balanced Softmax), and the switch and tau round-trip through load/apply.
#include "core/lbd/objectivespec.h"
#include "tests/ui/uitestsupport.h"
#include "ui/panels/objectivesection.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QtTest>

using namespace lbd::ui;

class TestObjectiveBaselines : public QObject {
    Q_OBJECT

    static void choose(QComboBox* box, const QString& name)
    {
        const int index = box->findData(name);
        QVERIFY2(index >= 0, qPrintable(name));
        box->setCurrentIndex(index);
        emit box->activated(index); // what a user's choice sends
    }

private slots:
    void presetsCiteTheirPapers()
    {
        ObjectiveSection section;
        auto* baseline = section.findChild<QComboBox*>(QStringLiteral("baseline"));
        QVERIFY(baseline);
        const auto tipOf = [&](const char* name) {
            return baseline->itemData(baseline->findData(QString::fromLatin1(name)), Qt::ToolTipRole).toString();
        };
        QVERIFY2(tipOf("logit-adjusted").contains(QStringLiteral("Menon et al., ICLR 2021")), qPrintable(tipOf("logit-adjusted")));
        QVERIFY2(tipOf("balanced-softmax").contains(QStringLiteral("Ren et al., NeurIPS 2020")), qPrintable(tipOf("balanced-softmax")));
        QVERIFY(tipOf("ldam-drw").contains(QStringLiteral("Cao et al.")));
        auto* adjust = section.findChild<QCheckBox*>(QStringLiteral("logitAdjustment"));
        QVERIFY(adjust && adjust->toolTip().contains(QStringLiteral("Menon")) && adjust->toolTip().contains(QStringLiteral("Ren")));
    }

    void choosingAPresetSetsTheSwitches()
    {
        ObjectiveSection section;
        lbd::TrainConfig config = test::tinyConfig(10);
        config.objective.logitAdjustTau = 0.5;
        section.load(config);
        auto* baseline = section.findChild<QComboBox*>(QStringLiteral("baseline"));
        auto* adjust = section.findChild<QCheckBox*>(QStringLiteral("logitAdjustment"));
        auto* tau = section.findChild<QDoubleSpinBox*>(QStringLiteral("logitAdjustTau"));
        QVERIFY(baseline && adjust && tau);
        QVERIFY(!adjust->isChecked() && !tau->isEnabled());

        choose(baseline, QStringLiteral("logit-adjusted"));
        lbd::TrainConfig out;
        section.apply(out);
        QVERIFY(out.objective.logitAdjustment);
        QCOMPARE(out.objective.logitAdjustTau, 0.5); // kept, like alpha
        QCOMPARE(out.model.particles, int64_t(1));
        QVERIFY(!out.objective.ldamMargins && !out.objective.utilityTerm && !out.objective.repulsive);
        QVERIFY(out.objective.discrepancy.kind == lbd::DiscrepancyKind::Constant);
        QVERIFY(adjust->isChecked() && tau->isEnabled());

        choose(baseline, QStringLiteral("balanced-softmax"));
        section.apply(out);
        QVERIFY(out.objective.logitAdjustment);
        QCOMPARE(out.objective.logitAdjustTau, 1.0);

        // Edited by hand, and back through load().
        tau->setValue(2.25);
        section.apply(out);
        QCOMPARE(out.objective.logitAdjustTau, 2.25);
        ObjectiveSection again;
        again.load(out);
        lbd::TrainConfig back;
        again.apply(back);
        QVERIFY(back.objective.logitAdjustment);
        QCOMPARE(back.objective.logitAdjustTau, 2.25);

        choose(baseline, QStringLiteral("ce"));
        section.apply(out);
        QVERIFY(!out.objective.logitAdjustment);
        QVERIFY(!tau->isEnabled());
    }
};

QTEST_MAIN(TestObjectiveBaselines)
#include "test_objectivebaselines.moc"
