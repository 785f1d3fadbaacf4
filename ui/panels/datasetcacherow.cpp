#include "ui/panels/datasetcacherow.h"

#include "core/data/datasetcachestore.h"
#include "core/train/runsroot.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <atomic>
#include <mutex>

namespace lbd::ui {

// What the build thread shares with the row: its progress and the stop request.
struct DatasetCacheRow::BuildState {
    std::atomic<int64_t> done{0};
    std::atomic<int64_t> total{0};
    std::atomic_bool cancel{false};
    std::mutex mutex;
    std::string split;
};

DatasetCacheRow::DatasetCacheRow(QWidget* parent) : QWidget(parent)
{
    m_status = new QLabel(tr("Cache: not used for this data"), this);
    m_status->setObjectName(QStringLiteral("datasetCacheStatus"));
    m_status->setWordWrap(true);
    m_use = new QCheckBox(tr("Use cache"), this);
    m_use->setObjectName(QStringLiteral("useDatasetCache"));
    m_use->setToolTip(tr("Read streamed images from a dataset cache (data.cache = auto): decoded once, resized to the "
                         "image size, read through a memory map; built on first use, rebuilt when a source file "
                         "changes."));
    m_build = new QPushButton(tr("Build cache"), this);
    m_build->setObjectName(QStringLiteral("buildDatasetCache"));
    m_build->setToolTip(tr("Decode every streamed image now, on every core, into the cache (lbd data cache)."));
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("datasetCacheProgress"));
    m_progress->setVisible(false);
    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_use);
    row->addWidget(m_build);
    row->addWidget(m_progress, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_status);
    layout->addLayout(row);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(400);
    connect(&m_debounce, &QTimer::timeout, this, &DatasetCacheRow::refresh);
    m_progressTimer.setInterval(100);
    connect(&m_progressTimer, &QTimer::timeout, this, &DatasetCacheRow::showProgress);
    connect(m_use, &QCheckBox::toggled, this, &DatasetCacheRow::changed);
    connect(m_build, &QPushButton::clicked, this, &DatasetCacheRow::startBuild);
    m_build->setEnabled(false);
}

DatasetCacheRow::~DatasetCacheRow()
{
    if (m_buildState) {
        m_buildState->cancel = true; // m_buildRequest's destructor then waits for the stopped build
    }
}

void DatasetCacheRow::setSpec(const lbd::DataSpec& spec)
{
    m_spec = spec;
    m_report.cancel();
    m_debounce.start();
}

bool DatasetCacheRow::useCache() const
{
    return m_use->isChecked();
}

void DatasetCacheRow::setUseCache(bool use)
{
    const QSignalBlocker blocker(m_use);
    m_use->setChecked(use);
}

QString DatasetCacheRow::cacheDirectory() const
{
    return QString::fromStdString(m_spec.cacheDirectory.empty() ? lbd::datasetCacheDirectoryBeside(lbd::defaultRunsRoot())
                                                                : m_spec.cacheDirectory);
}

QString DatasetCacheRow::statusText() const
{
    return m_status->text();
}

void DatasetCacheRow::setStatus(const QString& text)
{
    m_status->setText(text);
    emit statusChanged();
}

void DatasetCacheRow::refresh()
{
    const lbd::DataSpec spec = m_spec;
    const std::string directory = cacheDirectory().toStdString();
    m_report.start([spec, directory] { return lbd::dataCacheReport(spec, directory); },
                   [this](const lbd::DataCacheReport& report) {
                       m_build->setEnabled(report.streamed && !building());
                       if (!report.streamed) {
                           setStatus(tr("Cache: not needed (the images are held in memory, not streamed)"));
                           return;
                       }
                       const QString size = QLocale().formattedDataSize(report.bytes);
                       if (report.current == report.splits) {
                           setStatus(tr("Cache: %1 file(s), %2, current").arg(report.splits).arg(size));
                       } else if (report.existing > 0) {
                           setStatus(tr("Cache: %1 of %2 file(s) current, %3 (%4)")
                                         .arg(report.current).arg(report.splits).arg(size)
                                         .arg(QString::fromStdString(report.reason)));
                       } else {
                           setStatus(tr("Cache: none yet for this data"));
                       }
                   },
                   [this](const QString&) {
                       m_build->setEnabled(false); // the section above says why the data cannot be read
                       setStatus(tr("Cache: unknown until the data can be read"));
                   });
}

void DatasetCacheRow::startBuild()
{
    if (building()) {
        return;
    }
    auto state = std::make_shared<BuildState>();
    m_buildState = state;
    m_build->setEnabled(false);
    m_progress->setRange(0, 0);
    m_progress->setVisible(true);
    m_progressTimer.start();
    const lbd::DataSpec spec = m_spec;
    const std::string directory = cacheDirectory().toStdString();
    const auto finish = [this](bool ok, const QString& message) {
        m_progressTimer.stop();
        m_progress->setVisible(false);
        m_buildState.reset();
        if (ok) {
            refresh();
        } else { // an unreadable image, a full disk, a stop: said where the status is, the button back
            m_build->setEnabled(true);
            setStatus(tr("Cache: not built: %1").arg(message));
        }
        emit buildFinished(ok, message);
    };
    m_buildRequest.start(
        [state, spec, directory] {
            lbd::buildDataCaches(
                spec, directory,
                [state](const std::string& split, int64_t done, int64_t total) {
                    {
                        const std::lock_guard<std::mutex> lock(state->mutex);
                        state->split = split;
                    }
                    state->total = total;
                    state->done = done;
                },
                &state->cancel, [](const std::string&) {});
            return 0;
        },
        [finish](int) { finish(true, QString()); }, [finish](const QString& message) { finish(false, message); });
}

void DatasetCacheRow::showProgress()
{
    if (!m_buildState) {
        return;
    }
    const int64_t total = m_buildState->total;
    std::string split;
    {
        const std::lock_guard<std::mutex> lock(m_buildState->mutex);
        split = m_buildState->split;
    }
    if (total > 0) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(static_cast<int>(1000 * m_buildState->done / total));
        m_progress->setFormat(tr("%1: %2 of %3 images").arg(QString::fromStdString(split)).arg(m_buildState->done.load()).arg(total));
    }
}

} // namespace lbd::ui
