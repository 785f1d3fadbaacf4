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
        std::printf("study finished: %s\n", qPrintable(m_window->studiesPage()->lastMessage()));
        // Let the summary's queued replots land before the pages are grabbed.
        QTimer::singleShot(500, this, &StudyScreenshotRunner::finished);
    });
}

StudyScreenshotRunner::~StudyScreenshotRunner()
{
    QDir(QDir(m_directory).filePath(QStringLiteral(".study"))).removeRecursively();
}

bool StudyScreenshotRunner::start()
{
    StudiesPage* page = m_window->studiesPage();
    StudySetupPanel* setup = page->setupPanel();
    QString error;
    const bool isFile = QFileInfo(m_study).isFile();
    if (isFile ? !setup->addStudyFile(m_study, &error) : !setup->selectStudy(m_study)) {
        std::fprintf(stderr, "lbd-studio: no study %s %s\n", qPrintable(m_study), qPrintable(error));
        return false;
    }
    setup->setQuick(!isFile);
    const QString folder = QDir(m_directory).filePath(QStringLiteral(".study"));
    QDir(folder).removeRecursively(); // a fresh run, not a resumed one
    setup->setFolderOverride(folder);
    if (!page->startStudy()) {
        std::fprintf(stderr, "lbd-studio: %s\n", qPrintable(page->lastMessage()));
        return false;
    }
    return true;
}

bool StudyScreenshotRunner::captureOtherTabs(const QString& suffix)
{
    StudiesPage* page = m_window->studiesPage();
    m_window->pages()->setCurrentWidget(page);
    const int index = m_window->pages()->indexOf(page);
    QTabWidget* tabs = page->plots()->tabs();
    bool ok = true;
    for (int tab = 1; tab < tabs->count(); ++tab) {
        if (!tabs->isTabVisible(tab)) {
            continue;
        }
        tabs->setCurrentIndex(tab);
        QApplication::processEvents();
        qobject_cast<QCustomPlot*>(tabs->currentWidget())->replot();
        QApplication::processEvents();
        const QString name = tabs->tabText(tab).toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
        const QString path = QDir(m_directory).filePath(
            QStringLiteral("%1-studies-%2%3.png").arg(index + 1, 2, 10, QLatin1Char('0')).arg(name, suffix));
        ok = m_window->grab().save(path) && ok;
        std::printf("wrote %s\n", qPrintable(path));
    }
    tabs->setCurrentIndex(0);
    return ok;
}

} // namespace lbd::ui
