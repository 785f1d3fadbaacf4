#include "ui/app/latencyprobe.h"

#include <algorithm>
#include <numeric>

namespace lbd::ui {

LatencyProbe::LatencyProbe(int intervalMs, QObject* parent) : QObject(parent), m_intervalMs(intervalMs)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &LatencyProbe::tick);
}

void LatencyProbe::start()
{
    m_lateness.clear();
    m_clock.start();
    m_lastNs = m_clock.nsecsElapsed();
    m_timer.start();
}

void LatencyProbe::stop() { m_timer.stop(); }

void LatencyProbe::tick()
{
    const qint64 now = m_clock.nsecsElapsed();
    const double gapMs = double(now - m_lastNs) / 1e6;
    m_lastNs = now;
    const double late = std::max(0.0, gapMs - m_intervalMs);
    if (late > maxLatencyMs()) {
        m_maxAtSeconds = double(now) / 1e9;
    }
    m_lateness.push_back(late);
}

double LatencyProbe::maxLatencyMs() const
{
    return m_lateness.empty() ? 0.0 : *std::max_element(m_lateness.begin(), m_lateness.end());
}

double LatencyProbe::meanLatencyMs() const
{
    return m_lateness.empty() ? 0.0 : std::accumulate(m_lateness.begin(), m_lateness.end(), 0.0) / double(m_lateness.size());
}

double LatencyProbe::percentileMs(double p) const
{
    if (m_lateness.empty()) {
        return 0.0;
    }
    std::vector<double> sorted = m_lateness;
    std::sort(sorted.begin(), sorted.end());
    const size_t index = std::min(sorted.size() - 1, size_t(p / 100.0 * double(sorted.size() - 1) + 0.5));
    return sorted[index];
}

QString LatencyProbe::summary() const
{
    return QStringLiteral("event-loop latency over %1 ticks of %2 ms: max %3 ms (at %6 s), p99 %4 ms, mean %5 ms")
        .arg(samples())
        .arg(m_intervalMs)
        .arg(maxLatencyMs(), 0, 'f', 1)
        .arg(percentileMs(99), 0, 'f', 1)
        .arg(meanLatencyMs(), 0, 'f', 2)
        .arg(m_maxAtSeconds, 0, 'f', 1);
}

} // namespace lbd::ui
