#pragma once
// The Runs page: every run folder under the runs folder in a sortable table with its key
// metrics (read by core's RunSummary, off the GUI thread), damaged folders included with their
// problem. Open a run (double-click or Open) to show it on every page; select two or more and
// Compare for overlaid curves and a side-by-side table; save the comparison as PNG / PDF or write
// its report (Markdown + PDF; comparisonsavebar.h), the runs' metrics as CSV, and a run's model for
// Python (the same file as `lbd export`). "Group seeds" shows runs that differ only in their seed
// as one row with mean ± std (RunGroupView).
#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

#include "core/train/runsummary.h"
#include "core/infer/runexport.h"
#include "ui/background/latestrequest.h"
#include "ui/runs/runcomparisonview.h"

class QCheckBox;
class QFileSystemWatcher;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QTimer;

namespace lbd::ui {

class ComparisonSaveBar;
class RunComparisonView;
class RunGroupView;
class RunTableModel;

class RunsPage final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunsPage)

public:
    explicit RunsPage(QWidget* parent = nullptr);
    ~RunsPage() override;

    QString runsFolder() const { return m_folder; }
    // Lists `folder` (and makes it the app's runs folder: new runs are created there).
    void setRunsFolder(const QString& folder);
    // Re-reads the runs folder in the background; runsRefreshed() follows.
    void refresh();
    bool isScanning() const { return m_scan.isRunning(); }

    // The runs as listed (model order, not the sorted view's).
    const std::vector<lbd::RunSummary>& runs() const;
    int runCount() const { return static_cast<int>(runs().size()); }
    // Row of the run in the model, -1 when not listed.
    int rowOf(const QString& directory) const;
    // Selects these runs in the table (others are deselected).
    void selectRuns(const QStringList& directories);
    QStringList selectedRuns() const;
    // The run the main window shows now (bold in the table).
    void setShownRun(const QString& directory);

    // Reads the runs' curves in the background; comparisonReady() follows. Fewer than two runs:
    // an inline message and false.
    bool compare(const QStringList& directories);
    RunComparisonView* comparison() const { return m_comparison; }

    // Report files; false with the reason shown inline (and in lastMessage()).
    bool savePlotsPng(const QString& path);
    bool savePlotsPdf(const QString& path);
    // The comparison's report: `markdownPath` with its PDF twin and figure next to it.
    bool writeComparisonReport(const QString& markdownPath);
    // The selected runs, or every listed run when none is selected.
    bool saveMetricsCsv(const QString& path);
    // Writes the run's model for Python in the background; modelExported or modelExportFailed follows.
    void exportModel(const QString& runDirectory, const QString& outFile);
    bool isExporting() const { return m_export.isRunning(); }

    // The inline message under the table (errors in red).
    void showMessage(const QString& text, bool error);
    QString lastMessage() const;
    QTableView* table() const { return m_table; }
    // Shows runs that differ only in their seed as one row each (mean ± std), or the run list.
    void setGroupedBySeed(bool grouped);
    RunGroupView* groupView() const { return m_groups; }

signals:
    void openRequested(const QString& directory);
    // Continue training a stopped or failed run from its checkpoint.
    void continueRequested(const QString& directory);
    void runsRefreshed();
    void comparisonReady();
    void modelExported(const QString& file);
    void modelExportFailed(const QString& error);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void onScanned(std::vector<lbd::RunSummary> runs, const QString& error);
    void updateButtons();
    void updateFolderLabel();
    void watchFolder();
    void openSelected();
    void chooseFolder();
    void askSaveCsv();
    void askExportModel();
    std::vector<lbd::RunSummary> runsForCsv() const;

    RunTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QCheckBox* m_groupToggle = nullptr;
    RunGroupView* m_groups = nullptr;
    QStackedWidget* m_tableStack = nullptr;
    RunComparisonView* m_comparison = nullptr;
    QLabel* m_folderLabel = nullptr;
    QLabel* m_message = nullptr;
    QPushButton* m_changeFolderButton = nullptr;
    QPushButton* m_refreshButton = nullptr;
    QPushButton* m_openButton = nullptr;
    QPushButton* m_continueButton = nullptr;
    QPushButton* m_compareButton = nullptr;
    QPushButton* m_csvButton = nullptr;
    QPushButton* m_exportModelButton = nullptr;
    ComparisonSaveBar* m_saveBar = nullptr;
    QFileSystemWatcher* m_watcher = nullptr;
    QTimer* m_rescanTimer = nullptr;

    QString m_folder;
    QString m_shownRun;
    bool m_scannedOnce = false;
    bool m_stale = false; // the folder changed while the page was hidden
    LatestRequest<std::vector<lbd::RunSummary>> m_scan;
    LatestRequest<std::vector<ComparedRun>> m_compare;
    LatestRequest<lbd::ExportedModel> m_export;
};

} // namespace lbd::ui
