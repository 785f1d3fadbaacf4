// Tests of the `lbd` command line as a user meets it: the real binary run with QProcess, checking
// the exit status (0 ok, 2 bad input; a signal is always a failure) and what it prints.
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

namespace {

const QString kLbd = QStringLiteral(LBD_CLI_PATH);
const QString kFashionMnist = QStringLiteral(LBD_FASHION_MNIST_DIR);
const QString kTrainImages = QStringLiteral("train-images-idx3-ubyte.gz");

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
const QList<int> kFashionCountsRatio100 = {6000, 3596, 2156, 1292, 774, 464, 278, 166, 100, 60};

// A data set that trains in a second or two on two shared CPU cores.
const char* kTinyConfig = R"({
  "name": "tiny",
  "data": {"dataset": "synthetic", "imbalance_ratio": 4,
           "synthetic": {"classes": 4, "train_per_class": 40, "test_per_class": 10, "channels": 1, "size": 16}},
  "augment": {"output_size": 16, "padding": 2},
  "model": {"arch": "smallcnn", "particles": 2},
  "objective": {"alpha": 0.7, "utility": "tail:0.5"},
  "decision": {"utility": "tail:0.5"},
  "train": {"epochs": 2, "batch_size": 32, "device": "cpu", "threads": 2}
})";

} // namespace

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

class TestCli final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_temp;
    QString m_run;          // the tiny run trained in initTestCase
    QString m_trainFailure; // why it could not be trained, reported by the tests that need it

    Result runLbd(const QStringList& args, int timeoutMs = 300000) const
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        // Nothing a test runs may write into the user's home.
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

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(kLbd).isExecutable(), qPrintable(kLbd + QStringLiteral(" is not built")));
        QVERIFY(m_temp.isValid());
        // The tiny run is needed by the eval / predict / export / resume tests only: a failure
        // here is reported there, so the data and option tests still run.
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

    // ---- lbd data --------------------------------------------------------------------------

    void dataFashionMnistCounts()
    {
        if (!haveFashionMnist()) {
            QSKIP("Fashion-MNIST is not installed (Debian package dataset-fashion-mnist)");
        }
        const QStringList args = {QStringLiteral("data"), QStringLiteral("--dataset"), QStringLiteral("fashion-mnist"),
                                  QStringLiteral("--imbalance-ratio"), QStringLiteral("100")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        // "    3  Dress                        1292     1000  med    many  "
        static const QRegularExpression row(QStringLiteral(R"(^\s*(\d+)\s{2}(.*\S)\s+(\d+)\s+(\d+)\s+\S+\s+\S+\s*$)"));
        static const QRegularExpression total(QStringLiteral(R"(^\s+total\s+(\d+)\s+(\d+)\s*$)"));
        QList<int> train;
        QList<int> test;
        QStringList names;
        int trainTotal = -1;
        int testTotal = -1;
        for (const QString& line : result.out.split(QLatin1Char('\n'))) {
            if (const auto match = row.match(line); match.hasMatch()) {
                QCOMPARE(match.captured(1).toInt(), train.size()); // class indices in order
                names << match.captured(2);
                train << match.captured(3).toInt();
                test << match.captured(4).toInt();
            } else if (const auto match = total.match(line); match.hasMatch()) {
                trainTotal = match.captured(1).toInt();
                testTotal = match.captured(2).toInt();
            }
        }
        QVERIFY2(train.size() == 10, qPrintable(result.describe(args)));
        QCOMPARE(train, kFashionCountsRatio100);
        QCOMPARE(test, QList<int>(10, 1000));
        QCOMPARE(trainTotal, 14886);
        QCOMPARE(testTotal, 10000);
        QCOMPARE(names.first(), QStringLiteral("T-shirt/top"));
        QCOMPARE(names.last(), QStringLiteral("Ankle boot"));
    }

    void dataFashionMnistJson()
    {
        if (!haveFashionMnist()) {
            QSKIP("Fashion-MNIST is not installed (Debian package dataset-fashion-mnist)");
        }
        const QStringList args = {QStringLiteral("data"), QStringLiteral("--dataset"), QStringLiteral("fashion-mnist"),
                                  QStringLiteral("--imbalance-ratio"), QStringLiteral("100"), QStringLiteral("--json")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        QString error;
        const QJsonObject root = parseJson(result.out, &error).object();
        QVERIFY2(error.isEmpty(), qPrintable(error + QLatin1Char('\n') + result.describe(args)));
        QCOMPARE(root.value(QStringLiteral("train_total")).toInt(), 14886);
        QCOMPARE(root.value(QStringLiteral("test_total")).toInt(), 10000);
        QCOMPARE(root.value(QStringLiteral("imbalance_ratio")).toDouble(), 100.0);
        const QJsonArray classes = root.value(QStringLiteral("classes")).toArray();
        QCOMPARE(classes.size(), 10);
        for (int c = 0; c < classes.size(); ++c) {
            const QJsonObject entry = classes[c].toObject();
            QCOMPARE(entry.value(QStringLiteral("index")).toInt(), c);
            QCOMPARE(entry.value(QStringLiteral("train")).toInt(), kFashionCountsRatio100[c]);
            QCOMPARE(entry.value(QStringLiteral("test")).toInt(), 1000);
            QVERIFY(!entry.value(QStringLiteral("name")).toString().isEmpty());
        }
    }

    void dataDamagedFile_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::newRow("truncated") << QStringLiteral("truncated");
        QTest::newRow("corrupt") << QStringLiteral("corrupt");
        QTest::newRow("not gzip") << QStringLiteral("garbage");
    }

    void dataDamagedFile()
    {
        if (!haveFashionMnist()) {
            QSKIP("Fashion-MNIST is not installed (Debian package dataset-fashion-mnist)");
        }
        QFETCH(QString, damage);
        const QString folder = copyFashionMnist(QStringLiteral("fmnist-") + damage);
        QVERIFY2(!folder.isEmpty(), "could not copy the Fashion-MNIST files");
        const QString file = folder + QLatin1Char('/') + kTrainImages;
        QByteArray bytes = readFile(file);
        QVERIFY(bytes.size() > 1000000);
        if (damage == QLatin1String("truncated")) {
            bytes.truncate(bytes.size() / 2);
        } else if (damage == QLatin1String("corrupt")) {
            for (qsizetype i = bytes.size() / 2; i < bytes.size() / 2 + 4096; ++i) {
                bytes[i] = static_cast<char>(bytes[i] ^ 0x5a); // a damaged stretch inside the deflate stream
            }
        } else {
            bytes = QByteArray("this is not a gzip file, nor an IDX file\n").repeated(100);
        }
        QVERIFY(writeFile(file, bytes));

        const QStringList args = {QStringLiteral("data"), QStringLiteral("--dataset"), QStringLiteral("fashion-mnist"),
                                  QStringLiteral("--data-dir"), folder, QStringLiteral("--imbalance-ratio"),
                                  QStringLiteral("100")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, kTrainImages, result, args);
        QVERIFY2(result.out.isEmpty(), qPrintable(result.describe(args))); // no table of counts from damaged data
    }

    void dataMissingDirectory()
    {
        const QString missing = path(QStringLiteral("no-such-folder"));
        const QStringList args = {QStringLiteral("data"), QStringLiteral("--dataset"), QStringLiteral("fashion-mnist"),
                                  QStringLiteral("--data-dir"), missing};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, missing, result, args);
        QVERIFY(!QFileInfo::exists(missing));
    }

    void dataBadImbalanceRatio_data()
    {
        QTest::addColumn<QString>("ratio");
        QTest::addColumn<QString>("named"); // what the message must name
        QTest::newRow("below 1") << QStringLiteral("0.5") << QStringLiteral("imbalance_ratio");
        QTest::newRow("zero") << QStringLiteral("0") << QStringLiteral("imbalance_ratio");
        QTest::newRow("negative") << QStringLiteral("-3") << QStringLiteral("imbalance_ratio");
        QTest::newRow("nan") << QStringLiteral("nan") << QStringLiteral("--imbalance-ratio");
        QTest::newRow("inf") << QStringLiteral("inf") << QStringLiteral("--imbalance-ratio");
        QTest::newRow("text") << QStringLiteral("ten") << QStringLiteral("--imbalance-ratio");
    }

    void dataBadImbalanceRatio()
    {
        QFETCH(QString, ratio);
        QFETCH(QString, named);
        // Synthetic data: the option is checked whatever data set is installed.
        const QStringList args = {QStringLiteral("data"), QStringLiteral("--dataset"), QStringLiteral("synthetic"),
                                  QStringLiteral("--imbalance-ratio"), ratio};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, named, result, args);
        EXPECT_MENTIONS(result.err, ratio, result, args);
    }

    void unknownOption()
    {
        const QStringList args = {QStringLiteral("data"), QStringLiteral("--dataset"), QStringLiteral("synthetic"),
                                  QStringLiteral("--imbalance-ration"), QStringLiteral("10")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("--imbalance-ration"), result, args);
    }

    void benchBadOptions_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("named");
        QTest::newRow("precision") << QStringList{QStringLiteral("--precision"), QStringLiteral("fp8")} << QStringLiteral("fp8");
        QTest::newRow("what") << QStringList{QStringLiteral("--what"), QStringLiteral("everything")}
                              << QStringLiteral("everything");
        QTest::newRow("seconds") << QStringList{QStringLiteral("--seconds"), QStringLiteral("0")}
                                 << QStringLiteral("--seconds");
    }

    // Refused before any measurement starts (so these return at once).
    void benchBadOptions()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, named);
        const QStringList args = QStringList{QStringLiteral("bench"), QStringLiteral("--device"), QStringLiteral("cpu")} + flags;
        const Result result = runLbd(args, 60000);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, named, result, args);
    }

    void unknownCommand()
    {
        const QStringList args = {QStringLiteral("frobnicate")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("frobnicate"), result, args);
    }

    void versionAndHelp()
    {
        const QStringList version = {QStringLiteral("--version")};
        const Result v = runLbd(version);
        EXPECT_EXIT(v, version, 0);
        EXPECT_MENTIONS(v.out, QStringLiteral("lbd " LBD_VERSION), v, version);
        EXPECT_MENTIONS(v.out, QStringLiteral("LibTorch"), v, version);
        const QStringList help = {QStringLiteral("--help")};
        const Result h = runLbd(help);
        EXPECT_EXIT(h, help, 0);
        for (const char* verb : {"data", "train", "eval", "predict", "export"}) {
            EXPECT_MENTIONS(h.out, QLatin1String(verb), h, help);
        }
    }

    // ---- lbd train: invalid configurations are refused before anything is written ---------

    void trainInvalidConfig_data()
    {
        QTest::addColumn<QString>("config"); // contents of a config file, or empty for flags only
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("named");
        QTest::newRow("epochs 0") << QStringLiteral(R"({"train": {"epochs": 0}})") << QStringList()
                                  << QStringLiteral("train.epochs");
        QTest::newRow("epochs text") << QStringLiteral(R"({"train": {"epochs": "many"}})") << QStringList()
                                     << QStringLiteral("train.epochs");
        QTest::newRow("unknown key") << QStringLiteral(R"({"train": {"epoch": 3}})") << QStringList()
                                     << QStringLiteral("train.epoch");
        QTest::newRow("batch size") << QStringLiteral(R"({"train": {"batch_size": -4}})") << QStringList()
                                    << QStringLiteral("train.batch_size");
        QTest::newRow("ratio") << QStringLiteral(R"({"data": {"dataset": "synthetic", "imbalance_ratio": 0.5}})")
                               << QStringList() << QStringLiteral("imbalance_ratio");
        QTest::newRow("--epochs abc") << QString() << QStringList{QStringLiteral("--epochs"), QStringLiteral("abc")}
                                      << QStringLiteral("--epochs");
        QTest::newRow("--lr nan") << QString() << QStringList{QStringLiteral("--lr"), QStringLiteral("nan")}
                                  << QStringLiteral("--lr");
        QTest::newRow("--epochs 0") << QString() << QStringList{QStringLiteral("--epochs"), QStringLiteral("0")}
                                    << QStringLiteral("train.epochs");
    }

    void trainInvalidConfig()
    {
        QFETCH(QString, config);
        QFETCH(QStringList, flags);
        QFETCH(QString, named);
        const QString out = path(QStringLiteral("refused-") + QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
        QStringList args = {QStringLiteral("train"), QStringLiteral("--quiet"), QStringLiteral("--out"), out};
        if (!config.isEmpty()) {
            const QString file = path(QStringLiteral("bad-config.json"));
            QVERIFY(writeFile(file, config.toUtf8()));
            args << QStringLiteral("--config") << file;
        } else {
            args << QStringLiteral("--config") << path(QStringLiteral("tiny.json"));
        }
        args << flags;
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, named, result, args);
        QVERIFY2(!QFileInfo::exists(out), "a refused config must not leave a run folder behind");
    }

    void trainConfigFileMissingOrNotJson()
    {
        const QString missing = path(QStringLiteral("absent.json"));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--config"), missing};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, missing, result, args);

        const QString broken = path(QStringLiteral("broken.json"));
        QVERIFY(writeFile(broken, "{\"train\": {\"epochs\": 2"));
        const QStringList args2 = {QStringLiteral("train"), QStringLiteral("--config"), broken};
        const Result result2 = runLbd(args2);
        EXPECT_EXIT(result2, args2, 2);
        EXPECT_MENTIONS(result2.err, broken, result2, args2);
        QVERIFY2(!QFileInfo::exists(path(QStringLiteral("default-runs"))), "a refused config made a run folder");
    }

    // ---- a trained run: eval, predict, export, resume -------------------------------------

    void tinyRunTrained()
    {
        QVERIFY2(!m_run.isEmpty(), qPrintable(QStringLiteral("training the tiny run failed:\n") + m_trainFailure));
        for (const char* file : {"config.json", "run.json", "status.json", "checkpoint.pt", "report.json",
                                 "test_probabilities.pt", "weights.pt", "metrics.jsonl"}) {
            QVERIFY2(QFileInfo(m_run + QLatin1Char('/') + QLatin1String(file)).isFile(), file);
        }
        QString error;
        const QJsonObject status = parseJson(QString::fromUtf8(readFile(m_run + QStringLiteral("/status.json"))), &error).object();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(status.value(QStringLiteral("state")).toString(), QStringLiteral("finished"));
    }

    void evalJson()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QStringList args = {QStringLiteral("eval"), m_run, QStringLiteral("--json")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        QString error;
        const QJsonObject report = parseJson(result.out, &error).object();
        QVERIFY2(error.isEmpty(), qPrintable(error + QLatin1Char('\n') + result.describe(args)));
        const QJsonObject accuracy = report.value(QStringLiteral("accuracy")).toObject();
        const double value = accuracy.value(QStringLiteral("accuracy")).toDouble(-1);
        QVERIFY2(value >= 0.0 && value <= 1.0, qPrintable(result.out.left(500)));
        QCOMPARE(accuracy.value(QStringLiteral("total")).toInt(), 40); // 4 classes x 10 test images
        QCOMPARE(report.value(QStringLiteral("classes")).toInt(), 4);
        QCOMPARE(report.value(QStringLiteral("particles")).toInt(), 2);
        QCOMPARE(report.value(QStringLiteral("utility")).toString(), QStringLiteral("tail:0.5"));
    }

    void evalUtilitiesAndRules_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("utility");
        QTest::newRow("tail eq7") << QStringList{QStringLiteral("--utility"), QStringLiteral("tail:0.5"),
                                                 QStringLiteral("--rule"), QStringLiteral("eq7")}
                                  << QStringLiteral("eq7") << QStringLiteral("tail:0.5");
        QTest::newRow("old name lbd") << QStringList{QStringLiteral("--rule"), QStringLiteral("lbd")}
                                      << QStringLiteral("eq7") << QStringLiteral("tail:0.5");
        QTest::newRow("mean-logit") << QStringList{QStringLiteral("--rule"), QStringLiteral("mean-logit")}
                                    << QStringLiteral("mean-logit") << QStringLiteral("tail:0.5");
        QTest::newRow("onehot") << QStringList{QStringLiteral("--utility"), QStringLiteral("onehot")} << QString()
                                << QStringLiteral("onehot");
        QTest::newRow("onehot argmax") << QStringList{QStringLiteral("--utility"), QStringLiteral("onehot"),
                                                      QStringLiteral("--rule"), QStringLiteral("argmax")}
                                       << QStringLiteral("argmax") << QStringLiteral("onehot");
        QTest::newRow("expected") << QStringList{QStringLiteral("--rule"), QStringLiteral("expected")}
                                  << QStringLiteral("expected") << QStringLiteral("tail:0.5");
    }

    void evalUtilitiesAndRules()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        QFETCH(QStringList, flags);
        QFETCH(QString, rule);
        QFETCH(QString, utility);
        const QStringList args = QStringList{QStringLiteral("eval"), m_run, QStringLiteral("--json")} + flags;
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        QString error;
        const QJsonObject report = parseJson(result.out, &error).object();
        QVERIFY2(error.isEmpty(), qPrintable(error + QLatin1Char('\n') + result.describe(args)));
        if (!rule.isEmpty()) {
            QCOMPARE(report.value(QStringLiteral("rule")).toString(), rule);
        }
        QCOMPARE(report.value(QStringLiteral("utility")).toString(), utility);
        const double accuracy = report.value(QStringLiteral("accuracy")).toObject().value(QStringLiteral("accuracy")).toDouble(-1);
        QVERIFY(accuracy >= 0.0 && accuracy <= 1.0);

        // The same without --json prints a report, not JSON.
        QStringList plain = args;
        plain.removeAll(QStringLiteral("--json"));
        const Result text = runLbd(plain);
        EXPECT_EXIT(text, plain, 0);
        QVERIFY2(!text.out.trimmed().startsWith(QLatin1Char('{')), qPrintable(text.describe(plain)));
    }

    void evalBadOptions_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("named");
        QTest::newRow("utility") << QStringList{QStringLiteral("--utility"), QStringLiteral("bayes")} << QStringLiteral("bayes");
        QTest::newRow("tail penalty") << QStringList{QStringLiteral("--utility"), QStringLiteral("tail:-1")}
                                      << QStringLiteral("tail:-1");
        QTest::newRow("rule") << QStringList{QStringLiteral("--rule"), QStringLiteral("majority")} << QStringLiteral("majority");
        QTest::newRow("defer with mean-logit") << QStringList{QStringLiteral("--rule"), QStringLiteral("mean-logit"),
                                                              QStringLiteral("--defer"), QStringLiteral("0.5")}
                                               << QStringLiteral("mean-logit");
        QTest::newRow("defer not a number") << QStringList{QStringLiteral("--defer"), QStringLiteral("half")}
                                            << QStringLiteral("--defer");
        QTest::newRow("split") << QStringList{QStringLiteral("--split"), QStringLiteral("train")} << QStringLiteral("train");
        QTest::newRow("validation missing") << QStringList{QStringLiteral("--split"), QStringLiteral("validation")}
                                            << QStringLiteral("--val-fraction");
        QTest::newRow("tune without validation") << QStringList{QStringLiteral("--tune"), QStringLiteral("defer")}
                                                 << QStringLiteral("val_probabilities.pt");
        QTest::newRow("matrix file") << QStringList{QStringLiteral("--utility"), QStringLiteral("/nonexistent/u.csv")}
                                     << QStringLiteral("u.csv");
    }

    void evalBadOptions()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        QFETCH(QStringList, flags);
        QFETCH(QString, named);
        const QStringList args = QStringList{QStringLiteral("eval"), m_run} + flags;
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, named, result, args);
    }

    // The decision matrix is the run's by value: editing, then deleting the user's file after
    // training leaves `lbd eval RUN` exactly as it was.
    void evalIgnoresTheUtilityFileAfterTraining()
    {
        const QString matrix = path(QStringLiteral("mine.csv"));
        QVERIFY(writeFile(matrix, "1,0,0,0\n-2,1,0,0\n-2,-1.5,1,0\n-2,-2,-2,1\n")); // not a tail:c preset
        const QString run = path(QStringLiteral("run-file-utility"));
        const QStringList trainArgs = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny.json")),
                                       QStringLiteral("--epochs"), QStringLiteral("1"), QStringLiteral("--utility"), matrix,
                                       QStringLiteral("--train-utility"), matrix, QStringLiteral("--out"), run,
                                       QStringLiteral("--quiet")};
        const Result trained = runLbd(trainArgs);
        EXPECT_EXIT(trained, trainArgs, 0);
        const QStringList evalArgs = {QStringLiteral("eval"), run, QStringLiteral("--json")};
        const Result before = runLbd(evalArgs);
        EXPECT_EXIT(before, evalArgs, 0);
        QVERIFY(writeFile(matrix, "1,0,0,0\n0,1,0,0\n0,0,1,0\n0,0,0,1\n"));
        const Result edited = runLbd(evalArgs);
        EXPECT_EXIT(edited, evalArgs, 0);
        QVERIFY(QFile::remove(matrix));
        const Result deleted = runLbd(evalArgs);
        EXPECT_EXIT(deleted, evalArgs, 0);
        QCOMPARE(edited.out, before.out);
        QCOMPARE(deleted.out, before.out);
        QVERIFY2(!deleted.err.contains(QStringLiteral("note")), qPrintable(deleted.err));
        EXPECT_MENTIONS(before.out, QStringLiteral("mine.csv"), before, evalArgs); // "matrix from mine.csv"
    }

    // eval's defer option and the eq7 warning on stderr.
    void evalDeferAndWarnings()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QStringList deferArgs = {QStringLiteral("eval"), m_run, QStringLiteral("--json"), QStringLiteral("--defer"),
                                       QStringLiteral("0.2")};
        const Result deferred = runLbd(deferArgs);
        EXPECT_EXIT(deferred, deferArgs, 0);
        QString error;
        const QJsonObject report = parseJson(deferred.out, &error).object();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonObject defer = report.value(QStringLiteral("defer")).toObject();
        QCOMPARE(defer.value(QStringLiteral("utility")).toDouble(), 0.2);
        QCOMPARE(defer.value(QStringLiteral("decided")).toInt() + defer.value(QStringLiteral("deferred")).toInt(), 40);
        QVERIFY(report.value(QStringLiteral("risk_coverage")).toObject().contains(QStringLiteral("all")));

        const QStringList eq7 = {QStringLiteral("eval"), m_run, QStringLiteral("--rule"), QStringLiteral("eq7"),
                                 QStringLiteral("--utility"), QStringLiteral("tail:2")};
        const Result warned = runLbd(eq7);
        EXPECT_EXIT(warned, eq7, 0);
        EXPECT_MENTIONS(warned.err, QStringLiteral("warning: the eq7 rule is degenerate"), warned, eq7);
        EXPECT_MENTIONS(warned.out, QStringLiteral("WARNING"), warned, eq7);
        const QStringList plain = {QStringLiteral("eval"), m_run, QStringLiteral("--utility"), QStringLiteral("onehot")};
        const Result quiet = runLbd(plain);
        EXPECT_EXIT(quiet, plain, 0);
        QVERIFY2(!quiet.err.contains(QStringLiteral("eq7")), qPrintable(quiet.describe(plain)));
    }

    // A run with a validation split: tune on it, report the test split.
    void evalTunesOnValidation()
    {
        const QString run = path(QStringLiteral("run-validation"));
        const QStringList trainArgs = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny.json")),
                                       QStringLiteral("--val-fraction"), QStringLiteral("0.25"), QStringLiteral("--out"), run,
                                       QStringLiteral("--quiet")};
        const Result trained = runLbd(trainArgs);
        EXPECT_EXIT(trained, trainArgs, 0);
        QVERIFY(QFileInfo(run + QStringLiteral("/val_probabilities.pt")).isFile());
        for (const QString& what : {QStringLiteral("defer"), QStringLiteral("tail-penalty")}) {
            const QStringList args = {QStringLiteral("eval"), run, QStringLiteral("--tune"), what, QStringLiteral("--json")};
            const Result tuned = runLbd(args);
            EXPECT_EXIT(tuned, args, 0);
            QString error;
            const QJsonObject report = parseJson(tuned.out, &error).object();
            QVERIFY2(error.isEmpty(), qPrintable(error + tuned.describe(args)));
            QCOMPARE(report.value(QStringLiteral("split")).toString(), QStringLiteral("test"));
            QCOMPARE(report.value(QStringLiteral("tuning")).toObject().value(QStringLiteral("what")).toString(), what);
            QCOMPARE(report.value(QStringLiteral("images")).toInt(), 40); // reported on the test split
        }
        const QStringList validation = {QStringLiteral("eval"), run, QStringLiteral("--split"), QStringLiteral("validation"),
                                        QStringLiteral("--json")};
        const Result onValidation = runLbd(validation);
        EXPECT_EXIT(onValidation, validation, 0);
        QString error;
        QVERIFY(parseJson(onValidation.out, &error).object().value(QStringLiteral("images")).toInt() < 40);
    }

    // --baseline over a config replaces what the method defines and keeps the rest (alpha 0.7
    // of tiny.json); an unstable training utility warns on stderr before training.
    void baselineKeepsConfigValuesAndUnstableUtilityWarns()
    {
        const QString run = path(QStringLiteral("run-baseline"));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny.json")),
                                  QStringLiteral("--baseline"), QStringLiteral("lbd"), QStringLiteral("--epochs"),
                                  QStringLiteral("1"), QStringLiteral("--train-utility"), QStringLiteral("tail:1"),
                                  QStringLiteral("--utility-form"), QStringLiteral("paper"), QStringLiteral("--out"), run,
                                  QStringLiteral("--quiet")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        EXPECT_MENTIONS(result.err, QStringLiteral("warning: the paper utility form is unbounded below"), result, args);
        QString error;
        const QJsonObject config = parseJson(QString::fromUtf8(readFile(run + QStringLiteral("/config.json"))), &error).object();
        const QJsonObject objective = config.value(QStringLiteral("objective")).toObject();
        QCOMPARE(objective.value(QStringLiteral("alpha")).toDouble(), 0.7);
        QCOMPARE(objective.value(QStringLiteral("utility_form")).toString(), QStringLiteral("paper"));
        QCOMPARE(config.value(QStringLiteral("model")).toObject().value(QStringLiteral("particles")).toInt(), 3);
    }

    void evalNotARun()
    {
        const QString empty = path(QStringLiteral("not-a-run"));
        QVERIFY(QDir().mkpath(empty));
        QVERIFY(writeFile(empty + QStringLiteral("/notes.txt"), "hello\n"));
        const QStringList args = {QStringLiteral("eval"), empty};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, empty, result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("config.json"), result, args);
    }

    void missingRunFolder_data()
    {
        QTest::addColumn<QString>("verb");
        QTest::newRow("eval") << QStringLiteral("eval");
        QTest::newRow("train --resume") << QStringLiteral("resume");
        QTest::newRow("predict") << QStringLiteral("predict");
        QTest::newRow("export") << QStringLiteral("export");
    }

    // A mistyped run folder is an error naming it, and is not created.
    void missingRunFolder()
    {
        QFETCH(QString, verb);
        const QString missing = path(QStringLiteral("no-such-run-") + QString(verb).remove(QLatin1Char(' ')));
        QStringList args;
        if (verb == QLatin1String("resume")) {
            args = {QStringLiteral("train"), QStringLiteral("--resume"), missing};
        } else if (verb == QLatin1String("predict")) {
            args = {verb, missing, path(QStringLiteral("any.png"))};
        } else if (verb == QLatin1String("export")) {
            args = {verb, missing, QStringLiteral("--out"), path(QStringLiteral("unused.pt"))};
        } else {
            args = {verb, missing};
        }
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, missing, result, args);
        // Reading a run must not create its folder.
        QVERIFY2(!QFileInfo::exists(missing), "lbd created the folder it was asked to read");
    }

    void predictTextFile()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QString notes = path(QStringLiteral("notes.txt"));
        QVERIFY(writeFile(notes, "These are notes, not an image.\n"));
        const QStringList args = {QStringLiteral("predict"), m_run, notes};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, notes, result, args);
    }

    void predictMissingImage()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QString missing = path(QStringLiteral("gone.png"));
        const QStringList args = {QStringLiteral("predict"), m_run, missing};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, missing, result, args);
    }

    void predictPng()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        // One image in the run's own format, one that must be converted (colour, another size).
        QImage gray(16, 16, QImage::Format_Grayscale8);
        for (int y = 0; y < gray.height(); ++y) {
            for (int x = 0; x < gray.width(); ++x) {
                gray.setPixel(x, y, qRgb(x * 16, x * 16, x * 16));
            }
        }
        QImage colour(37, 23, QImage::Format_RGB32);
        colour.fill(QColor(200, 40, 90));
        const QString grayPath = path(QStringLiteral("gray.png"));
        const QString colourPath = path(QStringLiteral("colour.png"));
        QVERIFY(gray.save(grayPath, "PNG"));
        QVERIFY(colour.save(colourPath, "PNG"));

        const QStringList args = {QStringLiteral("predict"), m_run, grayPath, colourPath, QStringLiteral("--json")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        QString error;
        const QJsonArray predictions = parseJson(result.out, &error).array();
        QVERIFY2(error.isEmpty(), qPrintable(error + QLatin1Char('\n') + result.describe(args)));
        QCOMPARE(predictions.size(), 2);
        for (const auto& value : predictions) {
            const QJsonObject prediction = value.toObject();
            QVERIFY2(!prediction.contains(QStringLiteral("error")), qPrintable(result.describe(args)));
            const QJsonArray probabilities = prediction.value(QStringLiteral("probabilities")).toArray();
            QCOMPARE(probabilities.size(), 4);
            double sum = 0;
            for (const auto& p : probabilities) {
                QVERIFY(p.toDouble(-1) >= 0.0 && p.toDouble(-1) <= 1.0);
                sum += p.toDouble();
            }
            QVERIFY2(std::abs(sum - 1.0) < 1e-4, qPrintable(QString::number(sum, 'g', 10)));
            const QJsonArray particles = prediction.value(QStringLiteral("particle_probabilities")).toArray();
            QCOMPARE(particles.size(), 2);
            for (const auto& particle : particles) {
                double particleSum = 0;
                for (const auto& p : particle.toArray()) {
                    particleSum += p.toDouble();
                }
                QVERIFY(std::abs(particleSum - 1.0) < 1e-4);
            }
            QVERIFY(!prediction.value(QStringLiteral("decision")).toString().isEmpty());
            const double epistemic = prediction.value(QStringLiteral("epistemic")).toDouble(-1);
            QVERIFY(epistemic >= -1e-6);
        }
    }

    void exportWeights()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QString weights = path(QStringLiteral("w.pt"));
        const QStringList args = {QStringLiteral("export"), m_run, QStringLiteral("--out"), weights};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        EXPECT_MENTIONS(result.out, weights, result, args);
        const QByteArray bytes = readFile(weights);
        QVERIFY2(bytes.size() > 1000, qPrintable(QString::number(bytes.size())));
        QVERIFY2(bytes.startsWith("PK"), "not a zip archive as torch.load reads"); // torch's zip container

        const QStringList noOut = {QStringLiteral("export"), m_run};
        const Result usage = runLbd(noOut);
        EXPECT_EXIT(usage, noOut, 2);
        EXPECT_MENTIONS(usage.err, QStringLiteral("--out"), usage, noOut);
    }

    // Resuming a finished run has nothing to train: it must succeed quickly and leave the
    // results as they were.
    void resumeFinishedRun()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QByteArray report = readFile(m_run + QStringLiteral("/report.json"));
        const QByteArray probabilities = readFile(m_run + QStringLiteral("/test_probabilities.pt"));
        const QByteArray checkpoint = readFile(m_run + QStringLiteral("/checkpoint.pt"));
        const QByteArray manifest = readFile(m_run + QStringLiteral("/run.json"));
        const QByteArray metrics = readFile(m_run + QStringLiteral("/metrics.jsonl"));
        QVERIFY(!report.isEmpty() && !probabilities.isEmpty() && !checkpoint.isEmpty() && !manifest.isEmpty());

        const QStringList args = {QStringLiteral("train"), QStringLiteral("--resume"), m_run};
        QElapsedTimer timer;
        timer.start();
        const Result result = runLbd(args, 120000);
        EXPECT_EXIT(result, args, 0);
        QVERIFY2(timer.elapsed() < 60000, qPrintable(QStringLiteral("took %1 ms").arg(timer.elapsed())));
        QCOMPARE(readFile(m_run + QStringLiteral("/report.json")), report);
        QCOMPARE(readFile(m_run + QStringLiteral("/test_probabilities.pt")), probabilities);
        QCOMPARE(readFile(m_run + QStringLiteral("/checkpoint.pt")), checkpoint);
        QCOMPARE(readFile(m_run + QStringLiteral("/run.json")), manifest); // its "created" time included
        QCOMPARE(readFile(m_run + QStringLiteral("/metrics.jsonl")), metrics);
        EXPECT_MENTIONS(result.err + result.out, QStringLiteral("nothing to do"), result, args);
        QString error;
        const QJsonObject status = parseJson(QString::fromUtf8(readFile(m_run + QStringLiteral("/status.json"))), &error).object();
        QCOMPARE(status.value(QStringLiteral("state")).toString(), QStringLiteral("finished"));

        // And the run still evaluates as before.
        const QStringList eval = {QStringLiteral("eval"), m_run, QStringLiteral("--json")};
        const Result evaluated = runLbd(eval);
        EXPECT_EXIT(evaluated, eval, 0);
    }

    void resumeWithoutCheckpoint()
    {
        const QString folder = path(QStringLiteral("empty-run"));
        QVERIFY(QDir().mkpath(folder));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--resume"), folder};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("checkpoint.pt"), result, args);
    }

    void trainIntoExistingRun()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny.json")),
                                  QStringLiteral("--out"), m_run, QStringLiteral("--quiet")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("--resume"), result, args);
    }
};

QTEST_APPLESS_MAIN(TestCli)
#include "test_cli.moc"
