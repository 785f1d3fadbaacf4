#pragma once
// `lbd-studio --screenshot-study STUDY --screenshot DIR`: runs a study (a built-in name or a
// study.json, at its quick scale) on the Studies page of the real window, and once it has
// finished writes PNGs of the window at 1600 x 1000 and at 1024 x 700 or the window's minimum
// size where that is larger (the file name says which), plus the other plot tabs. The study goes
// into DIR/.study, removed afterwards. Quits with 0 (1 on failure).
#include <QObject>
#include <QString>

namespace lbd::ui {

class MainWindow;

class StudyScreenshotRunner final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StudyScreenshotRunner)

public:
    StudyScreenshotRunner(MainWindow* window, QString study, QString outputDirectory, QObject* parent = nullptr);

    // Starts the study; the application quits when done. False (with the reason on stderr) if it could not start.
    bool start();

private:
    void capture();

    MainWindow* m_window = nullptr;
    QString m_study;
    QString m_directory;
};

} // namespace lbd::ui
