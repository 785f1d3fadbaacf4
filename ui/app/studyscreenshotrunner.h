#pragma once
// The Studies page's part of `lbd-studio --screenshot DIR --screenshot-study STUDY`: after the
// screenshot run has trained, it runs STUDY (a built-in name at its quick scale, or a study.json)
// on the Studies page of the real window, so that when ScreenshotRunner writes every page the
// Studies page shows a finished study (its grid, table and plots), not an empty one. It also
// writes the page's other plot tabs. The study goes into DIR/.study, removed afterwards.
#include <QObject>
#include <QString>

namespace lbd::ui {

class MainWindow;

class StudyScreenshotRunner final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StudyScreenshotRunner)

public:
    StudyScreenshotRunner(MainWindow* window, QString study, QString outputDirectory, QObject* parent = nullptr);
    ~StudyScreenshotRunner() override;

    // Starts the study on the Studies page; finished() follows. False (with the reason on stderr)
    // if it could not start.
    bool start();
    // Writes the Studies page's plot tabs other than the first (NN-studies-TAB<suffix>.png) at the
    // window's current size, and returns to the first tab.
    bool captureOtherTabs(const QString& suffix);

signals:
    // The study has finished and its plots have been drawn.
    void finished();

private:
    MainWindow* m_window = nullptr;
    QString m_study;
    QString m_directory;
};

} // namespace lbd::ui
