// Temperature scaling in the GUI (issue 29): the Decision lab's "Calibrated" box fits T on a run's
// validation split the first time it is checked (temperature.json), decides the calibrated pbar
// and says T and the test ECE / NLL before and after; a run without a validation split offers no
// calibration. The Calibration page then lists the final test evaluation with that T, its scores
// before / after, beside Brier, classwise and adaptive ECE and the ECE interval. The lab's tuning
// panel tunes tau of the logit-adjustment preset prior:tau on the validation split.
#include "tests/ui/uitestsupport.h"

#include "core/eval/temperature.h"
#include "core/infer/runresults.h"
#include "core/infer/runtuning.h"
#include "core/lbd/priorutility.h"
#include "core/train/trainer.h"
#include "tests/support/tinyconfig.h"
#include "ui/app/mainwindow.h"
#include "ui/pages/calibrationpage.h"
#include "ui/decisionlab/tuningpanel.h"
#include "ui/pages/decisionlabpage.h"
#include "ui/utility/utilitydocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace lbd::ui;

class TestCalibratedViews : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_withValidation;
    QString m_withoutValidation;

private slots:
    void initTestCase()
    {
        test::isolateSettings(m_dir);
        m_withValidation = m_dir.filePath(QStringLiteral("runs/with-validation"));
        m_withoutValidation = m_dir.filePath(QStringLiteral("runs/without-validation"));
        lbd::TrainConfig config = lbd::test::tinyConfig(2);
        config.decision.rule = lbd::DecisionRule::Expected;
        config.data.longTail.validationFraction = 0.25;
        QCOMPARE(lbd::Trainer(config, m_withValidation.toStdString(), false).run({}, nullptr).epochsCompleted, 2);
        QCOMPARE(lbd::Trainer(lbd::test::tinyConfig(2), m_withoutValidation.toStdString(), false).run({}, nullptr)
                     .epochsCompleted,
                 2);
    }

    void decisionLabFitsAndAppliesTheTemperature()
    {
        MainWindow window;
        DecisionLabPage* lab = window.decisionLabPage();
        QVERIFY(window.openRun(m_withValidation));
        QTRY_VERIFY_WITH_TIMEOUT(lab->hasRun() && lab->labReport().has_value() && !lab->isBusy(), 30000);
        QCheckBox* box = lab->calibratedBox();
        QVERIFY(box->isEnabled());
        QVERIFY2(box->text().contains(QStringLiteral("fitted on validation when checked")), qPrintable(box->text()));
        QVERIFY(!lab->evaluatedTemperature());
        const QString file = m_withValidation + QStringLiteral("/temperature.json");
        QVERIFY(!QFileInfo::exists(file));

        lab->setRule(lbd::DecisionRule::Argmax);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && lab->labReport()->rule == lbd::DecisionRule::Argmax, 30000);
        const lbd::EvaluationReport uncalibrated = *lab->labReport();
        box->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && lab->evaluatedTemperature().has_value(), 30000);
        QVERIFY(QFileInfo(file).isFile());
        const auto fit = lbd::loadTemperature(m_withValidation.toStdString());
        QVERIFY(fit);
        QCOMPARE(*lab->evaluatedTemperature(), fit->temperature);
        // Argmax decides the same classes; the confidences, hence NLL and ECE, are the scaled ones.
        QCOMPARE(lab->labReport()->confusion, uncalibrated.confusion);
        QVERIFY(lab->labReport()->uncalibrated);
        QCOMPARE(lab->labReport()->uncalibrated->nll, uncalibrated.nll);
        const lbd::RunResults results = lbd::loadRunResults(m_withValidation.toStdString());
        const lbd::EvaluationReport expected = lbd::evaluateCalibrated(results, fit->temperature, results.decisions.decisionUtility,
                                                                       lbd::DecisionRule::Argmax);
        QCOMPARE(lab->labReport()->nll, expected.nll);
        QCOMPARE(lab->labReport()->calibration.ece, expected.calibration.ece);
        QVERIFY2(box->text().contains(QStringLiteral("T = %1").arg(fit->temperature, 0, 'f', 2)), qPrintable(box->text()));
        QVERIFY2(lab->calibrationNote().contains(QStringLiteral("ECE %1").arg(uncalibrated.calibration.ece, 0, 'f', 4)),
                 qPrintable(lab->calibrationNote()));
        QVERIFY2(lab->calibrationNote().contains(QStringLiteral("NLL %1").arg(uncalibrated.nll, 0, 'f', 4)),
                 qPrintable(lab->calibrationNote()));

        // Unchecked: the plain pbar again.
        box->setChecked(false);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && !lab->evaluatedTemperature().has_value(), 30000);
        QCOMPARE(lab->labReport()->nll, uncalibrated.nll);
        QVERIFY(lab->calibrationNote().isEmpty());
    }

    void aRunWithoutValidationOffersNoCalibration()
    {
        MainWindow window;
        DecisionLabPage* lab = window.decisionLabPage();
        QVERIFY(window.openRun(m_withoutValidation));
        QTRY_VERIFY_WITH_TIMEOUT(lab->hasRun() && lab->labReport().has_value() && !lab->isBusy(), 30000);
        QVERIFY(!lab->calibratedBox()->isEnabled());
        QVERIFY2(lab->calibratedBox()->text().contains(QStringLiteral("no validation split")),
                 qPrintable(lab->calibratedBox()->text()));
    }

    // Logit adjustment tuned like c: tau on the validation split, the shared matrix set to prior:tau.
    void decisionLabTunesThePriorTau()
    {
        MainWindow window;
        DecisionLabPage* lab = window.decisionLabPage();
        QVERIFY(window.openRun(m_withValidation));
        QTRY_VERIFY_WITH_TIMEOUT(lab->hasRun() && lab->labReport().has_value() && !lab->isBusy(), 30000);
        lab->setRule(lbd::DecisionRule::Expected);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && lab->labReport()->rule == lbd::DecisionRule::Expected, 30000);
        DecisionTuningPanel* tuning = lab->tuning();
        QVERIFY(tuning->priorButton()->isEnabled());
        QSignalSpy tuned(tuning, &DecisionTuningPanel::tuned);
        QTest::mouseClick(tuning->priorButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!tuned.isEmpty() && !lab->isBusy(), 30000);
        const lbd::RunResults validation = lbd::loadRunResults(m_withValidation.toStdString(), lbd::ResultSplit::Validation);
        const double tau = lbd::tunePriorTau(validation, lbd::DecisionRule::Expected).tau;
        QVERIFY(tuning->tunedTau());
        QCOMPARE(*tuning->tunedTau(), tau);
        const lbd::UtilityMatrix expected = lbd::priorAdjusted(validation.trainCounts, tau);
        QCOMPARE(window.utilityDocument()->matrix(), expected);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && lab->evaluatedMatrix() == expected, 30000);
        QVERIFY2(tuning->resultText().contains(QStringLiteral("validation")), qPrintable(tuning->resultText()));

        // With eq7, prior:tau would decide the head class (vector H): the button is off and says why.
        window.utilityDocument()->setRule(lbd::DecisionRule::Eq7);
        QVERIFY(!tuning->priorButton()->isEnabled());
        QVERIFY2(tuning->priorButton()->toolTip().contains(QStringLiteral("vector H")), qPrintable(tuning->priorButton()->toolTip()));
        window.utilityDocument()->setRule(lbd::DecisionRule::Expected);
        QTRY_VERIFY_WITH_TIMEOUT(tuning->priorButton()->isEnabled(), 30000);

        // Without a validation split the button is off.
        QVERIFY(window.openRun(m_withoutValidation));
        QTRY_VERIFY_WITH_TIMEOUT(lab->hasRun() && lab->runDirectory() == m_withoutValidation && !lab->isBusy(), 30000);
        QVERIFY(!tuning->priorButton()->isEnabled());
    }

    void calibrationPageShowsBeforeAndAfter()
    {
        // After decisionLabFitsAndAppliesTheTemperature the run has its temperature.json.
        const auto fit = lbd::runTemperature(m_withValidation.toStdString());
        CalibrationPage page;
        RunContext context;
        context.runDirectory = m_withValidation;
        page.beginRun(context);
        QTRY_VERIFY_WITH_TIMEOUT(!page.isBusy() && page.evaluationCount() == 1, 30000);
        auto* evaluation = page.findChild<QComboBox*>(QStringLiteral("calibrationEvaluation"));
        QVERIFY(evaluation);
        QVERIFY2(evaluation->currentText().contains(QStringLiteral("calibrated")), qPrintable(evaluation->currentText()));
        const QString scores = page.scoresText();
        QVERIFY2(scores.contains(QStringLiteral("T = %1").arg(fit.temperature, 0, 'f', 4)), qPrintable(scores));
        QVERIFY2(scores.contains(QStringLiteral("Before")), qPrintable(scores));
        QVERIFY2(scores.contains(QStringLiteral("Brier")) && scores.contains(QStringLiteral("adaptive ECE"))
                     && scores.contains(QStringLiteral("classwise ECE")),
                 qPrintable(scores));

        // A run without a temperature lists no calibrated entry.
        CalibrationPage plain;
        context.runDirectory = m_withoutValidation;
        plain.beginRun(context);
        QTRY_VERIFY_WITH_TIMEOUT(!plain.isBusy(), 30000);
        QCOMPARE(plain.evaluationCount(), 0);
    }
};

QTEST_MAIN(TestCalibratedViews)
#include "test_calibratedviews.moc"
