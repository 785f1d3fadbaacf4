#include "ui/training/launchedrun.h"

#include "core/eval/reportjson.h"
#include "core/train/configjson.h"
#include "core/train/runfolder.h"
#include "core/util/jsonfile.h"
#include "ui/training/lbdexecutable.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <csignal>

namespace lbd::ui {
namespace {

constexpr qsizetype kStderrKept = 16 * 1024;
constexpr int kStopWaitMs = 60000; // stopping waits for the batch in flight and the checkpoint

} // namespace

LaunchedRun::LaunchedRun(QObject* parent) : QObject(parent)
{
    m_follower.setPollInterval(500);
    connect(&m_follower, &RunFollower::epochRecorded, this, &LaunchedRun::epochRecorded);
    connect(&m_follower, &RunFollower::messageLogged, this, &LaunchedRun::logLine);
    // The progress bar and the final report that rank 0 prints: the run folder holds both.
    m_process.setStandardOutputFile(QProcess::nullDevice());
    connect(&m_process, &QProcess::readyReadStandardError, this, [this] {
        m_stderr += m_process.readAllStandardError();
        if (m_stderr.size() > kStderrKept) {
            m_stderr = m_stderr.right(kStderrKept);
        }
    });
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart && !m_ended) {
            m_ended = true;
            m_follower.stop();
            emit failed(tr("%1 could not start (%2): %3").arg(m_commandText, m_process.program(), m_process.errorString()));
        }
    });
    connect(&m_process, &QProcess::finished, this, &LaunchedRun::onProcessFinished);
}

LaunchedRun::~LaunchedRun()
{
    if (!isRunning()) {
        return;
    }
    // The ranks are in process groups of their own: only the launcher can end them all.
    stop();
    if (!m_process.waitForFinished(kStopWaitMs)) {
        m_process.terminate(); // passed on as SIGTERM: the ranks end at once
        m_process.waitForFinished(10000);
    }
}

void LaunchedRun::start(const lbd::TrainConfig& config, const QString& runDirectory, int ranks)
{
    m_runDirectory = runDirectory;
    const bool cpu = config.train.device == "cpu";
    const QStringList rankOption{cpu ? QStringLiteral("--processes") : QStringLiteral("--gpus"), QString::number(ranks)};
    m_commandText = QStringLiteral("lbd train ") + rankOption.join(QLatin1Char(' '));
    const QString lbd = lbdExecutable();
    if (lbd.isEmpty()) {
        failLater(tr("%1 could not start: the lbd command line was found neither next to this program nor on the PATH "
                     "(set LBD_EXECUTABLE to it).")
                      .arg(m_commandText));
        return;
    }
    QDir().mkpath(runDirectory); // followed from the start
    m_configDir = std::make_unique<QTemporaryDir>();
    const QString configPath = m_configDir->filePath(QStringLiteral("config.json"));
    QFile file(configPath);
    const std::string json = lbd::toJson(config).dump(2);
    if (!m_configDir->isValid() || !file.open(QIODevice::WriteOnly)
        || file.write(json.data(), qint64(json.size())) != qint64(json.size()) || !file.flush()) {
        failLater(tr("%1 could not start: its config could not be written to %2.").arg(m_commandText, configPath));
        return;
    }
    file.close();
    const QStringList arguments = QStringList{QStringLiteral("train"), QStringLiteral("--config"), configPath,
                                              QStringLiteral("--out"), runDirectory}
                                  + rankOption + QStringList{QStringLiteral("--quiet")};
    m_process.start(lbd, arguments);
    m_follower.follow(runDirectory, 0);
    emit message(tr("Started %1 (%2 %3): rank 0 writes the run folder, which is followed live.")
                     .arg(m_commandText, QFileInfo(lbd).fileName(), arguments.join(QLatin1Char(' '))));
}

void LaunchedRun::stop()
{
    if (isRunning() && m_process.processId() > 0) {
        m_stopRequested = true;
        ::kill(static_cast<pid_t>(m_process.processId()), SIGINT); // as Ctrl+C: every rank, after the same batch
    }
}

void LaunchedRun::failLater(const QString& error)
{
    m_ended = true;
    QMetaObject::invokeMethod(this, [this, error] { emit failed(error); }, Qt::QueuedConnection);
}

void LaunchedRun::onProcessFinished(int exitCode, QProcess::ExitStatus exitStatus)
{
    if (m_ended) {
        return;
    }
    m_ended = true;
    m_stderr += m_process.readAllStandardError();
    m_follower.poll(); // rank 0 wrote its last epochs and final status before the launcher exited
    m_follower.stop();
    m_configDir.reset();
    const bool normal = exitStatus == QProcess::NormalExit;
    // A launcher stopped before it had started its ranks dies of the SIGINT itself: nothing trained.
    const bool stoppedEarly = !normal && m_stopRequested;
    if (stoppedEarly || (normal && (exitCode == 0 || exitCode == 130))) {
        emit message(exitCode == 0 && normal ? tr("%1 finished: every rank ended.").arg(m_commandText)
                                   : tr("%1 stopped (exit status 130): every rank ended.").arg(m_commandText));
        emit finished(outcome(stoppedEarly || exitCode == 130));
        return;
    }
    const QString how = normal ? tr("exit status %1").arg(exitCode) : tr("a crash (%1)").arg(m_process.errorString());
    const QString tail = stderrTail();
    emit failed(tail.isEmpty() ? tr("%1 failed with %2 and wrote nothing to stderr.").arg(m_commandText, how)
                               : tr("%1 failed with %2; the end of its stderr:\n%3").arg(m_commandText, how, tail));
}

TrainingOutcome LaunchedRun::outcome(bool stopped) const
{
    TrainingOutcome outcome;
    outcome.runDirectory = m_runDirectory;
    outcome.stopped = stopped;
    const QDir run(m_runDirectory);
    try {
        const nlohmann::json status = lbd::readJsonFile(run.filePath(QString::fromLatin1(lbd::RunFolder::kStatus)).toStdString());
        outcome.epochsCompleted = status.value("epochs_done", 0);
        outcome.checkpointEpoch = status.value("checkpoint_epoch", 0);
        const QString report = run.filePath(QString::fromLatin1(lbd::RunFolder::kReport));
        if (!stopped && QFileInfo::exists(report)) {
            // {"evaluation": the final report, ...}, as the trainer writes it (runsummary.cpp reads it so too).
            outcome.finalReport = lbd::reportFromJson(lbd::readJsonFile(report.toStdString()).at("evaluation"), report.toStdString());
        }
    } catch (const std::exception&) {
        // A status or report that cannot be read: the outcome says what the exit status said.
    }
    return outcome;
}

QString LaunchedRun::stderrTail() const
{
    // The last lines, at most ~2,000 characters: the launcher's "rank 1 of 2 ended with..." and
    // the failing rank's error come last.
    QString text = QString::fromUtf8(m_stderr).trimmed();
    if (text.size() > 2000) {
        text = QStringLiteral("...") + text.right(2000);
    }
    return text;
}

} // namespace lbd::ui
