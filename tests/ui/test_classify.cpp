// The Classify page on a real tiny run trained in the window: the empty state before a run,
// a real QDropEvent of a PNG (probabilities sum to 1, one row / series per particle), a text
// file and a broken PNG shown as inline errors, grey and large colour images, a pasted image,
// and decisions that follow the rule and the shared utility matrix. A build without OpenCV
// (LBD_WITH_OPENCV=OFF, e.g. tools/gpu/gui.sh) cannot decode image files: there the drop must
// show that as the entry's error, and the checks that need a decoded image are skipped.
#include "datasets/common/imagedecoder.h"
#include "tests/ui/uitestsupport.h"
#include "ui/app/mainwindow.h"
#include "ui/pages/classifypage.h"
#include "ui/panels/experimentpanel.h"
#include "ui/utility/utilitydocument.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QImage>
#include <QMimeData>
#include <QPainter>
#include <QUrl>
#include <QtTest>

#include <cmath>
#include <memory>
#include <numeric>

using namespace lbd::ui;

namespace {

constexpr int kParticles = 2; // tinyConfig

double sum(const std::vector<double>& values) { return std::accumulate(values.begin(), values.end(), 0.0); }

constexpr const char* kNoDecoder = "this build has no OpenCV (LBD_WITH_OPENCV=OFF): it cannot decode image files";


} // namespace

class TestClassify : public QObject {
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
        QVERIFY(m_page);
        m_window->pages()->setCurrentWidget(m_page);
    }

    void emptyStateBeforeAnyRun()
    {
        QVERIFY(m_page->emptyStateShown());
        QVERIFY(!m_page->predictorReady());
        QSignalSpy finished(m_page, &ClassifyPage::classificationFinished);
        m_page->classifyFiles({m_dir.filePath(QStringLiteral("whatever.png"))});
        QCOMPARE(finished.size(), 1);
        QCOMPARE(m_page->entryCount(), 0);
        QVERIFY2(m_page->statusText().contains(QStringLiteral("train a run or open one")), qPrintable(m_page->statusText()));
        test::keepScreenshot(m_page, QStringLiteral("classify-empty"));
    }

    void trainATinyRun()
    {
        m_window->experimentPanel()->setConfig(test::tinyConfig(1));
        QSignalSpy shown(m_window.get(), &MainWindow::runShown);
        QSignalSpy loaded(m_page, &ClassifyPage::predictorLoaded);
        QVERIFY(m_window->startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 120000);
        QCOMPARE(m_page->runDirectory(), shown.first().first().toString());
        QVERIFY(!m_page->emptyStateShown());
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 60000);
        QVERIFY2(loaded.first().first().toBool(), qPrintable(loaded.first().at(1).toString()));
        QVERIFY(m_page->predictorReady());
        QVERIFY(!m_page->isBusy());
        m_window->pages()->setCurrentWidget(m_page); // Start showed the training page
    }

    void droppingAPngShowsAPrediction()
    {
        QVERIFY(m_page->predictorReady());
        QImage image(16, 16, QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter(&image).fillRect(4, 4, 8, 8, Qt::darkBlue);
        const QString path = m_dir.filePath(QStringLiteral("square.png"));
        QVERIFY(image.save(path));

        // A real drag-and-drop sequence sent to the page.
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        const QPoint centre = m_page->rect().center();
        QDragEnterEvent enter(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(m_page, &enter);
        QVERIFY(enter.isAccepted());
        QSignalSpy finished(m_page, &ClassifyPage::classificationFinished);
        QDropEvent drop(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(m_page, &drop);
        QVERIFY(drop.isAccepted());
        QCOMPARE(m_page->entryCount(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!m_page->isBusy() && !finished.isEmpty(), 30000);

        const ClassifyPage::Entry& entry = m_page->entry(0);
        if (!lbd::imageDecodingAvailable()) {
            QVERIFY(entry.state == ClassifyPage::EntryState::Failed);
            QVERIFY2(entry.error.contains(QStringLiteral("square.png")) && entry.error.contains(QStringLiteral("OpenCV")),
                     qPrintable(entry.error));
            QSKIP(kNoDecoder);
        }
        QVERIFY2(entry.state == ClassifyPage::EntryState::Done, qPrintable(entry.error));
        const lbd::Prediction& p = entry.prediction;
        QCOMPARE(int(p.meanProbabilities.size()), 4);
        QVERIFY(std::abs(sum(p.meanProbabilities) - 1.0) < 1e-5);
        QCOMPARE(int(p.particleProbabilities.size()), kParticles);
        for (const auto& particle : p.particleProbabilities) {
            QVERIFY(std::abs(sum(particle) - 1.0) < 1e-5);
        }
        QVERIFY(p.uncertainty.total >= p.uncertainty.aleatoric - 1e-9);
        QVERIFY(std::abs(p.uncertainty.epistemic - (p.uncertainty.total - p.uncertainty.aleatoric)) < 1e-9);

        // The detail view shows it: one table row and one bar series per particle, the decision.
        m_page->selectEntry(0);
        QCOMPARE(m_page->particleTableRows(), kParticles);
        QCOMPARE(m_page->particleSeriesCount(), kParticles);
        QVERIFY(m_page->entryErrorText().isEmpty());
        QVERIFY2(m_page->decisionText().contains(QStringLiteral("Plain argmax")), qPrintable(m_page->decisionText()));
        test::keepScreenshot(m_window.get(), QStringLiteral("classify-png"));
    }

    void nonImagesShowAnInlineErrorAndNothingCrashes()
    {
        const int before = m_page->entryCount();
        const QString text = m_dir.filePath(QStringLiteral("notes.txt"));
        const QString broken = m_dir.filePath(QStringLiteral("broken.png"));
        for (const QString& path : {text, broken}) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("this is not an image\n");
        }
        m_page->classifyFiles({text, broken, m_dir.filePath(QStringLiteral("missing.jpg"))});
        QTRY_VERIFY_WITH_TIMEOUT(!m_page->isBusy(), 30000);
        QCOMPARE(m_page->entryCount(), before + 3);
        for (int i = before; i < before + 3; ++i) {
            const ClassifyPage::Entry& entry = m_page->entry(i);
            QVERIFY(entry.state == ClassifyPage::EntryState::Failed);
            QVERIFY2(entry.error.contains(entry.displayName), qPrintable(entry.error));
        }
        m_page->selectEntry(before);
        QVERIFY2(m_page->entryErrorText().contains(QStringLiteral("notes.txt")), qPrintable(m_page->entryErrorText()));
        test::keepScreenshot(m_window.get(), QStringLiteral("classify-error"));
        if (!lbd::imageDecodingAvailable()) {
            QSKIP(kNoDecoder); // entry 0 failed too: nothing classified to go back to
        }
        // The page still classifies afterwards.
        m_page->selectEntry(0);
        QCOMPARE(m_page->particleTableRows(), kParticles);
    }

    void greyAndLargeColourImagesAreAccepted()
    {
        if (!lbd::imageDecodingAvailable()) {
            QSKIP(kNoDecoder);
        }
        QImage grey(23, 31, QImage::Format_Grayscale8);
        for (int y = 0; y < grey.height(); ++y) {
            for (int x = 0; x < grey.width(); ++x) {
                grey.setPixel(x, y, qRgb((x * 11) % 256, (x * 11) % 256, (x * 11) % 256));
            }
        }
        QImage large(1200, 800, QImage::Format_RGB32);
        for (int y = 0; y < large.height(); ++y) {
            for (int x = 0; x < large.width(); ++x) {
                large.setPixel(x, y, qRgb(x % 256, y % 256, (x + y) % 256));
            }
        }
        const QString greyPath = m_dir.filePath(QStringLiteral("grey.png"));
        const QString largePath = m_dir.filePath(QStringLiteral("large.jpg"));
        QVERIFY(grey.save(greyPath));
        QVERIFY(large.save(largePath));
        const int before = m_page->entryCount();
        m_page->classifyFiles({greyPath, largePath});
        QTRY_VERIFY_WITH_TIMEOUT(!m_page->isBusy(), 30000);
        for (int i = before; i < before + 2; ++i) {
            const ClassifyPage::Entry& entry = m_page->entry(i);
            QVERIFY2(entry.state == ClassifyPage::EntryState::Done, qPrintable(entry.error));
            QVERIFY(std::abs(sum(entry.prediction.meanProbabilities) - 1.0) < 1e-5);
            QVERIFY(!entry.thumbnail.isNull());
            QVERIFY(entry.thumbnail.width() <= 320 && entry.thumbnail.height() <= 320);
        }
        // A pasted image (no file) goes through the encoded-bytes path.
        m_page->classifyImage(large.copy(0, 0, 64, 64), QStringLiteral("pasted test image"));
        QTRY_VERIFY_WITH_TIMEOUT(!m_page->isBusy(), 30000);
        const ClassifyPage::Entry& pasted = m_page->entry(m_page->entryCount() - 1);
        QVERIFY2(pasted.state == ClassifyPage::EntryState::Done, qPrintable(pasted.error));
        QCOMPARE(int(pasted.prediction.particleProbabilities.size()), kParticles);
    }

    void decisionsFollowTheRuleAndTheSharedMatrix()
    {
        if (!lbd::imageDecodingAvailable()) {
            QSKIP(kNoDecoder);
        }
        UtilityDocument* document = m_window->utilityDocument();
        QVERIFY(m_page->usesDocumentMatrix());
        m_page->setRule(lbd::DecisionRule::Argmax);
        QTRY_VERIFY_WITH_TIMEOUT(!m_page->isBusy(), 30000);
        for (int i = 0; i < m_page->entryCount(); ++i) {
            const ClassifyPage::Entry& entry = m_page->entry(i);
            if (entry.state == ClassifyPage::EntryState::Done) {
                QCOMPARE(entry.prediction.rule, lbd::DecisionRule::Argmax);
                QCOMPARE(entry.prediction.decidedClass, entry.prediction.argmaxClass);
            }
        }
        // Expected utility with a matrix that only rewards deciding the last class: every image
        // is decided as that class, whatever pbar says.
        m_page->setRule(lbd::DecisionRule::Expected);
        QTRY_VERIFY_WITH_TIMEOUT(!m_page->isBusy(), 30000);
        const int64_t n = document->classCount();
        lbd::UtilityMatrix lastOnly(n);
        for (int64_t t = 0; t < n; ++t) {
            lastOnly(t, n - 1) = 1.0;
        }
        int classified = 0;
        for (int i = 0; i < m_page->entryCount(); ++i) {
            classified += m_page->entry(i).state == ClassifyPage::EntryState::Done ? 1 : 0;
        }
        QSignalSpy updated(m_page, &ClassifyPage::entryUpdated);
        QVERIFY(document->setMatrix(lastOnly));
        // Re-decided once the editor's change settles (a short timer), without any other call.
        QTRY_VERIFY_WITH_TIMEOUT(updated.size() >= classified && !m_page->isBusy(), 30000);
        int done = 0;
        for (int i = 0; i < m_page->entryCount(); ++i) {
            const ClassifyPage::Entry& entry = m_page->entry(i);
            if (entry.state == ClassifyPage::EntryState::Done) {
                QCOMPARE(entry.prediction.rule, lbd::DecisionRule::Expected);
                QCOMPARE(entry.prediction.decidedClass, n - 1);
                ++done;
            }
        }
        QVERIFY(done >= 3);
        m_page->selectEntry(0);
        QVERIFY2(m_page->decisionText().contains(QStringLiteral("Utility page")), qPrintable(m_page->decisionText()));
        test::keepScreenshot(m_window.get(), QStringLiteral("classify-expected-utility"));
    }

    void cleanupTestCase()
    {
        m_page = nullptr;
        m_window.reset(); // destroys the page while its worker may still hold the predictor
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    ClassifyPage* m_page = nullptr;
};

QTEST_MAIN(TestClassify)
#include "test_classify.moc"
