// The ways a run or the guide is opened (issue 14's item 5 and help): F1 opens the user guide;
// a folder dropped on the window opens as a run (a dropped file does not); File > Recent runs
// lists a run once it was opened, still after a restart (QSettings in a temporary folder, read
// back from the file), and opens it; `lbd-studio RUN_DIR` (the real executable, offscreen, with
// its settings in a temporary XDG_CONFIG_HOME) opens the run given on its command line.
#include "tests/ui/uitestsupport.h"

#include "core/train/configjson.h"
#include "core/train/runfolder.h"
#include "ui/app/mainwindow.h"

#include <nlohmann/json.hpp>

#include <QAction>
#include <QDialog>
#include <QDropEvent>
#include <QMenu>
#include <QMimeData>
#include <QProcess>
#include <QTest>
#include <QTextBrowser>
#include <QUrl>

using namespace lbd::ui;

namespace {

// A finished run folder as far as opening it needs: config and status (no epochs yet).
QString makeRun(const QString& directory)
{
    QDir().mkpath(directory);
    const lbd::RunFolder folder(directory.toStdString());
    folder.writeJson(lbd::RunFolder::kConfig, lbd::toJson(test::tinyConfig(2)));
    folder.writeStatus("finished", 2, 2);
    return directory;
}

QStringList recentMenuEntries(MainWindow& window, QMenu** menu = nullptr)
{
    auto* recent = window.findChild<QMenu*>(QStringLiteral("recentRunsMenu"));
    if (!recent) {
        return {};
    }
    emit recent->aboutToShow(); // what opening the menu does
    QStringList entries;
    for (QAction* action : recent->actions()) {
        entries << action->text();
    }
    if (menu) {
        *menu = recent;
    }
    return entries;
}

} // namespace

class TestOpening final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateSettings(m_dir); }
    void init() { QSettings().clear(); }

    void f1OpensTheUserGuide()
    {
        MainWindow window;
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(!window.findChild<QDialog*>(QStringLiteral("userGuide")));
        QTest::keyClick(&window, Qt::Key_F1);
        auto* guide = window.findChild<QDialog*>(QStringLiteral("userGuide"));
        QVERIFY(guide);
        QTRY_VERIFY(guide->isVisible());
        auto* text = guide->findChild<QTextBrowser*>(QStringLiteral("userGuideText"));
        QVERIFY(text);
        QVERIFY(text->toPlainText().contains(QStringLiteral("LBD Studio user guide")));
    }

    void aDroppedFolderOpensAsARun()
    {
        const QString run = makeRun(m_dir.filePath(QStringLiteral("runs/dropped")));
        MainWindow window;
        window.show();
        QVERIFY(window.shownRun().isEmpty());
        // A dropped file is not a run: nothing is accepted or opened.
        QFile file(m_dir.filePath(QStringLiteral("notes.txt")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QMimeData fileData;
        fileData.setUrls({QUrl::fromLocalFile(file.fileName())});
        QDragEnterEvent enterFile(QPoint(10, 10), Qt::CopyAction, &fileData, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enterFile);
        QVERIFY(!enterFile.isAccepted());
        // The folder: accepted on enter, opened on drop.
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(run)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QCOMPARE(window.shownRun(), run);
    }

    void recentRunsListARunAndSurviveARestart()
    {
        const QString run = makeRun(m_dir.filePath(QStringLiteral("runs/recent")));
        {
            MainWindow window;
            QVERIFY(!recentMenuEntries(window).contains(run)); // not before it was opened
            QVERIFY(window.openRun(run));
            QVERIFY(recentMenuEntries(window).contains(run));
            window.show();
            QVERIFY(window.close());
        }
        // On disk, in the temporary settings location, not only in memory.
        QSettings file(QSettings::IniFormat, QSettings::UserScope, QCoreApplication::organizationName(),
                       QCoreApplication::applicationName());
        QVERIFY2(QFileInfo(file.fileName()).absoluteFilePath().startsWith(m_dir.path()), qPrintable(file.fileName()));
        QVERIFY(file.value(QStringLiteral("session/recentRuns")).toStringList().contains(run));
        // A new window (as after a restart) lists it, and choosing it opens the run.
        MainWindow window;
        QMenu* menu = nullptr;
        QVERIFY(recentMenuEntries(window, &menu).contains(run));
        for (QAction* action : menu->actions()) {
            if (action->text() == run) {
                QVERIFY(action->isEnabled());
                action->trigger();
            }
        }
        QCOMPARE(window.shownRun(), run);
    }

    void theCommandLineOpensARun()
    {
        const QString run = makeRun(m_dir.filePath(QStringLiteral("runs/from-command-line")));
        const QString home = m_dir.filePath(QStringLiteral("studio-home"));
        QProcess studio;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("HOME"), home);
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
        env.insert(QStringLiteral("LBD_CONFIG_DIR"), home + QStringLiteral("/lbd"));
        env.insert(QStringLiteral("LBD_RUNS_DIR"), m_dir.filePath(QStringLiteral("runs")));
        studio.setProcessEnvironment(env);
        studio.start(QStringLiteral(LBD_STUDIO_PATH), {run});
        QVERIFY(studio.waitForStarted());
        // The window records an opened run among the recent runs at once (a QSettings write):
        // the only way that path gets there is the run having been opened.
        const QString settings = home + QStringLiteral("/config/LBDStudio/lbd-studio.conf");
        const auto recorded = [&] {
            QFile file(settings);
            return file.open(QIODevice::ReadOnly) && file.readAll().contains(run.toUtf8());
        };
        QTRY_VERIFY_WITH_TIMEOUT(recorded() || studio.state() == QProcess::NotRunning, 60000);
        const QByteArray output = studio.readAllStandardError();
        studio.kill();
        studio.waitForFinished();
        QVERIFY2(recorded(), output.constData());
        QVERIFY2(!output.contains("could not be opened"), output.constData());
    }
};

QTEST_MAIN(TestOpening)
#include "test_opening.moc"
