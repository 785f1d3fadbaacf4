// `lbd-studio --screenshot DIR --screenshot-size 1024x700 --screenshot-study STUDY` on a tiny
// run: the screenshot run trains, then runs the study (docs/screenshots/studies-screenshot.json)
// on the Studies page, and only then writes every page, so the Studies page is written with the
// finished study's nine runs in its grid (before, it was written empty: the study ran only in a
// separate mode). Its other plot tabs are written too. ScreenshotRunner ends by asking the
// application to quit, so this is the only test of its executable.
#include "tests/ui/uitestsupport.h"

#include "core/study/studysummary.h"
#include "ui/app/mainwindow.h"
#include "ui/app/screenshotrunner.h"
#include "ui/pages/studiespage.h"
#include "ui/panels/experimentpanel.h"
#include "ui/study/studyrunmodel.h"

#include <QTabWidget>
#include <QTest>

using namespace lbd::ui;

class TestScreenshotStudy final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateSettings(m_dir);
    }

    void theStudiesPageIsWrittenWithTheFinishedStudy()
    {
        MainWindow window;
        window.setErrorReporter([](const QString& title, const QString& message) {
            QFAIL(qPrintable(title + QStringLiteral(": ") + message));
        });
        window.experimentPanel()->setConfig(test::tinyConfig(1));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        StudiesPage* studies = window.studiesPage();
        QTabWidget* pages = window.pages();
        // What the Studies page holds when the runner first shows it to write its picture.
        int rowsWhenWritten = -1;
        int finishedWhenWritten = -1;
        connect(pages, &QTabWidget::currentChanged, this, [&](int index) {
            if (pages->widget(index) == studies && rowsWhenWritten < 0) {
                rowsWhenWritten = studies->runModel()->rowCount();
                finishedWhenWritten = studies->runModel()->count(lbd::StudyRunState::Finished);
            }
        });

        const QString out = m_dir.filePath(QStringLiteral("shots"));
        auto* runner = new ScreenshotRunner(&window, out, &window);
        runner->setSizes({QSize(1024, 700)});
        runner->setStudy(QStringLiteral(LBD_SOURCE_DIR "/docs/screenshots/studies-screenshot.json"));
        QVERIFY(runner->start());

        const int number = pages->indexOf(studies) + 1;
        const QString page = QDir(out).filePath(QStringLiteral("%1-studies-1024x700.png").arg(number, 2, 10, QLatin1Char('0')));
        const QString fhrTab = QDir(out).filePath(QStringLiteral("%1-studies-fhr-curves-1024x700.png").arg(number, 2, 10, QLatin1Char('0')));
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(page) && QFileInfo::exists(fhrTab), 600000);
        QCOMPARE(rowsWhenWritten, 9); // M = 1, 2, 3 x 3 seeds
        QCOMPARE(finishedWhenWritten, 9);
        QVERIFY(studies->lastMessage().startsWith(QStringLiteral("Done: 9 finished")));
        QVERIFY(!QImage(page).isNull());
    }
};

QTEST_MAIN(TestScreenshotStudy)
#include "test_screenshotstudy.moc"
