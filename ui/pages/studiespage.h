#pragma once
// The Studies page: the paper's tables over seeds. Choose a study and its scale, run it (every
// cell x seed as an ordinary run folder, several at once, off the GUI thread), watch each run in
// a live grid, and read the cells' mean ± std in a table and in plots that refresh whenever a
// run ends; on a tab beside them, the verdict on each of the paper's claims the study tests. Export
// the table (Markdown, CSV, LaTeX: core's own writers) and the plots. A finished or stopped run
// opens on the other pages (double-click) like a run of the Runs page.
#include <QString>
#include <QWidget>

#include <optional>

#include "core/study/studyrunner.h"
#include "ui/background/latestrequest.h"

class QLabel;
class QPushButton;
class QSplitter;
class QTabWidget;
class QTableView;

namespace lbd::ui {

class StudyClaimsModel;
class StudyController;
class StudyPlots;
class StudyRunModel;
class StudySetupPanel;
class StudySummaryModel;

class StudiesPage final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StudiesPage)

public:
    explicit StudiesPage(QWidget* parent = nullptr);
    ~StudiesPage() override;

    // Start the panel's study; false with the reason shown when it is invalid or a pass runs.
    bool startStudy();
    void stopStudy();
    // Run the shown study folder again with its own settings (finished runs are skipped).
    bool continueStudy();
    // Show a study folder's runs, table and plots; false with the reason shown.
    bool openStudyFolder(const QString& folder);
    // Re-reads the shown study's results in the background; summaryRefreshed() follows.
    void refreshSummary();
    // Writes the table as Markdown, CSV or LaTeX, by the file's suffix (.md, .csv, .tex).
    bool saveTable(const QString& path);

    bool isRunning() const;
    QString studyFolder() const { return m_directory; }
    QString lastMessage() const;
    void showMessage(const QString& text, bool error);

    StudySetupPanel* setupPanel() const { return m_setup; }
    StudyRunModel* runModel() const { return m_runModel; }
    StudySummaryModel* summaryModel() const { return m_summaryModel; }
    StudyPlots* plots() const { return m_plots; }
    QTableView* runTable() const { return m_runTable; }
    QLabel* problemsLabel() const { return m_problems; }
    StudyClaimsModel* claimsModel() const { return m_claimsModel; }
    QTableView* claimsTable() const { return m_claimsTable; }
    // The tabs "Runs, table and plots" and "Claims: ✓ 2 · ○ 4 · … 3" (hidden for a study without
    // claims); on a page narrower than ~1000 px the plots have a tab of their own between them.
    QTabWidget* resultTabs() const { return m_resultTabs; }
    int claimsTab() const;
    bool plotsOnTheirOwnTab() const;

signals:
    // A finished or stopped run of the study to show on every page.
    void openRequested(const QString& directory);
    // A pass started or ended (the main window allows one training at a time).
    void runningChanged(bool running);
    void studyFinished();
    void summaryRefreshed();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    // The panel's choice as it stands: its folder's runs and table when a study folder is there
    // already (a pass of an earlier session, finished or not), else its runs as pending. Nothing
    // while a pass runs: the grid shows that pass.
    void showChosenStudy();
    bool runPass(const lbd::ResolvedStudy& study, const QString& directory);
    void showStudy(const lbd::ResolvedStudy& study, const QString& directory);
    void showSummary(const lbd::StudySummary& summary);
    void showClaims(const std::vector<lbd::ClaimVerdict>& verdicts);
    void onProgress(const lbd::StudyProgress& progress);
    void onFinished(const lbd::StudyOutcome& outcome);
    void onFailed(const QString& error);
    void updateButtons();
    void askSaveTable();
    QWidget* buildResults();
    QWidget* buildClaims();

    StudySetupPanel* m_setup = nullptr;
    StudyController* m_controller = nullptr;
    StudyRunModel* m_runModel = nullptr;
    StudySummaryModel* m_summaryModel = nullptr;
    QTableView* m_runTable = nullptr;
    QTableView* m_summaryTable = nullptr;
    QLabel* m_problems = nullptr;
    StudyClaimsModel* m_claimsModel = nullptr;
    QTableView* m_claimsTable = nullptr;
    QLabel* m_claimsSummary = nullptr;
    QTabWidget* m_resultTabs = nullptr;
    QWidget* m_claims = nullptr; // the Claims tab: m_claimsSummary over m_claimsTable
    QLabel* m_message = nullptr;
    QPushButton* m_saveTable = nullptr;
    StudyPlots* m_plots = nullptr;
    QSplitter* m_splitter = nullptr;

    std::optional<lbd::ResolvedStudy> m_study; // the study shown (and run)
    QString m_directory;
    LatestRequest<lbd::StudySummary> m_summarize;
};

} // namespace lbd::ui
