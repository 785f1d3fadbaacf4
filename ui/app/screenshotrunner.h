#pragma once
// `lbd-studio --screenshot DIR [--preset P]` and `--measure-latency`: trains a short run in the
// real window, measures the event loop's latency while it trains, then shows the finished run on
// every page the way a user would (the tail-sensitive matrix c = 2 in the editor, the
// expected-utility rule in the decision lab, the most and the least disputed test images dropped
// on Classify) and writes a PNG of the window on every page (QWidget::grab) plus latency.txt.
// Quits with 0 (1 on failure).
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
    void stagePartTwoPages(const QString& runDirectory);
    void waitForPagesThenCapture(int attemptsLeft);
    void capture();
    void finish(int exitCode);

    MainWindow* m_window = nullptr;
    QString m_directory;
    QString m_stagingDirectory; // images written for the Classify page
    bool m_loadedPagesStaged = false; // rules and comparison set once the pages had loaded the run
    LatencyProbe* m_probe = nullptr;      // from Start (includes setting the run up)
    LatencyProbe* m_epochProbe = nullptr; // from the first batch on: the event loop during epochs
};

} // namespace lbd::ui
