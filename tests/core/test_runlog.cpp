// RUN/log.txt: a tiny training run writes the engine's messages with their times, a resume
// appends to the same file, a stopped run keeps why in status.json, and RunLog itself keeps the
// messages sent before the run folder exists.
#include "core/train/runfolder.h"
#include "core/train/runlog.h"
#include "core/train/trainer.h"
#include "tests/support/tinyconfig.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace lbd;

namespace {

QStringList logLines(const QString& runDirectory)
{
    QFile file(QDir(runDirectory).filePath(QString::fromLatin1(RunLog::kFile)));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        return {};
    }
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

} // namespace

class TestRunLog : public QObject {
    Q_OBJECT

private slots:
    void aTinyRunWritesItsMessagesWithTimes()
    {
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("run"));
        std::vector<std::string> messages;
        TrainingCallbacks callbacks;
        callbacks.onMessage = [&](const std::string& text) { messages.push_back(text); };
        Trainer(test::tinyConfig(2), run.toStdString()).run(callbacks);

        const QStringList lines = logLines(run);
        QVERIFY2(!lines.isEmpty(), "no log.txt in the run folder");
        // Every message the callbacks got is in the log, in order, after a timestamp.
        QCOMPARE(lines.size(), int(messages.size()));
        const QRegularExpression stamped(QStringLiteral("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  (.*)$"));
        for (int i = 0; i < lines.size(); ++i) {
            const auto match = stamped.match(lines[i]);
            QVERIFY2(match.hasMatch(), qPrintable(lines[i]));
            QCOMPARE(match.captured(1), QString::fromStdString(messages[size_t(i)]));
        }
        // The data loading message came before the folder was made by the session: it is kept.
        QVERIFY2(lines.first().contains(QStringLiteral("loading")), qPrintable(lines.first()));
        QVERIFY2(lines.last().endsWith(QStringLiteral("done")), qPrintable(lines.last()));
    }

    void aStoppedRunKeepsItsMessageAndAResumeAppends()
    {
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("run"));
        TrainingControl control;
        TrainingCallbacks callbacks;
        callbacks.onEpoch = [&](const EpochMetrics& m) { control.stopRequested = m.epoch == 1; };
        const TrainingResult stopped = Trainer(test::tinyConfig(3), run.toStdString()).run(callbacks, &control);
        QVERIFY(stopped.stopped);
        const nlohmann::json status = RunFolder(run.toStdString()).readJson(RunFolder::kStatus);
        QCOMPARE(status.value("state", ""), std::string("stopped"));
        const std::string why = status.value("message", "");
        QVERIFY2(why.find("stopped during epoch 2") != std::string::npos, why.c_str());
        const int linesBefore = int(logLines(run).size());
        QVERIFY(logLines(run).filter(QStringLiteral("stopped during epoch 2")).size() == 1);

        Trainer(test::tinyConfig(3), run.toStdString(), /*resume=*/true).run(TrainingCallbacks{});
        const QStringList after = logLines(run);
        QVERIFY(after.size() > linesBefore);
        QVERIFY(after[linesBefore].contains(QStringLiteral("loading")) || after[linesBefore].contains(QStringLiteral("resumed")));
        QVERIFY(after.last().endsWith(QStringLiteral("done")));
    }

    void messagesBeforeTheFolderExistsAreWrittenLater()
    {
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("later"));
        RunLog log(run.toStdString());
        log.append("first");
        QVERIFY(!QFile::exists(run));
        QVERIFY(QDir().mkpath(run));
        log.append("second\nline");
        const QStringList lines = logLines(run);
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].endsWith(QStringLiteral("  first")));
        QVERIFY(lines[1].endsWith(QStringLiteral("  second line")));
    }
};

QTEST_APPLESS_MAIN(TestRunLog)
#include "test_runlog.moc"
