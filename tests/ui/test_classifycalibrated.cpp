// The Classify page's "Calibrated (T = ...)" toggle (issue 29) on a tiny run trained here:
// disabled with a tooltip saying how to make temperature.json while the run has none; with one
// (T = 2.5), checking it re-decides the list with pbar = softmax(log pbar / T) (checked by hand
// against the uncalibrated pbar), says so in the list and the header, and the per-particle rules
// disable it again.
#include "core/eval/temperature.h"
#include "core/train/trainer.h"
#include "datasets/common/imagedecoder.h"
#include "tests/ui/uitestsupport.h"
#include "ui/pages/classifycalibration.h"
#include "ui/pages/classifypage.h"
#include "ui/utility/utilitydocument.h"

#include <QImage>
#include <QListWidget>
#include <QPainter>
#include <QSignalSpy>
#include <QtTest>

#include <cmath>
#include <memory>

using namespace lbd::ui;

class TestClassifyCalibrated : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_run;
    QString m_image;
    std::unique_ptr<UtilityDocument> m_document;
    std::unique_ptr<ClassifyPage> m_page;

    void waitIdle()
    {
        QTRY_VERIFY_WITH_TIMEOUT(!m_page->isBusy(), 60000);
    }

    void loadRun()
    {
        QSignalSpy loaded(m_page.get(), &ClassifyPage::predictorLoaded);
        m_page->setRun(m_run);
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 60000);
        QVERIFY2(loaded.first().first().toBool(), qPrintable(loaded.first().at(1).toString()));
        waitIdle();
    }

private slots:
    void initTestCase()
    {
        test::isolateSettings(m_dir);
        if (!lbd::imageDecodingAvailable()) {
            QSKIP("this build has no OpenCV: it cannot decode image files");
        }
        m_run = m_dir.filePath(QStringLiteral("run"));
        lbd::Trainer trainer(test::tinyConfig(1), m_run.toStdString(), false);
        QCOMPARE(trainer.run({}, nullptr).epochsCompleted, 1);
        QImage image(16, 16, QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter(&image).fillRect(3, 5, 9, 7, Qt::darkRed);
        m_image = m_dir.filePath(QStringLiteral("shape.png"));
        QVERIFY(image.save(m_image));
        m_document = std::make_unique<UtilityDocument>();
        m_document->setRule(lbd::DecisionRule::Expected);
        // The run's 4 classes with a tail-sensitive matrix: the confidence is checked by hand below.
        m_document->setClassNames({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d")});
        QVERIFY(m_document->setMatrix(lbd::UtilityMatrix::tailSensitive(4, 1.0)));
        m_page = std::make_unique<ClassifyPage>(m_document.get());
        m_page->resize(1200, 800);
    }

    void disabledWithoutATemperatureFile()
    {
        loadRun();
        QVERIFY(m_page->usesDocumentMatrix());
        ClassifyCalibration* toggle = m_page->calibrationToggle();
        QVERIFY(toggle && !toggle->isEnabled());
        QCOMPARE(toggle->text(), QStringLiteral("Calibrated"));
        QVERIFY2(toggle->toolTip().contains(QStringLiteral("lbd eval")) && toggle->toolTip().contains(QStringLiteral("--calibrate"))
                     && toggle->toolTip().contains(QStringLiteral("validation")),
                 qPrintable(toggle->toolTip()));
        toggle->setChecked(true); // checked but unusable: nothing is calibrated
        QVERIFY(!toggle->temperature());
        m_page->classifyFiles({m_image});
        waitIdle();
        QVERIFY2(m_page->entry(0).state == ClassifyPage::EntryState::Done, qPrintable(m_page->entry(0).error));
        QVERIFY(!m_page->entry(0).temperature);
        toggle->setChecked(false);
    }

    void calibratedProbabilitiesFollowTheToggle()
    {
        const std::vector<double> pbar = m_page->entry(0).prediction.meanProbabilities;
        lbd::TemperatureFit fit;
        fit.temperature = 2.5;
        fit.images = 12;
        lbd::saveTemperature(fit, m_run.toStdString());
        loadRun(); // the run is read again (as opening it in the window does)
        ClassifyCalibration* toggle = m_page->calibrationToggle();
        QVERIFY(toggle->isEnabled());
        QCOMPARE(toggle->text(), QStringLiteral("Calibrated (T = 2.50)"));
        QVERIFY(!m_page->entry(0).temperature); // not checked yet

        toggle->setChecked(true);
        waitIdle();
        const ClassifyPage::Entry& entry = m_page->entry(0);
        QCOMPARE(entry.temperature.value_or(0.0), 2.5);
        // By hand: softmax(log pbar / T) = pbar^(1/T) / sum pbar^(1/T).
        double norm = 0.0;
        for (double p : pbar) {
            norm += std::pow(p, 1.0 / 2.5);
        }
        double largest = 0.0;
        for (size_t k = 0; k < pbar.size(); ++k) {
            const double expected = std::pow(pbar[k], 1.0 / 2.5) / norm;
            QVERIFY2(std::abs(entry.prediction.meanProbabilities[k] - expected) < 1e-9,
                     qPrintable(QStringLiteral("class %1: %2, expected %3").arg(k).arg(entry.prediction.meanProbabilities[k]).arg(expected)));
            largest = std::max(largest, expected);
        }
        // Under the tail matrix the confidence is the best expected utility of the calibrated pbar.
        double best = -1e300;
        const lbd::UtilityMatrix& u = m_document->matrix();
        for (int64_t d = 0; d < u.classCount(); ++d) {
            double eu = 0.0;
            for (int64_t t = 0; t < u.classCount(); ++t) {
                eu += std::pow(pbar[size_t(t)], 1.0 / 2.5) / norm * u(t, d);
            }
            best = std::max(best, eu);
        }
        QVERIFY2(std::abs(entry.prediction.decisionConfidence - best) < 1e-9,
                 qPrintable(QStringLiteral("%1 vs %2").arg(entry.prediction.decisionConfidence).arg(best)));
        QVERIFY2(m_page->statusText().contains(QStringLiteral("T = 2.50")), qPrintable(m_page->statusText()));
        auto* list = m_page->findChild<QListWidget*>(QStringLiteral("classifyList"));
        QVERIFY(list && list->item(0)->text().contains(QStringLiteral("calibrated pbar")));
        test::keepScreenshot(m_page.get(), QStringLiteral("classify-calibrated"));

        // Mean-logit decides from each particle: the toggle is disabled and the list re-decided plainly.
        m_page->setRule(lbd::DecisionRule::MeanLogit);
        waitIdle();
        QVERIFY(!toggle->isEnabled());
        QVERIFY2(toggle->toolTip().contains(QStringLiteral("each particle")), qPrintable(toggle->toolTip()));
        QVERIFY(!m_page->entry(0).temperature);
        QVERIFY(std::abs(m_page->entry(0).prediction.meanProbabilities[0] - pbar[0]) < 1e-12);
        m_page->setRule(lbd::DecisionRule::Argmax);
        waitIdle();
        QCOMPARE(m_page->entry(0).temperature.value_or(0.0), 2.5);
        toggle->setChecked(false);
        waitIdle();
        QVERIFY(!m_page->entry(0).temperature);
        QVERIFY(std::abs(m_page->entry(0).prediction.meanProbabilities[0] - pbar[0]) < 1e-12);
    }

    void cleanupTestCase()
    {
        m_page.reset();
        m_document.reset();
    }
};

QTEST_MAIN(TestClassifyCalibrated)
#include "test_classifycalibrated.moc"
