#include "ui/app/studyscreenshotrunner.h"

#include "ui/app/mainwindow.h"
#include "ui/pages/studiespage.h"
#include "ui/study/studyplots.h"
#include "ui/study/studysetuppanel.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

namespace lbd::ui {

StudyScreenshotRunner::StudyScreenshotRunner(MainWindow* window, QString study, QString outputDirectory, QObject* parent)
    : QObject(parent), m_window(window), m_study(std::move(study)), m_directory(std::move(outputDirectory))
{
    connect(window->studiesPage(), &StudiesPage::studyFinished, this, [this] {
        // Let the summary's queued replots land before grabbing.
        QTimer::singleShot(500, this, &StudyScreenshotRunner::capture);
    });
}

bool StudyScreenshotRunner::start()
{
    if (!QDir().mkpath(m_directory)) {
        std::fprintf(stderr, "lbd-studio: cannot create %s\n", qPrintable(m_directory));
        return false;
    }
    StudiesPage* page = m_window->studiesPage();
    StudySetupPanel* setup = page->setupPanel();
    QString error;
    const bool isFile = QFileInfo(m_study).isFile();
    if (isFile ? !setup->addStudyFile(m_study, &error) : !setup->selectStudy(m_study)) {
        std::fprintf(stderr, "lbd-studio: no study %s %s\n", qPrintable(m_study), qPrintable(error));
        return false;
    }
    setup->setQuick(!isFile);
    setup->setFolderOverride(QDir(m_directory).filePath(QStringLiteral(".study")));
    QDir(QDir(m_directory).filePath(QStringLiteral(".study"))).removeRecursively(); // a fresh run, not a resumed one
    m_window->pages()->setCurrentWidget(page);
    if (!page->startStudy()) {
        std::fprintf(stderr, "lbd-studio: %s\n", qPrintable(page->lastMessage()));
        return false;
    }
    return true;
}

void StudyScreenshotRunner::capture()
{
    StudiesPage* page = m_window->studiesPage();
    const int index = m_window->pages()->indexOf(page);
    bool ok = true;
    for (const QSize size : {QSize(1600, 1000), QSize(1024, 700)}) {
        m_window->resize(size);
        QApplication::processEvents();
        for (QCustomPlot* plot : page->findChildren<QCustomPlot*>()) {
            plot->replot();
        }
        QApplication::processEvents();
        // Named by the size the window took: it cannot shrink below its minimum (the other pages' panels).
        const QSize taken = m_window->size();
        const QString suffix = size.width() == 1600 ? QString() : QStringLiteral("-%1x%2").arg(taken.width()).arg(taken.height());
        const QString path = QDir(m_directory).filePath(QStringLiteral("%1-studies%2.png").arg(index + 1, 2, 10, QLatin1Char('0')).arg(suffix));
        ok = m_window->grab().save(path) && ok;
        std::printf("wrote %s (%s)\n", qPrintable(path), qPrintable(page->lastMessage()));
    }
    // The other plot tabs, at the large size only.
    m_window->resize(1600, 1000);
    QTabWidget* tabs = page->plots()->tabs();
    for (int tab = 1; tab < tabs->count(); ++tab) {
        if (!tabs->isTabVisible(tab)) {
            continue;
        }
        tabs->setCurrentIndex(tab);
        QApplication::processEvents();
        qobject_cast<QCustomPlot*>(tabs->currentWidget())->replot();
        QApplication::processEvents();
        const QString name = tabs->tabText(tab).toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
        const QString path = QDir(m_directory).filePath(QStringLiteral("%1-studies-%2.png").arg(index + 1, 2, 10, QLatin1Char('0')).arg(name));
        ok = m_window->grab().save(path) && ok;
        std::printf("wrote %s\n", qPrintable(path));
    }
    tabs->setCurrentIndex(0);
    QDir(QDir(m_directory).filePath(QStringLiteral(".study"))).removeRecursively();
    QTimer::singleShot(0, qApp, [ok] { QCoreApplication::exit(ok ? 0 : 1); });
}

} // namespace lbd::ui
