#pragma once
// `lbd-studio --screenshot DIR [--preset P]` and `--measure-latency`: trains a short run in the
// real window, measures the event loop's latency while it trains, then writes a PNG of the
// window and of every page (QWidget::grab) plus latency.txt, and quits with 0 (1 on failure).
#include <QObject>
#include <QString>

namespace lbd::ui {

class LatencyProbe;
class MainWindow;

class ScreenshotRunner final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScreenshotRunner)

public:
    // An empty `outputDirectory` only measures latency.
    ScreenshotRunner(MainWindow* window, QString outputDirectory, QObject* parent = nullptr);

    // Starts the run; the application quits when done. Returns false if it could not start.
    bool start();

private:
    void capture();
    void finish(int exitCode);

    MainWindow* m_window = nullptr;
    QString m_directory;
    LatencyProbe* m_probe = nullptr;
};

} // namespace lbd::ui
