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
    m_state->setMinimumWidth(90);
    m_bar = new QProgressBar(this);
    m_bar->setObjectName(QStringLiteral("trainingProgress"));
    m_bar->setRange(0, 1000);
    m_bar->setMinimumWidth(460);
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
    m_bar->setFormat(tr("no run"));
    setState(state);
}

void ProgressPanel::setState(const QString& state)
{
    m_state->setText(QStringLiteral("<b>%1</b>").arg(state));
}

void ProgressPanel::setBatch(const lbd::BatchProgress& p)
{
    if (p.epochs <= 0 || p.batches <= 0) {
        return;
    }
    const double done = (double(p.epoch - 1) + double(p.batch) / double(p.batches)) / double(p.epochs);
    m_bar->setValue(int(std::lround(1000 * done)));
    m_bar->setFormat(tr("epoch %1/%2 - batch %3/%4 - %5 img/s - ETA %6")
                         .arg(p.epoch)
                         .arg(p.epochs)
                         .arg(p.batch)
                         .arg(p.batches)
                         .arg(p.imagesPerSecond, 0, 'f', 0)
                         .arg(formatDuration(p.etaSeconds)));
}

void ProgressPanel::setEpoch(const lbd::EpochMetrics& m)
{
    if (m.epochs <= 0) {
        return;
    }
    m_bar->setValue(int(std::lround(1000.0 * m.epoch / m.epochs)));
    const double eta = m.epoch > 0 ? m.elapsedSeconds / m.epoch * (m.epochs - m.epoch) : -1;
    m_bar->setFormat(tr("epoch %1/%2 done - %3 img/s - ETA %4").arg(m.epoch).arg(m.epochs).arg(m.imagesPerSecond, 0, 'f', 0).arg(formatDuration(eta)));
}

QString ProgressPanel::text() const { return m_bar->format(); }

} // namespace lbd::ui
