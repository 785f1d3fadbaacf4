#pragma once
// The harness of the command-line tests (one test executable per verb, test_cli_<verb>.cpp): the
// real `lbd` binary run with QProcess, checking the exit status (0 ok, 2 bad input; a signal is
// always a failure) and what it prints, and a tiny run trained once per executable.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace lbd::test {

inline const QString kLbd = QStringLiteral(LBD_CLI_PATH);
inline const QString kFashionMnist = QStringLiteral(LBD_FASHION_MNIST_DIR);
inline const QString kTrainImages = QStringLiteral("train-images-idx3-ubyte.gz");

struct Result {
    QProcess::ExitStatus status = QProcess::CrashExit;
    int code = -1;
    bool finished = false;
    QString out;
    QString err;
    QString describe(const QStringList& args) const
    {
        return QStringLiteral("lbd %1\n  exit %2%3\n  stdout: %4\n  stderr: %5")
            .arg(args.join(QLatin1Char(' ')))
            .arg(code)
            .arg(status == QProcess::CrashExit ? QStringLiteral(" (killed by a signal)") : QString())
            .arg(out.left(2000), err.left(2000));
    }
};

// Fashion-MNIST's 60,000 training images at ratio 100 (lbd-math.md section 1).
inline const QList<int> kFashionCountsRatio100 = {6000, 3596, 2156, 1292, 774, 464, 278, 166, 100, 60};

// A data set that trains in a second or two on two shared CPU cores.
inline const char* kTinyConfig = R"({
  "name": "tiny",
  "data": {"dataset": "synthetic", "imbalance_ratio": 4,
           "synthetic": {"classes": 4, "train_per_class": 40, "test_per_class": 10, "channels": 1, "size": 16}},
  "augment": {"output_size": 16, "padding": 2},
  "model": {"arch": "smallcnn", "particles": 2},
  "objective": {"alpha": 0.7, "utility": "tail:0.5"},
  "decision": {"utility": "tail:0.5"},
  "train": {"epochs": 2, "batch_size": 32, "device": "cpu", "threads": 2}
})";

// A study file over the tiny config: one factor "method" with these levels, seeds 0 and 1, the
// config's "train" section updated with `train` (epochs, threads).
inline QByteArray tinyStudyJson(const QString& name, const QByteArray& levelsJson, const QJsonObject& train)
{
    QJsonObject config = QJsonDocument::fromJson(kTinyConfig).object();
    QJsonObject settings = config.value(QStringLiteral("train")).toObject();
    for (auto it = train.begin(); it != train.end(); ++it) {
        settings[it.key()] = it.value();
    }
    config[QStringLiteral("train")] = settings;
    const QJsonArray levels = QJsonDocument::fromJson(levelsJson).array();
    QJsonObject factor{{QStringLiteral("name"), QStringLiteral("method")}, {QStringLiteral("levels"), levels}};
    QJsonObject study{{QStringLiteral("name"), name},
                      {QStringLiteral("title"), name},
                      {QStringLiteral("claim"), QStringLiteral("none")},
                      {QStringLiteral("config"), config},
                      {QStringLiteral("seeds"), QJsonArray{0, 1}},
                      {QStringLiteral("factors"), QJsonArray{factor}}};
    return QJsonDocument(study).toJson();
}

// A JSON file's object, or an empty one when it cannot be read.
inline QJsonObject readJsonObject(const QString& file)
{
    QFile in(file);
    return in.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(in.readAll()).object() : QJsonObject();
}

} // namespace lbd::test

// Exit status and message at once: a crash, a timeout or the wrong status fails with the output.
#define EXPECT_EXIT(result, args, expected)                                                                    \
    do {                                                                                                       \
        QVERIFY2((result).finished, qPrintable(QStringLiteral("did not finish in time: ") + (result).describe(args))); \
        QVERIFY2((result).status == QProcess::NormalExit, qPrintable((result).describe(args)));                \
        QVERIFY2((result).code == (expected), qPrintable((result).describe(args)));                            \
    } while (false)

#define EXPECT_MENTIONS(text, fragment, result, args)                                                           \
    QVERIFY2((text).contains(fragment), qPrintable(QStringLiteral("expected '%1' in the message\n").arg(fragment) \
                                                   + (result).describe(args)))

namespace lbd::test {

// Base of every command-line test class: a temporary folder, the tiny run, and the helpers.
// (No Q_OBJECT here: the test classes derived from it declare the slots.)
class CliTest : public QObject {
protected:
    QTemporaryDir m_temp;
    QString m_run;          // the tiny run trained in initTestCase
    QString m_trainFailure; // why it could not be trained, reported by the tests that need it

    Result runLbd(const QStringList& args, int timeoutMs = 300000) const
    {
        return runLbd(args, QProcessEnvironment::systemEnvironment(), timeoutMs);
    }

    // With this environment (plus LBD_RUNS_DIR: nothing a test runs may write into the user's home).
    Result runLbd(const QStringList& args, QProcessEnvironment env, int timeoutMs) const
    {
        QProcess process;
        env.insert(QStringLiteral("LBD_RUNS_DIR"), m_temp.filePath(QStringLiteral("default-runs")));
        process.setProcessEnvironment(env);
        process.start(kLbd, args);
        Result result;
        if (!process.waitForStarted(30000)) {
            result.err = QStringLiteral("could not start ") + kLbd + QStringLiteral(": ") + process.errorString();
            return result;
        }
        result.finished = process.waitForFinished(timeoutMs);
        if (!result.finished) {
            process.kill();
            process.waitForFinished(5000);
        }
        result.status = process.exitStatus();
        result.code = process.exitCode();
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

    // Debian's python3 (PIL, torch) running `script` with `args`: the tests' way to write and
    // poison files the way Python users make them.
    static Result python(const QString& script, const QStringList& args)
    {
        QProcess process;
        process.start(QStringLiteral("/usr/bin/python3"), QStringList{QStringLiteral("-c"), script} + args);
        Result result;
        result.finished = process.waitForFinished(120000);
        result.status = process.exitStatus();
        result.code = process.exitCode();
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

    // A copy of the folder `source` (a run) at path(name), to damage without touching the
    // original; empty when it could not be made.
    QString copyOf(const QString& source, const QString& name) const
    {
        const Result made = python(QStringLiteral("import shutil, sys; shutil.copytree(sys.argv[1], sys.argv[2])"),
                                   {source, path(name)});
        return made.code == 0 ? path(name) : QString();
    }

    QString path(const QString& name) const { return m_temp.filePath(name); }

    static bool writeFile(const QString& file, const QByteArray& bytes)
    {
        QFile out(file);
        return out.open(QIODevice::WriteOnly | QIODevice::Truncate) && out.write(bytes) == bytes.size();
    }

    static QByteArray readFile(const QString& file)
    {
        QFile in(file);
        return in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray();
    }

    static bool haveFashionMnist() { return QFileInfo(kFashionMnist + QLatin1Char('/') + kTrainImages).isFile(); }

    // A copy of the Fashion-MNIST files in a fresh folder, for damaging one of them.
    QString copyFashionMnist(const QString& folder) const
    {
        const QString target = path(folder);
        QDir().mkpath(target);
        for (const QString& name : QDir(kFashionMnist).entryList({QStringLiteral("*-ubyte*")}, QDir::Files)) {
            QFile::remove(target + QLatin1Char('/') + name);
            if (!QFile::copy(kFashionMnist + QLatin1Char('/') + name, target + QLatin1Char('/') + name)) {
                return {};
            }
        }
        return target;
    }

    static QJsonDocument parseJson(const QString& text, QString* error)
    {
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &parseError);
        if (parseError.error != QJsonParseError::NoError) {
            *error = parseError.errorString() + QStringLiteral(" at offset ") + QString::number(parseError.offset);
        }
        return document;
    }

    // Trains the tiny run into m_run; on failure m_run stays empty and m_trainFailure says why
    // (the tests that need it report it, the others still run).
    void trainTinyRun()
    {
        QVERIFY2(QFileInfo(kLbd).isExecutable(), qPrintable(kLbd + QStringLiteral(" is not built")));
        QVERIFY(m_temp.isValid());
        QVERIFY(writeFile(path(QStringLiteral("tiny.json")), kTinyConfig));
        m_run = path(QStringLiteral("run"));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny.json")),
                                  QStringLiteral("--out"), m_run, QStringLiteral("--quiet")};
        const Result result = runLbd(args);
        if (!result.finished || result.status != QProcess::NormalExit || result.code != 0) {
            m_trainFailure = result.describe(args);
            m_run.clear();
        }
    }
};

} // namespace lbd::test
