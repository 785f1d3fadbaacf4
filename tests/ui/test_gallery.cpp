// The Disagreement gallery on a tiny run trained with the real engine: an empty state before a
// run, tiles in decreasing mutual information / vote disagreement (values checked against core's
// uncertainty of the cached probabilities), class and region filters, a click plotting every
// particle's distribution, and 10,000 test images loading off the GUI thread with 200 tiles at a
// time.
#include "tests/ui/uitestsupport.h"

#include "core/data/datapreparation.h"
#include "core/infer/runresults.h"
#include "core/train/configjson.h"
#include "core/train/pythonexport.h"
#include "core/train/runfolder.h"
#include "core/train/runmanifest.h"
#include "core/train/trainer.h"

#include "ui/app/latencyprobe.h"
#include "ui/app/mainwindow.h"
#include "ui/pages/gallerypage.h"
#include "ui/widgets/throttledplot.h"

#include <nlohmann/json.hpp>

#include <QComboBox>
#include <QLabel>
#include <QListView>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTabWidget>

#include <algorithm>
#include <cmath>

using namespace lbd::ui;

namespace {

void verifyDecreasing(const GalleryPage* gallery, const std::vector<int64_t>& shown)
{
    for (size_t i = 1; i < shown.size(); ++i) {
        QVERIFY2(gallery->value(shown[i - 1]) >= gallery->value(shown[i]),
                 qPrintable(QStringLiteral("tile %1 (image %2, %3) before tile %4 (image %5, %6)")
                                .arg(i - 1)
                                .arg(shown[i - 1])
                                .arg(gallery->value(shown[i - 1]))
                                .arg(i)
                                .arg(shown[i])
                                .arg(gallery->value(shown[i]))));
    }
}

} // namespace

class TestGallery : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        test::isolateSettings(m_dir);
        m_run = m_dir.filePath(QStringLiteral("runs/tiny"));
        lbd::TrainConfig config = test::tinyConfig(2);
        lbd::Trainer trainer(config, m_run.toStdString(), false);
        QCOMPARE(trainer.run({}, nullptr).epochsCompleted, 2);
        m_results = lbd::loadRunResults(m_run.toStdString());
        m_uncertainty = lbd::imageUncertainties(m_results);
    }

    void showsAnEmptyStateBeforeARun()
    {
        MainWindow window;
        GalleryPage* gallery = window.galleryPage();
        QVERIFY(gallery);
        QVERIFY(window.pages()->indexOf(gallery) >= 0);
        QVERIFY(!gallery->hasRun());
        auto* empty = gallery->findChild<QLabel*>(QStringLiteral("galleryEmptyState"));
        QVERIFY(empty);
        QCOMPARE(qobject_cast<QStackedWidget*>(empty->parentWidget())->currentWidget(), empty);
        gallery->setClassFilter(1); // nothing to filter: no crash, nothing shown
        QCOMPARE(gallery->shownCount(), 0);
    }

    void tilesAreInDecreasingDisagreement()
    {
        MainWindow window;
        GalleryPage* gallery = window.galleryPage();
        QSignalSpy loaded(gallery, &GalleryPage::loaded);
        QVERIFY(window.openRun(m_run)); // emits runShown
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 30000);
        QVERIFY2(gallery->message().isEmpty(), qPrintable(gallery->message())); // the images were found

        QCOMPARE(gallery->sortKey(), GalleryPage::SortKey::MutualInformation);
        std::vector<int64_t> shown = gallery->shownImages();
        QCOMPARE(gallery->matchingCount(), 48);
        QCOMPARE(shown.size(), size_t(48)); // fewer than one fetch of 200
        std::vector<int64_t> sorted = shown;
        std::sort(sorted.begin(), sorted.end());
        for (int64_t n = 0; n < 48; ++n) {
            QCOMPARE(sorted[size_t(n)], n); // every image once
        }
        verifyDecreasing(gallery, shown);
        // The values are core's mutual information of the cached probabilities.
        for (int64_t n : shown) {
            QCOMPARE(gallery->value(n), m_uncertainty[size_t(n)].epistemic);
        }
        QVERIFY(gallery->value(shown.front()) > gallery->value(shown.back())); // not all equal

        gallery->sortBox()->setCurrentIndex(gallery->sortBox()->findData(int(GalleryPage::SortKey::VoteDisagreement)));
        QCOMPARE(gallery->sortKey(), GalleryPage::SortKey::VoteDisagreement);
        shown = gallery->shownImages();
        QCOMPARE(shown.size(), size_t(48));
        verifyDecreasing(gallery, shown);
        for (int64_t n : shown) {
            QCOMPARE(gallery->value(n), m_uncertainty[size_t(n)].voteDisagreement);
        }
        QVERIFY(gallery->statusText().contains(QStringLiteral("48 of 48")));
    }

    void filtersByClassAndRegion()
    {
        MainWindow window;
        GalleryPage* gallery = window.galleryPage();
        QSignalSpy loaded(gallery, &GalleryPage::loaded);
        gallery->showRun(m_run);
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 30000);

        // Class 2 through its combo box, as a user picks it.
        QComboBox* classes = gallery->classBox();
        QCOMPARE(classes->count(), 5); // every class + 4 classes
        classes->setCurrentIndex(classes->findData(2));
        const auto expectedCount = std::count(m_results.labels.begin(), m_results.labels.end(), int64_t(2));
        QCOMPARE(gallery->matchingCount(), int(expectedCount));
        QVERIFY(expectedCount > 0);
        for (int64_t n : gallery->shownImages()) {
            QCOMPARE(gallery->trueClass(n), int64_t(2));
        }
        verifyDecreasing(gallery, gallery->shownImages());

        // Tail region (thirds of 4 classes: head {0}, med {1}, tail {2, 3}).
        gallery->setClassFilter(-1);
        gallery->setRegionFilter(int(lbd::Region::Tail));
        const auto tailCount = std::count_if(m_results.labels.begin(), m_results.labels.end(), [](int64_t y) { return y >= 2; });
        QCOMPARE(gallery->matchingCount(), int(tailCount));
        for (int64_t n : gallery->shownImages()) {
            QVERIFY(gallery->trueClass(n) >= 2);
        }
        // Head class 0 inside the tail region: nothing, said plainly.
        gallery->setClassFilter(0);
        QCOMPARE(gallery->matchingCount(), 0);
        QCOMPARE(gallery->shownCount(), 0);
        QVERIFY(gallery->statusText().contains(QStringLiteral("No test image matches")));
    }

    void clickingATileShowsEachParticlesDistribution()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        GalleryPage* gallery = window.galleryPage();
        window.pages()->setCurrentWidget(gallery);
        QSignalSpy loaded(gallery, &GalleryPage::loaded);
        gallery->showRun(m_run);
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 30000);

        QListView* view = gallery->tileView();
        const QModelIndex third = view->model()->index(2, 0);
        const QRect rect = view->visualRect(third);
        QVERIFY(rect.isValid() && view->viewport()->rect().contains(rect.center()));
        QSignalSpy selected(gallery, &GalleryPage::imageSelected);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
        QTRY_COMPARE(selected.size(), 1);
        const int64_t image = gallery->imageAt(2);
        QCOMPARE(gallery->selectedImage(), image);

        // One bar series per particle (+ the mean as markers), every class of the 4 plotted.
        ThrottledPlot* plot = gallery->distributionPlot();
        int bars = 0;
        for (int i = 0; i < plot->plottableCount(); ++i) {
            if (auto* b = qobject_cast<QCPBars*>(plot->plottable(i))) {
                ++bars;
                QCOMPARE(b->data()->size(), 4);
            }
        }
        QCOMPARE(bars, int(m_results.particles));
        QCOMPARE(gallery->plottedClasses(), (std::vector<int64_t>{0, 1, 2, 3}));
        const auto distributions = gallery->plottedDistributions();
        QCOMPARE(distributions.size(), size_t(m_results.particles));
        for (int64_t j = 0; j < m_results.particles; ++j) {
            double sum = 0;
            for (int64_t c = 0; c < 4; ++c) {
                QCOMPARE(distributions[size_t(j)][size_t(c)], double(m_results.distribution(j, image)[c]));
                sum += distributions[size_t(j)][size_t(c)];
            }
            QVERIFY(std::abs(sum - 1.0) < 1e-4);
        }
        auto* text = gallery->findChild<QLabel*>(QStringLiteral("galleryDetailText"));
        QVERIFY(text->text().contains(QStringLiteral("Test image %1").arg(image)));
        auto* picture = gallery->findChild<QLabel*>(QStringLiteral("galleryDetailImage"));
        QVERIFY(!picture->pixmap().isNull());
        QTRY_VERIFY(plot->replotCount() > 0);
    }

    // 10,000 test images x 3 particles x 10 classes: loading, the uncertainty of every image and
    // both sort orders happen off the GUI thread; the view gets 200 tiles, 200 more on scrolling.
    void tenThousandImagesLoadInTheBackground()
    {
        const QString run = m_dir.filePath(QStringLiteral("runs/large"));
        makeLargeRun(run);
        if (QTest::currentTestFailed()) {
            return;
        }
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        GalleryPage* gallery = window.galleryPage();
        window.pages()->setCurrentWidget(gallery);
        QSignalSpy loaded(gallery, &GalleryPage::loaded);
        LatencyProbe probe(10);
        probe.start();
        QElapsedTimer clock;
        clock.start();
        gallery->showRun(run);
        // showRun returns at once and the loading goes on in the background (no timing asserted:
        // a busy CI machine may delay any tick; the measured latency is printed below).
        QVERIFY(gallery->isBusy());
        QVERIFY(loaded.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 60000);
        // The loaded tiles may already have been painted before the counter is installed; a
        // requested update makes sure one paint of the loaded view is waited for.
        test::PaintCounter tilesPainted(gallery->tileView()->viewport());
        gallery->tileView()->viewport()->update();
        QTRY_VERIFY_WITH_TIMEOUT(tilesPainted.count() > 0, 30000); // the probe covers a paint of the tiles
        probe.stop();
        qInfo("10,000 images: loaded in %lld ms; GUI thread %s", static_cast<long long>(clock.elapsed()),
              qPrintable(probe.summary()));
        QVERIFY2(gallery->message().isEmpty(), qPrintable(gallery->message()));
        QCOMPARE(gallery->matchingCount(), 10000);
        QCOMPARE(gallery->shownCount(), GalleryPage::kTilesPerFetch);
        verifyDecreasing(gallery, gallery->shownImages());
        QVERIFY(probe.samples() > 0);

        // Scrolling to the end fetches the next 200.
        QListView* view = gallery->tileView();
        view->scrollToBottom();
        view->verticalScrollBar()->setValue(view->verticalScrollBar()->maximum());
        QTRY_VERIFY(gallery->shownCount() >= 2 * GalleryPage::kTilesPerFetch);
        verifyDecreasing(gallery, gallery->shownImages());

        gallery->setRegionFilter(int(lbd::Region::Head));
        QCOMPARE(gallery->matchingCount(), 3000); // head = the first 3 of 10 classes, 1,000 each
    }

private:
    void makeLargeRun(const QString& directory)
    {
        lbd::TrainConfig config = test::tinyConfig(1);
        config.data.synthetic.classes = 10;
        config.data.synthetic.trainPerClass = 2;
        config.data.synthetic.testPerClass = 1000;
        config.data.longTail.imbalanceRatio = 1;
        const lbd::PreparedData data = lbd::prepareData(config.data);
        const lbd::RunFolder folder(directory.toStdString());
        folder.create();
        folder.writeJson(lbd::RunFolder::kConfig, lbd::toJson(config));
        lbd::writeRunManifest(folder, data.dataset, data.trainCounts, data.testCounts, {{0.5f, 0.5f, 0.5f}, {0.25f, 0.25f, 0.25f}},
                              16, "cpu");
        torch::manual_seed(3);
        const torch::Tensor probabilities = torch::softmax(3.0 * torch::randn({3, 10000, 10}), -1);
        lbd::saveTestProbabilities(folder.path(lbd::RunFolder::kTestProbabilities), probabilities,
                                   data.dataset.test.labels, data.dataset.classNames);
    }

    QTemporaryDir m_dir;
    QString m_run;
    lbd::RunResults m_results;
    std::vector<lbd::ImageUncertainty> m_uncertainty;
};

QTEST_MAIN(TestGallery)
#include "test_gallery.moc"
