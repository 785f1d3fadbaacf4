#include "ui/screenshotrunner.h"

#include "ui/latencyprobe.h"
#include "ui/mainwindow.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QPixmap>
#include <QTabWidget>
#include <QTextStream>
#include <QTimer>

#include <cstdio>

namespace lbd::ui {

ScreenshotRunner::ScreenshotRunner(MainWindow* window, QString outputDirectory, QObject* parent)
    : QObject(parent), m_window(window), m_directory(std::move(outputDirectory)), m_probe(new LatencyProbe(10, this))
{
    connect(window, &MainWindow::runFinished, this, [this] {
        m_probe->stop();
        // Let the last throttled replots land before grabbing.
        QTimer::singleShot(300, this, &ScreenshotRunner::capture);
    });
    connect(window, &MainWindow::runFailed, this, [this](const QString& error) {
        m_probe->stop();
        std::fprintf(stderr, "lbd-studio: the run failed: %s\n", qPrintable(error));
        finish(1);
    });
}

bool ScreenshotRunner::start()
{
    if (!m_directory.isEmpty() && !QDir().mkpath(m_directory)) {
        std::fprintf(stderr, "lbd-studio: cannot create %s\n", qPrintable(m_directory));
        return false;
    }
    if (!m_window->startTraining()) {
        std::fprintf(stderr, "lbd-studio: the run did not start\n");
        return false;
    }
    m_probe->start();
    return true;
}

void ScreenshotRunner::capture()
{
    const QString latency = m_probe->summary();
    std::printf("%s\n", qPrintable(latency));
    if (m_directory.isEmpty()) {
        finish(0);
        return;
    }
    QDir dir(m_directory);
    QFile report(dir.filePath(QStringLiteral("latency.txt")));
    if (report.open(QIODevice::WriteOnly | QIODevice::Text)) {
        QTextStream(&report) << latency << '\n';
    }
    QTabWidget* pages = m_window->pages();
    bool ok = true;
    for (int i = 0; i < pages->count(); ++i) {
        pages->setCurrentIndex(i);
        QApplication::processEvents();
        for (QCustomPlot* plot : pages->widget(i)->findChildren<QCustomPlot*>()) {
            plot->replot(); // a page shown for the first time lays its plots out now
        }
        QApplication::processEvents();
        QString name = pages->tabText(i).toLower().remove(QLatin1Char('&'));
        name.replace(QLatin1Char(' '), QLatin1Char('-'));
        const QString path = dir.filePath(QStringLiteral("%1-%2.png").arg(i + 1, 2, 10, QLatin1Char('0')).arg(name));
        // The whole window shows the page with the experiment panel and the tool bar around it.
        ok = m_window->grab().save(path) && ok;
        std::printf("wrote %s\n", qPrintable(path));
    }
    pages->setCurrentIndex(0);
    finish(ok ? 0 : 1);
}

void ScreenshotRunner::finish(int exitCode)
{
    QTimer::singleShot(0, qApp, [exitCode] { QCoreApplication::exit(exitCode); });
}

} // namespace lbd::ui
