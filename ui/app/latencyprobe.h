#pragma once
// Measures how promptly the GUI thread's event loop answers: a precise timer ticks every
// `intervalMs`; the lateness of each tick (time since the previous one minus the interval) is
// how long the event loop was busy. The bar: under 100 ms during an epoch.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <vector>

namespace lbd::ui {

class LatencyProbe final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LatencyProbe)

public:
    explicit LatencyProbe(int intervalMs = 10, QObject* parent = nullptr);

    void start();
    void stop();
    int samples() const { return static_cast<int>(m_lateness.size()); }
    double maxLatencyMs() const;
    double meanLatencyMs() const;
    double percentileMs(double p) const; // p in [0, 100]
    QString summary() const;

private:
    void tick();

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastNs = 0;
    int m_intervalMs = 10;
    std::vector<double> m_lateness; // ms
    double m_maxAtSeconds = 0;      // since start()
};

} // namespace lbd::ui
