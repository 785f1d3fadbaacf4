// The main window on a real X server (its own Xvfb, 1024 x 700), as a user of a small screen sees
// it: without a window manager and under openbox, with the experiment panel open and closed, the
// window and its frame stay on the screen, no page or the panel is squeezed below the size its
// layout needs (what would be cut off), and hiding the panel gives its width to the pages.
//
// Not the offscreen platform, and with the panel open: the offscreen checks of 1024 x 700
// (test_workbench's noPageNeedsMoreThan1024x700, test_smallwindow) hide the panel before they
// measure, trusting it to collapse by itself, so none saw that opening it raised the window's
// minimum width to 1478 px (its lists' longest items made it 489 px, Classify 979 px beside it;
// issue 26); and offscreen there is no window manager whose frame must fit too.
//
// Skips (saying why) only where Xvfb is not installed; installer/setup.sh installs it and openbox.
// LBD_TEST_SCREENSHOTS=<dir> keeps a picture of the whole screen at each step.
#include "tests/ui/uitestsupport.h"

#include "ui/app/mainwindow.h"
#include "ui/pages/trainingpage.h"

#include <QApplication>
#include <QDockWidget>
#include <QGuiApplication>
#include <QPixmap>
#include <QProcess>
#include <QScreen>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTest>
#include <QToolBar>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace lbd::ui;

namespace {

constexpr int kScreenWidth = 1024;
constexpr int kScreenHeight = 700;

// An Xvfb of this test's own on a free display (-displayfd writes the number it took), started
// before the QApplication so that Qt's xcb platform connects to it; ended with the test.
class OwnXServer {
public:
    OwnXServer() = default;
    OwnXServer(const OwnXServer&) = delete;
    OwnXServer& operator=(const OwnXServer&) = delete;
    ~OwnXServer()
    {
        if (m_pid > 0) {
            ::kill(m_pid, SIGTERM);
            ::waitpid(m_pid, nullptr, 0);
        }
    }

    // The display (":N"), or an empty string with `why` set when no server could be started.
    std::string start(std::string& why)
    {
        const QString xvfb = QStandardPaths::findExecutable(QStringLiteral("Xvfb"));
        if (xvfb.isEmpty()) {
            why = "Xvfb is not installed (installer/setup.sh installs the xvfb package): the real window cannot be checked";
            return {};
        }
        int fds[2];
        if (::pipe(fds) != 0) {
            why = "no pipe for Xvfb's display number";
            return {};
        }
        const std::string program = xvfb.toStdString();
        const std::string fd = std::to_string(fds[1]);
        const std::string screen = std::to_string(kScreenWidth) + "x" + std::to_string(kScreenHeight) + "x24";
        m_pid = ::fork();
        if (m_pid == 0) {
            ::close(fds[0]);
            std::freopen("/dev/null", "w", stderr); // its start-up chatter is not the test's output
            ::execl(program.c_str(), "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", screen.c_str(), "-nolisten", "tcp",
                    static_cast<char*>(nullptr));
            ::_exit(127);
        }
        ::close(fds[1]);
        std::string number;
        pollfd wait{fds[0], POLLIN, 0};
        char c = 0;
        while (::poll(&wait, 1, 20000) > 0 && ::read(fds[0], &c, 1) == 1 && c != '\n') {
            number += c;
        }
        ::close(fds[0]);
        if (m_pid < 0 || number.empty()) {
            why = "Xvfb did not start (no display number within 20 s)";
            return {};
        }
        return ":" + number;
    }

private:
    pid_t m_pid = -1;
};

std::string g_skipReason; // set by main() when there is no X server to test on

// Names of the children of `window` (pages, panel, tool bar) squeezed below the minimum size
// their layout asks for: what a user would find cut off.
QStringList squeezed(MainWindow* window)
{
    QStringList found;
    QList<QWidget*> widgets{window->centralWidget(), window->pages()->currentWidget()};
    if (window->experimentDock()->isVisible()) {
        widgets << window->experimentDock()->widget();
    }
    for (QWidget* widget : widgets) {
        const QSize minimum = widget->minimumSizeHint().expandedTo(widget->minimumSize());
        if (widget->width() < minimum.width() || widget->height() < minimum.height()) {
            found << QStringLiteral("%1: %2 x %3, needs %4 x %5")
                         .arg(widget->objectName())
                         .arg(widget->width())
                         .arg(widget->height())
                         .arg(minimum.width())
                         .arg(minimum.height());
        }
    }
    return found;
}

// Who asks for the width, for a failure's message: the panel, the tool bar and each page.
QString widthReport(MainWindow* window)
{
    QStringList parts;
    const auto add = [&parts](const QString& name, const QWidget* widget) {
        parts << QStringLiteral("%1 %2").arg(name).arg(widget->minimumSizeHint().expandedTo(widget->minimumSize()).width());
    };
    add(QStringLiteral("panel"), window->experimentDock());
    for (const QToolBar* bar : window->findChildren<QToolBar*>()) {
        add(QStringLiteral("tool bar"), bar);
    }
    for (int page = 0; page < window->pages()->count(); ++page) {
        add(window->pages()->tabText(page), window->pages()->widget(page));
    }
    return QStringLiteral("minimum widths: ") + parts.join(QStringLiteral(", "));
}

void keepScreen(QWidget* window, const QString& name)
{
    const QString dir = qEnvironmentVariable("LBD_TEST_SCREENSHOTS");
    if (!dir.isEmpty()) {
        QDir().mkpath(dir);
        window->screen()->grabWindow(0).save(QDir(dir).filePath(name + QStringLiteral(".png")));
    }
}

} // namespace

class TestRealWindow final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    // The window's frame (title bar and borders, where a window manager draws them) on the screen.
    static void verifyOnScreen(MainWindow* window, const char* when)
    {
        const QRect screen = window->screen()->availableGeometry();
        const QRect frame = window->frameGeometry();
        QVERIFY2(screen.contains(frame),
                 qPrintable(QStringLiteral("%1: the window's frame %2,%3 %4 x %5 is not inside the screen's %6 x %7")
                                .arg(QLatin1String(when))
                                .arg(frame.x())
                                .arg(frame.y())
                                .arg(frame.width())
                                .arg(frame.height())
                                .arg(screen.width())
                                .arg(screen.height())));
    }

    // Panel open on every page, then closed: the window fits, nothing is squeezed, and the pages
    // get the panel's width back.
    void checkWindow(const QString& label)
    {
        MainWindow window;
        window.setErrorReporter([](const QString& title, const QString& message) { QFAIL(qPrintable(title + QStringLiteral(": ") + message)); });
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.screen()->size(), QSize(kScreenWidth, kScreenHeight));

        // The user opens the panel (View > Experiment panel), whatever the window did at start.
        window.experimentDock()->show();
        QTRY_VERIFY(window.experimentDock()->isVisible());
        QTest::qWait(300); // the window manager's answer to a changed size hint, if any
        qInfo("%s: window %d x %d (minimum %d), panel %d px, pages %d px", qPrintable(label), window.width(),
              window.height(), window.minimumSizeHint().width(), window.experimentDock()->width(),
              window.pages()->width());
        QVERIFY2(window.minimumSizeHint().width() <= kScreenWidth,
                 qPrintable(QStringLiteral("with the panel open the window needs %1 px; %2")
                                .arg(window.minimumSizeHint().width())
                                .arg(widthReport(&window))));
        QVERIFY2(window.width() <= kScreenWidth, qPrintable(QStringLiteral("the window is %1 px wide").arg(window.width())));
        verifyOnScreen(&window, "panel open");
        // Every tool bar button shown: none in the bar's overflow menu (Start, its summary, Pause,
        // Stop, the progress, the panel's own button).
        QWidget* overflow = window.findChild<QToolBar*>(QStringLiteral("trainingToolBar"))->findChild<QWidget*>(QStringLiteral("qt_toolbar_ext_button"));
        QVERIFY2(!overflow || !overflow->isVisible(), "the tool bar puts buttons in its overflow menu");
        // The first page a user sees fits beside the panel without scrolling sideways (wider pages
        // scroll: hiding the panel gives them the whole width, below).
        QCOMPARE(window.pages()->currentWidget(), static_cast<QWidget*>(window.trainingPage()));
        QVERIFY2(window.pages()->width() <= window.centralWidget()->width(),
                 qPrintable(QStringLiteral("the Training page is %1 px wide, beside the panel there are %2")
                                .arg(window.pages()->width())
                                .arg(window.centralWidget()->width())));
        for (int page = 0; page < window.pages()->count(); ++page) {
            window.pages()->setCurrentIndex(page);
            QTest::qWait(50);
            const QStringList cut = squeezed(&window);
            QVERIFY2(cut.isEmpty(), qPrintable(window.pages()->tabText(page) + QStringLiteral(" with the panel open: ")
                                               + cut.join(QStringLiteral("; "))));
            QVERIFY(window.width() <= kScreenWidth);
        }
        window.pages()->setCurrentIndex(0);
        QTest::qWait(50);
        keepScreen(&window, QStringLiteral("realwindow-%1-panel-open").arg(label));

        const int pagesWithPanel = window.centralWidget()->width();
        const int panelWidth = window.experimentDock()->width();
        window.experimentDock()->hide();
        // The panel's width (less the window's own shrinking to its frame, if any) to the pages.
        QTRY_VERIFY2(window.centralWidget()->width() >= pagesWithPanel + panelWidth - 20,
                     qPrintable(QStringLiteral("pages %1 px with the panel (%2 px), %3 px without")
                                    .arg(pagesWithPanel)
                                    .arg(panelWidth)
                                    .arg(window.centralWidget()->width())));
        QTest::qWait(300);
        verifyOnScreen(&window, "panel closed");
        const QStringList cut = squeezed(&window);
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QStringLiteral("; "))));
        keepScreen(&window, QStringLiteral("realwindow-%1-panel-closed").arg(label));

        // Open again: back to a window that fits, the panel beside the pages.
        window.experimentDock()->show();
        QTest::qWait(300);
        QVERIFY(window.width() <= kScreenWidth);
        verifyOnScreen(&window, "panel reopened");
    }

private slots:
    void initTestCase()
    {
        if (!g_skipReason.empty()) {
            QSKIP(g_skipReason.c_str());
        }
        QCOMPARE(QGuiApplication::platformName(), QStringLiteral("xcb"));
        QVERIFY(m_dir.isValid());
        test::isolateSettings(m_dir);
    }

    void fitsWithoutWindowManager() { checkWindow(QStringLiteral("no-wm")); }

    void fitsUnderOpenbox()
    {
        const QString openbox = QStandardPaths::findExecutable(QStringLiteral("openbox"));
        if (openbox.isEmpty()) {
            QSKIP("openbox is not installed (installer/setup.sh installs it): the window under a window manager is not checked");
        }
        QProcess manager;
        manager.setStandardOutputFile(QProcess::nullDevice());
        manager.setStandardErrorFile(QProcess::nullDevice()); // "Unable to find a valid menu file": no menu needed
        manager.start(openbox, {QStringLiteral("--sm-disable")});
        QVERIFY(manager.waitForStarted());
        QTest::qWait(1000); // openbox takes the screen over
        QCOMPARE(manager.state(), QProcess::Running);
        checkWindow(QStringLiteral("openbox"));
        manager.terminate();
        QVERIFY(manager.waitForFinished(10000));
    }
};

// Xvfb first, then the application on it (QTEST_MAIN would create the application on whatever
// platform CTest's environment names: offscreen).
int main(int argc, char** argv)
{
    OwnXServer server;
    const std::string display = server.start(g_skipReason);
    if (display.empty()) {
        qputenv("QT_QPA_PLATFORM", "offscreen"); // only to report the skip
    } else {
        qputenv("DISPLAY", display.c_str());
        qputenv("QT_QPA_PLATFORM", "xcb");
    }
    QApplication app(argc, argv);
    QTEST_SET_MAIN_SOURCE_PATH
    TestRealWindow test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_realwindow.moc"
