#pragma once
// The data part of the experiment panel: which data set (every entry of the catalogue), where it
// is, its long-tail settings, and the class-count chart. The rows shown are those the entry's
// settings use. Built-in data sets preview their counts instantly; image folders and
// list files are read on a background thread (debounced) when their location changes.
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <cstdint>
#include <vector>

#include "core/data/dataspec.h"
#include "datasets/datasetentry.h"
#include "ui/background/latestrequest.h"
#include "ui/engine/datasetscan.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QPushButton;

namespace lbd::ui {

class ClassCountChart;
class DatasetCacheRow;

class DatasetSection final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DatasetSection)

public:
    explicit DatasetSection(QWidget* parent = nullptr);
    ~DatasetSection() override;

    void load(const lbd::DataSpec& spec);
    void apply(lbd::DataSpec& spec) const;

    const std::vector<int64_t>& trainCounts() const { return m_counts; }
    const QStringList& classNames() const { return m_names; }
    ClassCountChart* chart() const { return m_chart; }
    // Why the data set cannot be read (the reader's whole message), empty when it can or is not
    // read yet: Start stays disabled while it is set.
    const QString& dataError() const { return m_dataError; }
    // What the summary under the chart says: the counts a run will use and the warnings, or the
    // error; empty while nothing was read.
    QString summaryText() const;
    int warningCount() const { return m_warningCount; }

signals:
    void changed();
    void countsChanged(); // trainCounts() / classNames() have new values
    void dataErrorChanged();

private:
    const lbd::DatasetEntry& currentEntry() const; // of the data set list's current item
    void updateVisibility();
    void refreshCounts();
    void startScan();
    void browse();
    void setDataError(const QString& error);
    void showSummary(const DatasetScan& scan);

    lbd::DataSpec m_base; // fields this section does not edit keep their loaded values
    QComboBox* m_kind = nullptr;
    QLineEdit* m_directory = nullptr;
    QPushButton* m_browse = nullptr;
    QLineEdit* m_trainList = nullptr;
    QLineEdit* m_testList = nullptr;
    QSpinBox* m_channels = nullptr;
    QSpinBox* m_imageSize = nullptr;
    QSpinBox* m_synthClasses = nullptr;
    QSpinBox* m_synthPerClass = nullptr;
    QSpinBox* m_synthTestPerClass = nullptr;
    QSpinBox* m_synthSize = nullptr;
    QComboBox* m_profile = nullptr;
    QDoubleSpinBox* m_ratio = nullptr;
    QSpinBox* m_splitSeed = nullptr;
    QDoubleSpinBox* m_validation = nullptr;
    QWidget* m_directoryRow = nullptr;
    QWidget* m_listRows = nullptr;
    QWidget* m_formatRows = nullptr;
    QWidget* m_syntheticRows = nullptr;
    DatasetCacheRow* m_cache = nullptr;
    ClassCountChart* m_chart = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_warnings = nullptr; // the summary's warnings, apart and coloured, above its notes
    QString m_dataError;
    int m_warningCount = 0;
    int m_lastChannels = 0;
    QTimer m_scanDebounce;
    LatestRequest<DatasetScan> m_scan;
    bool m_loading = false;

    std::vector<int64_t> m_counts;
    QStringList m_names;
};

} // namespace lbd::ui
