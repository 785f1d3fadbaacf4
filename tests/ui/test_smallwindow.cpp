// The pages that hold the most text at 1024 x 700 (the experiment panel collapsed, as the window
// does on a screen that small), on a tiny run trained here. The Decision lab's three plots keep a
// usable height (its text scrolls above them instead of squashing them), and no word-wrapped text
// on the Decision lab or on Classify (the uncertainty warning of an image of noise) is clipped:
// each label is at least as tall as its text at its width.
#include "tests/ui/uitestsupport.h"

#include "core/train/trainer.h"
#include "ui/app/mainwindow.h"
#include "ui/pages/classifypage.h"
#include "ui/pages/decisionlabpage.h"
#include "ui/utility/utilitydocument.h"
#include "ui/widgets/throttledplot.h"

#include <QDockWidget>
#include <QImage>
#include <QLabel>
#include <QRandomGenerator>
#include <QTabWidget>
#include <QTest>

#include <memory>

using namespace lbd::ui;

namespace {

// Word-wrapped labels shown on `page` that are shorter than their text needs at their width.
QStringList clippedLabels(QWidget* page)
{
    QStringList clipped;
    for (QLabel* label : page->findChildren<QLabel*>()) {
        if (label->isVisible() && label->wordWrap() && !label->text().isEmpty()) {
            const int needed = label->heightForWidth(label->width());
            if (label->height() < needed) {
                clipped << QStringLiteral("%1 (%2 of %3 px): %4")
                               .arg(label->objectName())
                               .arg(label->height())
                               .arg(needed)
                               .arg(label->text().left(60));
            }
        }
    }
    return clipped;
}

} // namespace

class TestSmallWindow final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_run;
    std::unique_ptr<MainWindow> m_window;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateSettings(m_dir);
        m_run = m_dir.filePath(QStringLiteral("runs/tiny"));
        // One short epoch of three particles: an ensemble unsure of much, so the pages have all
        // their warnings to show.
        lbd::TrainConfig config = test::tinyConfig(1, 16);
        config.model.particles = 3;
        config.data.longTail.validationFraction = 0.25; // the lab's tuning panel has its text too
        lbd::Trainer trainer(config, m_run.toStdString(), false);
        QCOMPARE(trainer.run({}, nullptr).epochsCompleted, 1);

        m_window = std::make_unique<MainWindow>();
        m_window->setErrorReporter([](const QString& title, const QString& message) {
            QFAIL(qPrintable(title + QStringLiteral(": ") + message));
        });
        m_window->experimentDock()->hide();
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_window->resize(1024, 700); // after show: the window first fits itself to the (offscreen) screen
        QTRY_COMPARE(m_window->size(), QSize(1024, 700));
        QVERIFY(m_window->openRun(m_run));
    }

    void decisionLabPlotsKeepTheirHeight()
    {
        DecisionLabPage* lab = m_window->decisionLabPage();
        m_window->pages()->setCurrentWidget(lab);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->isBusy() && !lab->headline().isEmpty(), 60000);
        QTest::qWait(50); // the layout after the last text change
        for (const char* name : {"labFhrPlot", "labRiskCoveragePlot", "labRegionPlot"}) {
            auto* plot = lab->findChild<ThrottledPlot*>(QString::fromLatin1(name));
            QVERIFY(plot && plot->isVisible());
            QVERIFY2(plot->height() >= 200, qPrintable(QStringLiteral("%1: %2 px").arg(QLatin1String(name)).arg(plot->height())));
        }
        const QStringList clipped = clippedLabels(lab);
        QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(QLatin1Char('\n'))));
        test::keepScreenshot(m_window.get(), QStringLiteral("smallwindow-decision-lab"));
    }

    void classifyWarningIsNotClipped()
    {
        // Images unlike the training shapes (noise, flat grey, stripes): the tiny ensemble is
        // unsure of some of them, and for those the page shows its uncertainty warning. With r
        // high most are deferred, which the decision line explains at length too.
        m_window->utilityDocument()->setDeferUtility(0.99);
        QStringList paths;
        QRandomGenerator random(7);
        for (int n = 0; n < 40; ++n) {
            QImage image(32, 32, QImage::Format_RGB888);
            for (int y = 0; y < image.height(); ++y) {
                for (int x = 0; x < image.width(); ++x) {
                    const int v = n % 4 == 0 ? random.bounded(256) : n % 4 == 1 ? 16 * n : ((x / (1 + n / 4)) % 2) * 255;
                    image.setPixel(x, y, qRgb(v, n % 4 == 3 ? 255 - v : v, random.bounded(64)));
                }
            }
            paths << m_dir.filePath(QStringLiteral("image-%1.png").arg(n));
            QVERIFY(image.save(paths.last()));
        }
        ClassifyPage* page = m_window->classifyPage();
        m_window->pages()->setCurrentWidget(page);
        page->classifyFiles(paths);
        QTRY_VERIFY_WITH_TIMEOUT(!page->isBusy(), 60000);
        auto* warning = page->findChild<QLabel*>(QStringLiteral("classifyWarning"));
        QVERIFY(warning);
        int shown = 0;
        for (int n = 0; n < paths.size(); ++n) {
            page->selectEntry(n);
            QTRY_VERIFY(!page->isBusy());
            QTest::qWait(20); // the layout after the text change
            if (!warning->isVisible()) {
                continue;
            }
            ++shown;
            const QStringList clipped = clippedLabels(page);
            QVERIFY2(clipped.isEmpty(), qPrintable(clipped.join(QLatin1Char('\n'))));
            if (shown == 1) {
                test::keepScreenshot(m_window.get(), QStringLiteral("smallwindow-classify"));
            }
        }
        if (shown == 0) {
            // Whether the tiny fixture model is unsure of any of these 40 images depends on the
            // LibTorch that trained it (Debian's 1.13: several are; pip's 2.11 on the GPU machine,
            // 2026-11-27: none): without a warning there is no layout to check.
            QSKIP("the fixture model was certain of all 40 images: no uncertainty warning to check for clipping");
        }
    }
};

QTEST_MAIN(TestSmallWindow)
#include "test_smallwindow.moc"
