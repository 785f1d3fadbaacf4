#include "ui/app/windowcommands.h"

#include "ui/app/appsettings.h"
#include "ui/app/mainwindow.h"
#include "ui/pages/studiespage.h"
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
#include <QSet>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QUrl>

namespace lbd::ui {

QString PlotExportSummary::text(const QString& directory) const
{
    const QString where = QDir::toNativeSeparators(directory);
    QString result = written.size() == 1 ? QObject::tr("1 file written to %1").arg(where)
                                         : QObject::tr("%1 files written to %2").arg(written.size()).arg(where);
    if (!failed.isEmpty()) {
        result += QObject::tr("; not written: %1").arg(failed.join(QStringLiteral("; ")));
    }
    if (!skipped.isEmpty()) {
        QStringList names;
        for (const auto& [name, reason] : skipped) {
            names << QObject::tr("%1 (%2)").arg(name, reason);
        }
        result += QObject::tr(". Skipped, so as not to write empty axes: %1").arg(names.join(QStringLiteral(", ")));
    }
    return result + QLatin1Char('.');
}

PlotExportSummary exportPlotsTo(QWidget* root, const QString& directory)
{
    PlotExportSummary summary;
    QSet<QString> used;
    for (ThrottledPlot* plot : root->findChildren<ThrottledPlot*>()) {
        const QString base = plot->objectName().isEmpty() ? QStringLiteral("plot") : plot->objectName();
        if (const QString reason = plotSkipReason(plot); !reason.isEmpty()) {
            summary.skipped.append({base, reason});
            continue;
        }
        QString name = base;
        for (int n = 2; used.contains(name); ++n) {
            name = QStringLiteral("%1-%2").arg(base).arg(n);
        }
        used.insert(name);
        for (const QString& suffix : plotExportSuffixes()) {
            const QString path = QDir(directory).filePath(name + QLatin1Char('.') + suffix);
            QString error;
            if (exportPlot(plot, path, &error)) {
                summary.written << path;
            } else {
                summary.failed << error;
            }
        }
    }
    return summary;
}

void exportPlots(QMainWindow* window)
{
    const QString dir = QFileDialog::getExistingDirectory(
        window, QObject::tr("Export every plot (%1) into").arg(plotExportSuffixes().join(QStringLiteral(", ")).toUpper()));
    if (dir.isEmpty()) {
        return;
    }
    const PlotExportSummary summary = exportPlotsTo(window, dir);
    const QString text = summary.text(dir);
    window->statusBar()->showMessage(text, 15000);
    if (!summary.skipped.isEmpty() || !summary.failed.isEmpty()) {
        // The status bar cuts a long list off: the whole of it, once, where it can be read.
        QMessageBox::information(window, QObject::tr("Export every plot"), text);
    }
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

QString stopAndQuitQuestion(MainWindow& window)
{
    const bool training = window.controller()->isActive();
    const QString study = window.studiesPage()->isRunning() ? QFileInfo(window.studiesPage()->studyFolder()).fileName() : QString();
    if (training && !study.isEmpty()) {
        return QObject::tr("A run is training and the study %1 is running. Stop both (the run keeps its last "
                           "checkpoint, the study its finished runs) and quit?")
            .arg(study);
    }
    if (!study.isEmpty()) {
        return QObject::tr("The study %1 is running. Stop it (its finished runs are kept: Continue on the Studies "
                           "page runs the rest) and quit?")
            .arg(study);
    }
    return training ? QObject::tr("A run is training. Stop it (keeping its last checkpoint) and quit?") : QString();
}

void addIconButtons(QToolBar* bar, std::initializer_list<QAction*> actions)
{
    for (QAction* action : actions) {
        auto* button = new QToolButton(bar); // icon only: QToolButton's own style
        button->setDefaultAction(action);
        bar->addWidget(button);
    }
}

bool confirmStopAndQuit(QWidget* parent, const QString& question)
{
    return QMessageBox::question(parent, QObject::tr("Training in progress"), question,
                                 QMessageBox::Yes | QMessageBox::No, QMessageBox::No)
        == QMessageBox::Yes;
}

} // namespace lbd::ui
