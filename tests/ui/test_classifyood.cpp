// Classify saying when it does not know, on a model trained on Fashion-MNIST in the window (the
// quick-cpu preset cut to 2 epochs): the header names the run's state, a colour photograph and a
// grey gradient get the out-of-distribution caution and the words for what was done to them,
// most Fashion-MNIST test images do not, a run stopped part-way says so in the header, and a
// run without a fit says that unfamiliar images are not flagged.
#include "core/data/datapreparation.h"
#include "core/data/imagedecoder.h"
#include "core/eval/oodscore.h"
#include "core/train/configjson.h"
#include "core/train/presets.h"
#include "core/train/runfolder.h"
#include "datasets/common/imagedecoder.h"
#include "tests/ui/uitestsupport.h"
#include "ui/app/mainwindow.h"
#include "ui/pages/classifypage.h"
#include "ui/panels/experimentpanel.h"

#include <QImage>
#include <QPainter>
#include <QRandomGenerator>
#include <QtTest>

#include <filesystem>

using namespace lbd::ui;

namespace {

// A colour "photograph": sky, sun, hills and a textured field, 640x480 JPEG.
QImage drawnPhoto()
{
    QImage image(640, 480, QImage::Format_RGB32);
    QPainter painter(&image);
    QLinearGradient sky(0, 0, 0, 300);
    sky.setColorAt(0, QColor(60, 120, 210));
    sky.setColorAt(1, QColor(190, 220, 250));
    painter.fillRect(0, 0, 640, 300, sky);
    painter.setBrush(QColor(250, 210, 60));
    painter.setPen(Qt::NoPen);
    painter.drawEllipse(QPoint(480, 90), 45, 45);
    painter.setBrush(QColor(70, 140, 60));
    painter.drawEllipse(QPoint(150, 330), 300, 120);
    painter.fillRect(0, 320, 640, 160, QColor(110, 160, 70));
    QRandomGenerator random(7);
    for (int i = 0; i < 4000; ++i) { // grass texture
        painter.setPen(QColor(60 + random.bounded(80), 120 + random.bounded(80), 40 + random.bounded(40)));
        const int x = random.bounded(640);
        const int y = 320 + random.bounded(160);
        painter.drawLine(x, y, x + random.bounded(-3, 4), y - 6);
    }
    return image;
}

// Black to white, left to right: smooth, grey, nothing like a garment.
QImage greyGradient()
{
    QImage image(256, 256, QImage::Format_Grayscale8);
    for (int y = 0; y < 256; ++y) {
        for (int x = 0; x < 256; ++x) {
            image.setPixel(x, y, qRgb(x, x, x));
        }
    }
    return image;
}

} // namespace

class TestClassifyOod : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        test::isolateSettings(m_dir);
        m_window = std::make_unique<MainWindow>();
        m_window->setErrorReporter([](const QString& title, const QString& message) {
            QFAIL(qPrintable(title + QStringLiteral(": ") + message));
        });
        m_window->resize(1500, 950);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_page = m_window->classifyPage();
    }

    void trainOnFashionMnist()
    {
        if (!std::filesystem::exists(LBD_FASHION_MNIST_DIR)) {
            QSKIP("Fashion-MNIST is not installed");
        }
        lbd::TrainConfig config = lbd::trainConfigFromJson(lbd::loadPresetJson("quick-cpu"), "quick-cpu");
        config.train.epochs = 2;
        config.objective.drwEpoch = 2;
        config.optimizer.decayEpochs = {};
        config.optimizer.decayFactors = {};
        config.train.device = "cpu";
        m_window->experimentPanel()->setConfig(config);
        QSignalSpy shown(m_window.get(), &MainWindow::runShown);
        QSignalSpy loaded(m_page, &ClassifyPage::predictorLoaded);
        QVERIFY(m_window->startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 600000);
        m_run = shown.first().first().toString();
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() && !m_page->isBusy(), 60000);
        QVERIFY2(loaded.last().first().toBool(), qPrintable(loaded.last().at(1).toString()));
        QVERIFY(QFile::exists(QDir(m_run).filePath(QString::fromLatin1(lbd::kOodFitFile))));
        m_window->pages()->setCurrentWidget(m_page);
        QVERIFY2(m_page->statusText().contains(QStringLiteral("finished (2 epochs)")), qPrintable(m_page->statusText()));
        QVERIFY2(m_page->statusText().contains(QStringLiteral("Unfamiliar images: mahalanobis score fitted on")),
                 qPrintable(m_page->statusText()));
    }

    void photoAndGradientGetTheCaution()
    {
        if (m_run.isEmpty() || !lbd::imageDecodingAvailable()) {
            QSKIP("no Fashion-MNIST run, or no image decoder in this build");
        }
        const QString photo = m_dir.filePath(QStringLiteral("photo.jpg"));
        const QString gradient = m_dir.filePath(QStringLiteral("gradient.png"));
        QVERIFY(drawnPhoto().save(photo, "JPEG", 90));
        QVERIFY(greyGradient().save(gradient, "PNG"));
        const int first = m_page->entryCount();
        m_page->classifyFiles({photo, gradient});
        QTRY_VERIFY_WITH_TIMEOUT(!m_page->isBusy(), 60000);
        for (int i = first; i < first + 2; ++i) {
            const ClassifyPage::Entry& entry = m_page->entry(i);
            QVERIFY2(entry.state == ClassifyPage::EntryState::Done, qPrintable(entry.error));
            QVERIFY2(entry.prediction.ood && entry.prediction.ood->caution,
                     qPrintable(entry.source + QStringLiteral(": score %1, threshold %2")
                                                   .arg(entry.prediction.ood ? entry.prediction.ood->score : -1)
                                                   .arg(entry.prediction.ood ? entry.prediction.ood->threshold : -1)));
            m_page->selectEntry(i);
            QVERIFY2(m_page->cautionText().contains(QStringLiteral("Caution: this image is unlike the run's training images")),
                     qPrintable(m_page->cautionText()));
        }
        m_page->selectEntry(first);
        QCOMPARE(m_page->inputText(), QStringLiteral("Input: colour JPEG 640x480, reduced to 28x28 grey (stretched: the aspect "
                                                     "ratio is not kept), padded to 32x32."));
        test::keepScreenshot(m_window.get(), QStringLiteral("classify-ood-photo"));
        m_page->selectEntry(first + 1);
        QVERIFY2(m_page->inputText().startsWith(QStringLiteral("Input: grey PNG 256x256, reduced to 28x28 grey")),
                 qPrintable(m_page->inputText()));
    }

    void mostFashionMnistTestImagesPass()
    {
        if (m_run.isEmpty() || !lbd::imageDecodingAvailable()) {
            QSKIP("no Fashion-MNIST run, or no image decoder in this build");
        }
        lbd::DataSpec spec;
        spec.dataset = "fashion-mnist";
        const lbd::Dataset data = lbd::loadDataset(spec);
        QStringList files;
        for (int i = 0; i < 40; ++i) {
            const QString file = m_dir.filePath(QStringLiteral("fashion-%1.png").arg(i));
            lbd::writeImageFile(file.toStdString(), data.test.images[i * 250]);
            files << file;
        }
        const int first = m_page->entryCount();
        m_page->classifyFiles(files);
        QTRY_VERIFY_WITH_TIMEOUT(!m_page->isBusy(), 120000);
        int cautions = 0;
        for (int i = first; i < m_page->entryCount(); ++i) {
            const ClassifyPage::Entry& entry = m_page->entry(i);
            QVERIFY2(entry.state == ClassifyPage::EntryState::Done && entry.prediction.ood, qPrintable(entry.error));
            cautions += entry.prediction.ood->caution ? 1 : 0;
        }
        // 95 % of the run's own images pass; test images a little fewer. 10 of 40 would be a broken fit.
        QVERIFY2(cautions <= 10, qPrintable(QString::number(cautions)));
        m_page->selectEntry(first);
        QVERIFY2(m_page->inputText().contains(QStringLiteral("grey PNG 28x28, kept at 28x28 grey")), qPrintable(m_page->inputText()));
    }

    void aStoppedRunSaysSoAndARunWithoutAFitToo()
    {
        if (m_run.isEmpty()) {
            QSKIP("no Fashion-MNIST run");
        }
        const QString copy = m_dir.filePath(QStringLiteral("runs/stopped-copy"));
        std::filesystem::copy(m_run.toStdString(), copy.toStdString(), std::filesystem::copy_options::recursive);
        const lbd::RunFolder folder(copy.toStdString());
        folder.writeStatus("stopped", 2, 20, {}, 2);
        std::filesystem::remove(folder.path(lbd::kOodFitFile));
        QSignalSpy loaded(m_page, &ClassifyPage::predictorLoaded);
        m_page->setRun(copy);
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() && !m_page->isBusy(), 60000);
        QCOMPARE(m_page->runState(), QStringLiteral("stopped at epoch 2/20"));
        QVERIFY2(m_page->statusText().contains(QStringLiteral("stopped at epoch 2/20: not a finished model")),
                 qPrintable(m_page->statusText()));
        QVERIFY2(m_page->statusText().contains(QStringLiteral("Unfamiliar images are not flagged")),
                 qPrintable(m_page->statusText()));
        m_page->selectEntry(0);
        QVERIFY2(m_page->cautionText().startsWith(QStringLiteral("Not checked for being unlike the training images: this run "
                                                                 "has no out-of-distribution fit")),
                 qPrintable(m_page->cautionText()));
        QVERIFY(!m_page->entry(0).prediction.ood.has_value());
    }

    void cleanupTestCase()
    {
        m_page = nullptr;
        m_window.reset();
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    ClassifyPage* m_page = nullptr;
    QString m_run;
};

QTEST_MAIN(TestClassifyOod)
#include "test_classifyood.moc"
