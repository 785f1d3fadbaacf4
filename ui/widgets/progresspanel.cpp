#include "ui/widgets/progresspanel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>

#include <cmath>

namespace lbd::ui {
namespace {

QString formatDuration(double seconds)
{
    if (!(seconds >= 0) || !std::isfinite(seconds)) {
        return QStringLiteral("--");
    }
    const qint64 s = qint64(std::llround(seconds));
    if (s >= 3600) {
        return QStringLiteral("%1:%2:%3").arg(s / 3600).arg((s / 60) % 60, 2, 10, QLatin1Char('0')).arg(s % 60, 2, 10, QLatin1Char('0'));
    }
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

} // namespace

ProgressPanel::ProgressPanel(QWidget* parent) : QWidget(parent)
{
    m_state = new QLabel(this);
    m_state->setObjectName(QStringLiteral("trainingState"));
    m_state->setMinimumWidth(70);
    m_bar = new QProgressBar(this);
    m_bar->setObjectName(QStringLiteral("trainingProgress"));
    m_bar->setRange(0, 1000);
    // Room for "epoch 12/200 - batch 340/468 - 4700 img/s - ETA 12:34" at 1024 px, beside Start
    // and its summary; wider screens give the bar the rest of the tool bar.
    m_bar->setMinimumWidth(m_bar->fontMetrics().horizontalAdvance(QStringLiteral("epoch 12/200 - batch 340/468 - 4700 img/s - ETA 12:34")) + 24);
    m_bar->setTextVisible(true);
    m_bar->setToolTip(tr("Progress over the whole run: epoch, batch within the epoch, training images per second "
                         "and the estimated time to the end."));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 0, 6, 0);
    layout->addWidget(m_state);
    layout->addWidget(m_bar, 1);
    reset(tr("Ready"));
}

void ProgressPanel::reset(const QString& state)
{
    m_bar->setValue(0);
    m_position.clear();
    m_batchEta = -1;
    m_bar->setFormat(tr("no run"));
    setState(state);
}

void ProgressPanel::setState(const QString& state)
{
    m_state->setText(QStringLiteral("<b>%1</b>").arg(state));
    m_state->setToolTip({});
}

void ProgressPanel::markDegenerate(const QString& headline)
{
    m_state->setText(QStringLiteral("<b style='color:#b35c00'>%1</b>").arg(tr("⚠ Degenerate")));
    m_state->setToolTip(tr("The run ended, but its decisions are degenerate: %1.").arg(headline));
}

void ProgressPanel::end(const QString& state)
{
    setState(state);
    m_batchEta = -1; // the next run's first batch brings its own
    if (!m_position.isEmpty()) {
        showPosition(m_position, -1);
    }
}

void ProgressPanel::showPosition(const QString& position, double etaSeconds)
{
    m_position = position;
    m_bar->setFormat(etaSeconds >= 0 ? tr("%1 - ETA %2").arg(position, formatDuration(etaSeconds)) : position);
}

void ProgressPanel::setBatch(const lbd::BatchProgress& p)
{
    if (p.epochs <= 0 || p.batches <= 0) {
        return;
    }
    const double done = (double(p.epoch - 1) + double(p.batch) / double(p.batches)) / double(p.epochs);
    m_bar->setValue(int(std::lround(1000 * done)));
    m_batchEta = p.etaSeconds;
    showPosition(tr("epoch %1/%2 - batch %3/%4 - %5 img/s")
                     .arg(p.epoch)
                     .arg(p.epochs)
                     .arg(p.batch)
                     .arg(p.batches)
                     .arg(p.imagesPerSecond, 0, 'f', 0),
                 p.etaSeconds);
}

void ProgressPanel::setEpoch(const lbd::EpochMetrics& m)
{
    if (m.epochs <= 0) {
        return;
    }
    m_bar->setValue(int(std::lround(1000.0 * m.epoch / m.epochs)));
    // The epochs a run trains in this process carry no elapsed time (the engine adds it when it
    // records them): their ETA is the last batch's, which at an epoch's end is the time of the
    // epochs left. Recorded epochs (a run followed in another process) have their elapsed time.
    double eta = -1;
    if (m.epoch < m.epochs) {
        if (m_batchEta >= 0) {
            eta = m_batchEta;
        } else if (m.elapsedSeconds > 0 && m.epoch > 0) {
            eta = m.elapsedSeconds / m.epoch * (m.epochs - m.epoch);
        }
    }
    // Streamed images: what held the epoch back, from the per-stage timing (inputtimings.h).
    const QString bound = m.boundBy.empty() ? QString()
                          : m.boundBy == "input" ? tr(", bound by input") : tr(", bound by device");
    showPosition(tr("epoch %1/%2 done - %3 img/s%4").arg(m.epoch).arg(m.epochs).arg(m.imagesPerSecond, 0, 'f', 0).arg(bound),
                 eta);
}

QString ProgressPanel::text() const { return m_bar->format(); }

} // namespace lbd::ui
