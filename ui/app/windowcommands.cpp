#include "ui/app/windowcommands.h"

#include "ui/app/appsettings.h"
#include "ui/report/runreport.h"
#include "ui/widgets/plotexport.h"
#include "ui/widgets/throttledplot.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QUrl>

namespace lbd::ui {

void exportPlots(QMainWindow* window)
{
    const QString dir = QFileDialog::getExistingDirectory(window, QObject::tr("Export every plot (PNG at 2x, PDF, SVG) into"));
    if (dir.isEmpty()) {
        return;
    }
    int written = 0;
    for (ThrottledPlot* plot : window->findChildren<ThrottledPlot*>()) {
        for (const QString& suffix : plotExportSuffixes()) {
            written += exportPlot(plot, QDir(dir).filePath(plot->objectName() + QLatin1Char('.') + suffix)) ? 1 : 0;
        }
    }
    window->statusBar()->showMessage(QObject::tr("%1 files written to %2").arg(written).arg(dir), 8000);
}

QAction* runReportAction(QMainWindow* window, std::function<QString()> shownRun)
{
    auto* action = new QAction(QObject::tr("Write run &report (Markdown, PDF, plots)"), window);
    action->setObjectName(QStringLiteral("runReportAction"));
    action->setToolTip(QObject::tr("Write the shown run's tables (accuracy by region, FHR, calibration, config) and plots "
                                   "as report.md with PNGs, and report.pdf, into the run's report folder."));
    QObject::connect(action, &QAction::triggered, window, [window, shownRun = std::move(shownRun)] {
        const QString run = shownRun();
        if (run.isEmpty()) {
            window->statusBar()->showMessage(QObject::tr("No run to report on: train a run or open one first."), 8000);
            return;
        }
        ReportFiles files;
        QString error;
        if (writeRunReport(run, defaultReportDirectory(run), &files, &error)) {
            window->statusBar()->showMessage(QObject::tr("Report written: %1 and %2").arg(files.markdown, files.pdf), 10000);
        } else {
            window->statusBar()->showMessage(error, 10000);
        }
    });
    return action;
}

void chooseRunsFolder(QMainWindow* window)
{
    const QString dir = QFileDialog::getExistingDirectory(window, QObject::tr("Runs folder"), AppSettings::runsFolder());
    if (!dir.isEmpty()) {
        AppSettings::setRunsFolder(dir);
        window->statusBar()->showMessage(QObject::tr("New runs go to %1").arg(dir), 8000);
    }
}

void fillRecentRuns(QMenu* menu, bool enabled, const std::function<void(const QString&)>& open)
{
    menu->clear();
    for (const QString& directory : AppSettings::recentRuns()) {
        QAction* action = menu->addAction(directory);
        QObject::connect(action, &QAction::triggered, menu, [open, directory] { open(directory); });
        action->setEnabled(enabled && QFileInfo(directory).isDir()); // a deleted run stays listed, greyed
    }
    if (menu->isEmpty()) {
        menu->addAction(QObject::tr("(none yet)"))->setEnabled(false);
    }
}

QStringList droppedFolders(const QMimeData* data)
{
    QStringList folders;
    for (const QUrl& url : data->urls()) {
        if (url.isLocalFile() && QFileInfo(url.toLocalFile()).isDir()) {
            folders << url.toLocalFile();
        }
    }
    return folders;
}

QAction* panelToggleAction(QDockWidget* dock)
{
    QAction* action = dock->toggleViewAction();
    action->setObjectName(QStringLiteral("togglePanelAction"));
    action->setText(QObject::tr("&Experiment panel"));
    action->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    action->setToolTip(QObject::tr("Show or hide the experiment panel (Ctrl+Shift+E)"));
    return action;
}

bool confirmStopAndQuit(QWidget* parent)
{
    return QMessageBox::question(parent, QObject::tr("Training in progress"),
                                 QObject::tr("A run is training. Stop it (keeping its last checkpoint) and quit?"),
                                 QMessageBox::Yes | QMessageBox::No, QMessageBox::No)
        == QMessageBox::Yes;
}

} // namespace lbd::ui
