#include "ui/app/degeneracynotice.h"

#include "ui/app/mainwindow.h"
#include "ui/runs/rundegeneracy.h"
#include "ui/widgets/progresspanel.h"

#include <QDir>
#include <QResizeEvent>
#include <QStatusBar>

namespace lbd::ui {

DegeneracyNotice* DegeneracyNotice::attach(MainWindow* window)
{
    auto* notice = new DegeneracyNotice(window);
    // Leftmost of the permanent widgets, and wider than the run folder's label beside it.
    window->statusBar()->insertPermanentWidget(0, notice, 2);
    // After the pages (connected earlier): the window's own "finished" / "opened" message is
    // replaced by this one when the run is degenerate.
    connect(window, &MainWindow::runShown, notice, &DegeneracyNotice::showRun);
    connect(window->controller(), &TrainingController::started, notice, &DegeneracyNotice::clearNotice);
    return notice;
}

DegeneracyNotice::DegeneracyNotice(MainWindow* window) : QLabel(window), m_window(window)
{
    setObjectName(QStringLiteral("degeneracyNotice"));
    setStyleSheet(QStringLiteral("color: #8a1c00; font-weight: bold;"));
    // A long class name must not widen the window: the label shrinks and elides, the tooltip keeps all.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setVisible(false);
}

void DegeneracyNotice::showRun(const QString& directory)
{
    const RunDegeneracy degeneracy = readRunDegeneracy(directory);
    if (!degeneracy.degenerate()) {
        clearNotice();
        return;
    }
    m_headline = degeneracy.headline;
    m_full = tr("\u26a0 Degenerate run: %1").arg(m_headline);
    QStringList lines;
    for (const QString& warning : degeneracy.warnings) {
        lines << QStringLiteral("\u2022 ") + warning;
    }
    setToolTip(tr("%1 is degenerate: its numbers would mislead without these warnings (the Training and Confusion "
                  "pages show them too).\n%2")
                   .arg(QDir::toNativeSeparators(directory), lines.join(QLatin1Char('\n'))));
    setVisible(true);
    elide();
    m_window->progressPanel()->markDegenerate(m_headline);
    m_window->statusBar()->showMessage(tr("The run is degenerate: %1. See the Training page.").arg(m_headline), 15000);
}

void DegeneracyNotice::clearNotice()
{
    m_headline.clear();
    m_full.clear();
    setToolTip({});
    setVisible(false);
}

void DegeneracyNotice::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    elide();
}

void DegeneracyNotice::elide()
{
    const QString shown = fontMetrics().elidedText(m_full, Qt::ElideRight, std::max(0, width() - 4));
    if (shown != text()) {
        setText(shown);
    }
}

} // namespace lbd::ui
