// The Confusion page on a tiny run trained with the real engine: the matrix is the report's
// (counts and row-normalised), a click on each cell opens the Gallery on exactly the images of
// that cell (true class t decided as d by the run's rule), and the Gallery's new filters (wrong
// only, tail decided as head) and top-loss order agree with the report and -log pbar(true).
#include "tests/ui/uitestsupport.h"

#include "core/infer/runresults.h"
#include "core/train/trainer.h"

#include "ui/app/mainwindow.h"
#include "ui/pages/confusionpage.h"
#include "ui/pages/gallerypage.h"
#include "ui/widgets/confusionchart.h"
#include "ui/widgets/throttledplot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QTabWidget>

#include <algorithm>
#include <cmath>

using namespace lbd::ui;

class TestConfusion : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        test::isolateSettings(m_dir);
        m_run = m_dir.filePath(QStringLiteral("runs/tiny"));
        lbd::Trainer trainer(test::tinyConfig(2), m_run.toStdString(), false);
        QCOMPARE(trainer.run({}, nullptr).epochsCompleted, 2);
        m_results = lbd::loadRunResults(m_run.toStdString());
        m_report = lbd::evaluateRunResults(m_results); // the run's own rule, through core's evaluate()
    }

    void showsTheReportsMatrix()
    {
        MainWindow window;
        ConfusionPage* page = window.confusionPage();
        QVERIFY(page && window.pages()->indexOf(page) >= 0);
        QVERIFY(!page->hasEvaluation());
        QVERIFY(window.openRun(m_run));
        QVERIFY(page->hasEvaluation());
        ConfusionChart* chart = page->chart();
        QCOMPARE(chart->classCount(), 4);

        page->valuesBox()->setCurrentIndex(page->valuesBox()->findData(false)); // counts
        QVERIFY(!chart->rowNormalised());
        for (int t = 0; t < 4; ++t) {
            for (int d = 0; d < 4; ++d) {
                QCOMPARE(chart->cellValue(t, d), double(m_report.confusion[size_t(t)][size_t(d)]));
            }
        }
        page->valuesBox()->setCurrentIndex(page->valuesBox()->findData(true));
        QVERIFY(chart->rowNormalised());
        for (int t = 0; t < 4; ++t) {
            double row = 0;
            for (int64_t n : m_report.confusion[size_t(t)]) {
                row += double(n);
            }
            for (int d = 0; d < 4; ++d) {
                QVERIFY(std::abs(chart->cellValue(t, d) - 100.0 * double(m_report.confusion[size_t(t)][size_t(d)]) / row) < 1e-9);
            }
        }
        // Viridis, not the colour scale's default gradient: dark purple at 0, yellow at the top.
        QCPColorGradient gradient = chart->colourMap()->gradient(); // color() caches: not const
        QCOMPARE(QColor(gradient.color(100, QCPRange(0, 100))), QColor(0xfd, 0xe7, 0x25));
        QCOMPARE(QColor(gradient.color(0, QCPRange(0, 100))), QColor(0x44, 0x01, 0x54));
        QCOMPARE(chart->colourScale()->gradient().color(100, QCPRange(0, 100)), gradient.color(100, QCPRange(0, 100)));
        page->logColourBox()->setChecked(true);
        QCOMPARE(chart->colourMap()->dataScaleType(), QCPAxis::stLogarithmic);
        QVERIFY(chart->colourScale()->axis()->label().contains(QStringLiteral("log")));
        page->logColourBox()->setChecked(false);
        QCOMPARE(chart->colourMap()->dataScaleType(), QCPAxis::stLinear);
        QVERIFY(chart->colourScale()->axis()->label().contains(QStringLiteral("%")));
    }

    void clickingACellFiltersTheGalleryToExactlyItsImages()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        GalleryPage* gallery = window.galleryPage();
        QSignalSpy loaded(gallery, &GalleryPage::loaded);
        QVERIFY(window.openRun(m_run));
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 30000);

        ConfusionPage* page = window.confusionPage();
        int nonEmpty = 0;
        for (int t = 0; t < 4; ++t) {
            for (int d = 0; d < 4; ++d) {
                window.pages()->setCurrentWidget(page);
                ThrottledPlot* plot = page->matrixPlot();
                plot->replot(); // lay the axes out at the shown size before asking for pixels
                const QPointF centre = page->chart()->cellCentre(t, d);
                QVERIFY(plot->rect().contains(centre.toPoint()));
                QSignalSpy activated(page, &ConfusionPage::cellActivated);
                QTest::mouseClick(plot, Qt::LeftButton, {}, centre.toPoint());
                QCOMPARE(activated.size(), 1);
                QCOMPARE(activated.front().at(0).toLongLong(), qint64(t));
                QCOMPARE(activated.front().at(1).toLongLong(), qint64(d));

                QCOMPARE(window.pages()->currentWidget(), static_cast<QWidget*>(gallery));
                const int64_t expected = m_report.confusion[size_t(t)][size_t(d)];
                QCOMPARE(gallery->matchingCount(), int(expected));
                QCOMPARE(gallery->showFilter(), GalleryShow::Cell);
                for (int64_t n : gallery->shownImages()) {
                    QCOMPARE(gallery->trueClass(n), int64_t(t));
                    QCOMPARE(gallery->decidedClass(n), int64_t(d));
                }
                nonEmpty += expected > 0 ? 1 : 0;
            }
        }
        QVERIFY(nonEmpty >= 5); // off-diagonal cells were clicked too, not only the diagonal
        QVERIFY(gallery->showBox()->currentText().contains(QStringLiteral("decided as")));
    }

    void galleryFiltersAndTopLossOrder()
    {
        MainWindow window;
        GalleryPage* gallery = window.galleryPage();
        QSignalSpy loaded(gallery, &GalleryPage::loaded);
        gallery->showRun(m_run);
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 30000);

        gallery->setShowFilter(GalleryShow::WrongOnly);
        QCOMPARE(gallery->matchingCount(), int(m_report.overall.total - m_report.overall.correct));
        for (int64_t n : gallery->shownImages()) {
            QVERIFY(gallery->decidedClass(n) != gallery->trueClass(n));
        }
        // Thirds of 4 classes: head {0}, med {1}, tail {2, 3}.
        gallery->setShowFilter(GalleryShow::TailAsHead);
        const int64_t tailAsHead = m_report.confusion[2][0] + m_report.confusion[3][0];
        QCOMPARE(gallery->matchingCount(), int(tailAsHead));
        for (int64_t n : gallery->shownImages()) {
            QVERIFY(gallery->trueClass(n) >= 2);
            QCOMPARE(gallery->decidedClass(n), int64_t(0));
        }

        gallery->setShowFilter(GalleryShow::Every);
        gallery->setSortKey(GalleryPage::SortKey::TopLoss);
        const std::vector<int64_t> shown = gallery->shownImages();
        QCOMPARE(shown.size(), size_t(48));
        for (size_t i = 0; i < shown.size(); ++i) {
            const int64_t n = shown[i];
            double pbar = 0;
            for (int64_t j = 0; j < m_results.particles; ++j) {
                pbar += m_results.distribution(j, n)[m_results.labels[size_t(n)]];
            }
            pbar /= double(m_results.particles);
            QVERIFY(std::abs(gallery->value(n) + std::log(std::max(pbar, 1e-12))) < 1e-9);
            if (i > 0) {
                QVERIFY(gallery->value(shown[i - 1]) >= gallery->value(n));
            }
        }
    }

private:
    QTemporaryDir m_dir;
    QString m_run;
    lbd::RunResults m_results;
    lbd::EvaluationReport m_report;
};

QTEST_MAIN(TestConfusion)
#include "test_confusion.moc"
