#pragma once
// The Studies page's controls: which study (a built-in one of the paper's tables, or a
// study.json), its scale (quick or full), the seeds, how many runs train at once and where, the
// study folder, and Start / Stop / Continue. It resolves the choice with core's resolveStudy
// (the same expansion `lbd study` does) and asks the page to act; it runs nothing itself.
// Without a GPU it starts on the quick scale (the full scale is hours to days on a CPU), and it
// shows the chosen scale's estimated training time before Start (durationestimate.h per run).
#include <QString>
#include <QWidget>

#include <optional>
#include <string>
#include <vector>

#include "core/study/studyrunner.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace lbd::ui {

class StudySetupPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StudySetupPanel)

public:
    explicit StudySetupPanel(QWidget* parent = nullptr);

    // Adds a study.json to the study list and selects it; false (with *error) when unreadable.
    bool addStudyFile(const QString& path, QString* error);
    bool selectStudy(const QString& nameOrPath);
    void setQuick(bool quick);
    void setSeedsText(const QString& text);
    void setParallel(int runs);
    // A folder chosen for the study; empty: the default under the runs folder.
    void setFolderOverride(const QString& folder);

    // The selected study at the chosen scale and seeds; nothing (with *error) when invalid.
    std::optional<lbd::ResolvedStudy> resolve(QString* error) const;
    // Where `study` runs: the chosen folder, else <runs folder>/studies/<name>[-quick].
    QString folderFor(const lbd::ResolvedStudy& study) const;
    lbd::StudyRunnerOptions runnerOptions() const;
    // Parses "0, 1, 2"; nothing for text that is not a comma-separated list of seeds.
    static std::optional<std::vector<int64_t>> parseSeeds(const QString& text);

    // An opened study folder becomes the panel's choice, so that the header describes the study the
    // page shows, not the one the list had selected: its built-in entry (same name and title) or
    // its own study.json added to the list, its scale and seeds, and the folder itself as where
    // Start runs, until the study or the scale is changed by hand.
    void showOpenedStudy(const lbd::ResolvedStudy& study, const QString& folder);

    // "Estimated duration: about 4 min of training for 6 runs, one at a time (...)"; empty when
    // the choice is invalid. Parallel runs share a CPU's cores (about the same time) and divide a
    // GPU's time by at most their number; fused runs on a GPU (Fuse above 1, or auto) are said to
    // be of unknown duration, their speed not measured yet.
    QString estimateText() const;

    // Which buttons apply: a pass running (Stop), stopping, a folder to continue.
    void setRunState(bool running, bool stopping, bool canContinue);
    void showFolder(const QString& folder);

    QComboBox* studyCombo() const { return m_study; }
    QLineEdit* seedsEdit() const { return m_seeds; }
    QPushButton* startButton() const { return m_start; }
    QPushButton* stopButton() const { return m_stop; }
    QPushButton* continueButton() const { return m_continue; }

signals:
    void startRequested();
    void stopRequested();
    void continueRequested();
    void openFolderRequested(const QString& folder);
    void message(const QString& text, bool error);
    // The study, the scale or the folder was changed by hand (not by showOpenedStudy): where Start
    // would run is another folder now.
    void choiceChanged();

private:
    void buildLayout();
    void fillStudies();
    void fillDevices();
    void updateInfo();
    void updateEstimate();
    // A study without a quick scale can only run at full scale: the box is unticked and greyed.
    void matchQuickToStudy();
    void chooseStudyFile();
    void chooseStudyFolder();
    void chooseTargetFolder();

    QComboBox* m_study = nullptr;
    QLabel* m_info = nullptr;
    QPushButton* m_openFile = nullptr;
    QPushButton* m_openFolder = nullptr;
    QCheckBox* m_quick = nullptr;
    bool m_quickWanted = false; // the user's choice (default: no GPU), kept over studies without a quick scale
    bool m_hasQuick = true;     // the selected study has a quick scale
    bool m_running = false;
    QLabel* m_estimate = nullptr;
    QLineEdit* m_seeds = nullptr;
    QSpinBox* m_parallel = nullptr;
    QSpinBox* m_fuse = nullptr; // StudyRunnerOptions::fuse (0: auto)
    QComboBox* m_device = nullptr;
    QLabel* m_folder = nullptr;
    QPushButton* m_chooseFolder = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_stop = nullptr;
    QPushButton* m_continue = nullptr;
    QString m_folderOverride;
    QString m_openedFolder; // the opened study's folder, while its study and scale stay selected
};

} // namespace lbd::ui
