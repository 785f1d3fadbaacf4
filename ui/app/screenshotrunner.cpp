#include "ui/app/screenshotrunner.h"

#include "ui/decisionlab/tuningpanel.h"
#include "ui/app/latencyprobe.h"
#include "ui/app/mainwindow.h"
#include "ui/app/studyscreenshotrunner.h"
#include "ui/pages/classifypage.h"
#include "ui/pages/decisionlabpage.h"
#include "ui/pages/gallerypage.h"
#include "ui/pages/runspage.h"
#include "ui/panels/experimentpanel.h"
#include "ui/utility/utilitydocument.h"

#include "core/infer/runresults.h"

#include <algorithm>

#include <qcustomplot.h>

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QLayout>
#include <QRegularExpression>
#include <QFile>
#include <QImage>
#include <QPixmap>
#include <QTabWidget>
#include <QTextStream>
#include <QTimer>

#include <cstdio>

namespace lbd::ui {

ScreenshotRunner::ScreenshotRunner(MainWindow* window, QString outputDirectory, QObject* parent)
    : QObject(parent), m_window(window), m_directory(std::move(outputDirectory)), m_probe(new LatencyProbe(10, this)),
      m_epochProbe(new LatencyProbe(10, this))
{
    connect(window->controller(), &TrainingController::batchProgress, this, [this] {
        if (m_epochProbe->samples() == 0) {
            m_epochProbe->start();
        }
    });
    connect(window, &MainWindow::runFinished, this, [this](const TrainingOutcome& outcome) {
        m_probe->stop();
        m_epochProbe->stop();
        if (m_directory.isEmpty()) {
            QTimer::singleShot(300, this, &ScreenshotRunner::capture);
            return;
        }
        // runShown follows runFinished and makes every page load the run: stage after that.
        QTimer::singleShot(0, this, [this, directory = outcome.runDirectory] {
            stagePartTwoPages(directory);
            // Let the last throttled replots and the pages' background work land before grabbing.
            QTimer::singleShot(500, this, [this] { waitForPagesThenCapture(300); });
        });
    });
    connect(window, &MainWindow::runFailed, this, [this](const QString& error) {
        m_probe->stop();
        m_epochProbe->stop();
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
    if (!m_directory.isEmpty()) {
        // Pictures with a validation split, so the Decision lab can show its tuning (r is tuned
        // on validation, never on the test set the lab reports).
        lbd::TrainConfig config = m_window->experimentPanel()->config();
        if (config.data.longTail.validationFraction == 0.0) {
            config.data.longTail.validationFraction = 0.1;
            m_window->experimentPanel()->setConfig(config);
        }
    }
    startWhenDataIsRead(300);
    return true;
}

void ScreenshotRunner::startWhenDataIsRead(int attemptsLeft)
{
    // As a user would: Start once the panel has read the data set (a folder is read in the
    // background; its counts decide the epochs on a small folder, experimentpanel.cpp).
    if (m_window->experimentPanel()->trainCounts().empty() && m_window->experimentPanel()->dataReadable()
        && attemptsLeft > 0) {
        QTimer::singleShot(100, this, [this, attemptsLeft] { startWhenDataIsRead(attemptsLeft - 1); });
        return;
    }
    if (!m_window->startTraining()) {
        std::fprintf(stderr, "lbd-studio: the run did not start\n");
        QCoreApplication::exit(1);
        return;
    }
    m_probe->start();
}

void ScreenshotRunner::stagePartTwoPages(const QString& runDirectory)
{
    UtilityDocument* document = m_window->utilityDocument();
    document->setMatrix(lbd::UtilityMatrix::tailSensitive(document->classCount(), 2.0));
    document->setRule(lbd::DecisionRule::Expected);
    // Two test images of the run for Classify: the one the particles dispute most (mutual
    // information) and the most certain one, written as PNG files as a user would drop them.
    try {
        const lbd::RunResults results = lbd::loadRunResults(runDirectory.toStdString());
        const lbd::TestImages images = lbd::loadTestImages(results);
        const auto uncertainty = lbd::imageUncertainties(results);
        if (images.isStreamed() || uncertainty.empty()) {
            return;
        }
        const auto byEpistemic = [&](size_t a, size_t b) { return uncertainty[a].epistemic < uncertainty[b].epistemic; };
        std::vector<size_t> order(uncertainty.size());
        for (size_t i = 0; i < order.size(); ++i) {
            order[i] = i;
        }
        const size_t disputed = *std::max_element(order.begin(), order.end(), byEpistemic);
        const size_t certain = *std::min_element(order.begin(), order.end(), byEpistemic);
        m_stagingDirectory = QDir(m_directory).filePath(QStringLiteral(".classify-input"));
        QDir().mkpath(m_stagingDirectory);
        QStringList files;
        for (const size_t n : {disputed, certain}) {
            const auto pixels = lbd::testImagePixels(images, static_cast<int64_t>(n));
            const QImage image(pixels.data(), static_cast<int>(images.width), static_cast<int>(images.height),
                               static_cast<int>(images.width * images.channels),
                               images.channels == 1 ? QImage::Format_Grayscale8 : QImage::Format_RGB888);
            const QString name = QString::fromStdString(results.classNames[static_cast<size_t>(results.labels[n])])
                                     .replace(QLatin1Char('/'), QLatin1Char('-'));
            const QString path = QDir(m_stagingDirectory).filePath(QStringLiteral("test-%1-%2.png").arg(n).arg(name));
            // Scaled up 4x (nearest) as a photo of the object would be larger than the model input.
            image.scaled(image.size() * 4).save(path);
            files << path;
        }
        m_window->classifyPage()->classifyFiles(files);
        m_window->classifyPage()->selectEntry(0);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "lbd-studio: no test images for the Classify page: %s\n", error.what());
    }
}

void ScreenshotRunner::waitForPagesThenCapture(int attemptsLeft)
{
    const bool busy = m_window->decisionLabPage()->isBusy() || m_window->galleryPage()->isBusy()
                      || m_window->classifyPage()->isBusy();
    if (busy && attemptsLeft > 0) {
        QTimer::singleShot(100, this, [this, attemptsLeft] { waitForPagesThenCapture(attemptsLeft - 1); });
        return;
    }
    if (!m_loadedPagesStaged) {
        // The defer utility r for 90 % coverage, tuned on the run's validation split (the lab
        // reports the test split at it); compare every run in the runs folder when there are several.
        m_loadedPagesStaged = true;
        m_window->decisionLabPage()->tuning()->tuneDeferUtility();
        RunsPage* runs = m_window->runsPage();
        QStringList folders;
        const QDir root(runs->runsFolder());
        for (const QString& name : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            if (QFile::exists(root.filePath(name + QStringLiteral("/report.json")))) {
                folders << root.filePath(name);
            }
        }
        if (folders.size() >= 2) {
            runs->selectRuns(folders);
            runs->compare(folders);
        }
        QTimer::singleShot(1500, this, [this] { waitForPagesThenCapture(300); });
        return;
    }
    if (m_study && !m_studyStarted) {
        // After the run (so the latency above is the run's alone): the study, then every page.
        m_studyStarted = true;
        connect(m_study, &StudyScreenshotRunner::finished, this, &ScreenshotRunner::capture);
        if (!m_study->start()) {
            finish(1);
        }
        return;
    }
    QTimer::singleShot(300, this, &ScreenshotRunner::capture);
}

void ScreenshotRunner::setStudy(const QString& study)
{
    delete m_study;
    m_study = study.isEmpty() ? nullptr : new StudyScreenshotRunner(m_window, study, m_directory, this);
}

void ScreenshotRunner::capture()
{
    const QString latency = QStringLiteral("from Start: %1\nduring epochs (from the first batch): %2")
                                .arg(m_probe->summary(), m_epochProbe->summary());
    std::printf("%s\n", qPrintable(latency));
    if (m_directory.isEmpty()) {
        finish(0);
        return;
    }
    const QDir dir(m_directory);
    QFile report(dir.filePath(QStringLiteral("latency.txt")));
    if (report.open(QIODevice::WriteOnly | QIODevice::Text)) {
        QTextStream(&report) << latency << '\n';
    }
    bool ok = true;
    if (m_sizes.isEmpty()) {
        ok = capturePages(QString());
        ok = (!m_study || m_study->captureOtherTabs(QString())) && ok;
    }
    QDockWidget* panel = m_window->experimentDock();
    for (const QSize& size : std::as_const(m_sizes)) {
        panel->show();
        m_window->resize(size);
        QApplication::processEvents();
        if (m_window->minimumSizeHint().width() > size.width() || m_window->minimumSizeHint().height() > size.height()) {
            panel->hide(); // what the window does on a screen this small (screenfit.h)
            m_window->layout()->activate();
            m_window->resize(size);
        }
        QApplication::processEvents();
        const QSize taken = m_window->size();
        const QString suffix = QStringLiteral("-%1x%2").arg(taken.width()).arg(taken.height());
        ok = capturePages(suffix) && ok;
        if (m_study && size == m_sizes.first()) {
            ok = m_study->captureOtherTabs(suffix) && ok; // the Studies page's other plots, at the first size
            m_window->pages()->setCurrentIndex(0);
        }
    }
    panel->show();
    if (!m_stagingDirectory.isEmpty()) {
        QDir(m_stagingDirectory).removeRecursively();
    }
    finish(ok ? 0 : 1);
}

bool ScreenshotRunner::capturePages(const QString& suffix)
{
    const QDir dir(m_directory);
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
        const QString path = dir.filePath(QStringLiteral("%1-%2%3.png").arg(i + 1, 2, 10, QLatin1Char('0')).arg(name, suffix));
        // The whole window shows the page with the experiment panel and the tool bar around it.
        ok = m_window->grab().save(path) && ok;
        std::printf("wrote %s\n", qPrintable(path));
    }
    pages->setCurrentIndex(0);
    return ok;
}

QList<QSize> ScreenshotRunner::parseSizes(const QString& text)
{
    QList<QSize> sizes;
    const QRegularExpression form(QStringLiteral("^\\s*(\\d{1,5})x(\\d{1,5})\\s*$"));
    for (const QString& part : text.split(QLatin1Char(','))) {
        const QRegularExpressionMatch match = form.match(part);
        if (!match.hasMatch() || match.captured(1).toInt() <= 0 || match.captured(2).toInt() <= 0) {
            return {};
        }
        sizes << QSize(match.captured(1).toInt(), match.captured(2).toInt());
    }
    return sizes;
}

void ScreenshotRunner::finish(int exitCode)
{
    QTimer::singleShot(0, qApp, [exitCode] { QCoreApplication::exit(exitCode); });
}

} // namespace lbd::ui
