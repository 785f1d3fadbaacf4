#pragma once
// `lbd-studio --screenshot DIR [--preset P]` and `--measure-latency`: trains a short run in the
// real window, measures the event loop's latency while it trains, then shows the finished run on
// every page the way a user would (the tail-sensitive matrix c = 2 in the editor, the
// expected-utility rule in the decision lab, the most and the least disputed test images dropped
// on Classify) and writes a PNG of the window on every page (QWidget::grab) plus latency.txt.
// With sizes (`--screenshot-size 1600x1000,1024x700`) every page is written at each size, named
// NN-page-WxH.png by the size the window took; where the window's minimum is larger than a size,
// the experiment panel is collapsed first, as the window does by itself on a screen that small.
// With a study (`--screenshot-study STUDY`), the study runs on the Studies page after the run has
// trained, so that page is written with a finished study (studyscreenshotrunner.h).
// Quits with 0 (1 on failure).
#include <QList>
#include <QObject>
#include <QSize>
#include <QString>

namespace lbd::ui {

class LatencyProbe;
class MainWindow;
class StudyScreenshotRunner;

class ScreenshotRunner final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScreenshotRunner)

public:
    // An empty `outputDirectory` only measures latency.
    ScreenshotRunner(MainWindow* window, QString outputDirectory, QObject* parent = nullptr);

    // Starts the run; the application quits when done. Returns false if it could not start.
    bool start();

    // The window sizes to capture at (before start()); none: the window's own size, unsuffixed names.
    void setSizes(QList<QSize> sizes) { m_sizes = std::move(sizes); }
    // "1600x1000,1024x700" -> the sizes; empty when any part is not WxH with positive numbers.
    static QList<QSize> parseSizes(const QString& text);
    // A study (built-in name or study.json) to run and show on the Studies page before capturing.
    void setStudy(const QString& study);

private:
    void startWhenDataIsRead(int attemptsLeft);
    void stagePartTwoPages(const QString& runDirectory);
    void waitForPagesThenCapture(int attemptsLeft);
    void capture();
    // Writes a PNG of the window on every page, with `suffix` after the page's name.
    bool capturePages(const QString& suffix);
    void finish(int exitCode);

    MainWindow* m_window = nullptr;
    QString m_directory;
    QList<QSize> m_sizes;
    QString m_stagingDirectory; // images written for the Classify page
    bool m_loadedPagesStaged = false; // rules and comparison set once the pages had loaded the run
    StudyScreenshotRunner* m_study = nullptr;
    bool m_studyStarted = false;
    LatencyProbe* m_probe = nullptr;      // from Start (includes setting the run up)
    LatencyProbe* m_epochProbe = nullptr; // from the first batch on: the event loop during epochs
};

} // namespace lbd::ui
