// Invalid settings are refused inline before anything starts; an engine error (a data set
// directory that does not exist) shows the error and the app keeps working.
#include "tests/ui/uitestsupport.h"
#include "ui/app/mainwindow.h"
#include "ui/panels/experimentpanel.h"

#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMessageBox>

using namespace lbd::ui;

class TestValidation : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::isolateSettings(m_dir); }

    void opensOnTheFashionMnistDefault()
    {
        MainWindow window;
        const lbd::TrainConfig config = window.experimentPanel()->config();
        QCOMPARE(config.data.dataset, std::string("fashion-mnist"));
        QCOMPARE(config.data.longTail.imbalanceRatio, 100.0);
        QVERIFY(window.experimentPanel()->validate().isEmpty());
        // The class-count preview is the Fashion-MNIST-LT profile of lbd-math.md section 1.
        const std::vector<int64_t> expected = {6000, 3596, 2156, 1292, 774, 464, 278, 166, 100, 60};
        QCOMPARE(window.experimentPanel()->trainCounts(), expected);
    }

    void invalidUtilityIsRefusedInline()
    {
        MainWindow window;
        window.show();
        // The offscreen screen is small: the panel starts collapsed to fit it (screenfit.h); open
        // it as View > Experiment panel does, to see the message where a user would.
        window.experimentDock()->show();
        window.experimentPanel()->setConfig(test::tinyConfig());
        auto* preset = window.findChild<QComboBox*>(QStringLiteral("utilityPreset"));
        auto* penalty = window.findChild<QDoubleSpinBox*>(QStringLiteral("tailPenalty"));
        QVERIFY(preset && penalty);
        preset->setCurrentIndex(1);
        penalty->setValue(0.0);
        auto* message = window.findChild<QLabel*>(QStringLiteral("validationMessage"));
        QVERIFY(message);
        QVERIFY(message->isVisible());
        QVERIFY(message->text().contains(QStringLiteral("c > 0")));

        QSignalSpy started(window.controller(), &TrainingController::started);
        QVERIFY(!window.startTraining());
        QVERIFY(started.isEmpty());
        QVERIFY(!window.controller()->isActive());

        penalty->setValue(0.5);
        QVERIFY(window.experimentPanel()->validate().isEmpty());
        QVERIFY(!message->isVisible() || !message->text().contains(QStringLiteral("c > 0")));
    }

    void missingDirectoryAndTooSmallImagesAreRefused()
    {
        MainWindow window;
        lbd::TrainConfig config = test::tinyConfig();
        config.data.dataset = "cifar10";
        config.data.directory.clear();
        window.experimentPanel()->setConfig(config);
        // In the panel's words: what to do, where (configerrortext.cpp), not the key.
        QVERIFY(window.experimentPanel()->validate().contains(QStringLiteral("Data > Directory")));
        QVERIFY(!window.startTraining());

        config = test::tinyConfig();
        config.model.arch = "resnet50"; // needs at least 32x32 inputs; the tiny data set has 16x16
        window.experimentPanel()->setConfig(config);
        QVERIFY(window.experimentPanel()->validate().contains(QStringLiteral("resnet50")));
        QVERIFY(!window.startTraining());
    }

    void engineErrorIsShownAndTheAppKeepsWorking()
    {
        MainWindow window;
        window.show();
        lbd::TrainConfig config = test::tinyConfig();
        config.data.dataset = "fashion-mnist";
        config.data.directory = m_dir.filePath(QStringLiteral("no-such-directory")).toStdString();
        config.augment.outputSize = 32;
        window.experimentPanel()->setConfig(config);
        QVERIFY2(window.experimentPanel()->validate().isEmpty(), qPrintable(window.experimentPanel()->validationMessage()));

        QSignalSpy failed(&window, &MainWindow::runFailed);
        QVERIFY(window.startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 30000);
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("no-such-directory")));

        // The default reporter shows a non-modal error dialog with the engine's message.
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox*>(QStringLiteral("errorDialog"))) != nullptr);
        QVERIFY(box->isVisible());
        QVERIFY(box->text().contains(QStringLiteral("no-such-directory")));
        QVERIFY(!window.controller()->isActive());
        box->accept();

        // ... and the app keeps working: a valid run starts and finishes.
        window.setErrorReporter([](const QString&, const QString& message) { QFAIL(qPrintable(message)); });
        window.experimentPanel()->setConfig(test::tinyConfig(1));
        QSignalSpy finished(&window, &MainWindow::runFinished);
        QVERIFY(window.startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        QCOMPARE(finished.first().first().value<TrainingOutcome>().epochsCompleted, 1);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestValidation)
#include "test_validation.moc"
