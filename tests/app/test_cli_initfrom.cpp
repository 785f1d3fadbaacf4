// `lbd train --init-from` on the real binary: a run fine-tuned from the tiny run's folder records
// the absolute path in config.json (model.init_from, so --config reruns it from anywhere) and its
// log says what was loaded and that the classifier was kept (same classes); a file of another
// architecture, a missing file and a text file are refused with exit 2 and a message naming
// model.init_from and the file. The torchvision parity is core_test_pretrainedload.
#include "tests/app/clitest.h"

using namespace lbd::test;

class TestCliInitFrom final : public CliTest {
    Q_OBJECT

    QStringList trainArgs(const QString& out, const QString& from, const QStringList& extra = {}) const
    {
        return QStringList{QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny.json")),
                           QStringLiteral("--out"), out, QStringLiteral("--epochs"), QStringLiteral("1"),
                           QStringLiteral("--init-from"), from, QStringLiteral("--quiet")}
            + extra;
    }

private slots:
    void initTestCase()
    {
        trainTinyRun();
        QVERIFY2(!m_run.isEmpty(), qPrintable(m_trainFailure));
    }

    void fineTunesFromARunFolder()
    {
        // A relative path, as typed: recorded absolute.
        const QString relative = QDir::current().relativeFilePath(m_run);
        const QStringList args = trainArgs(path(QStringLiteral("tuned")), relative);
        const Result result = runLbd(args);
        QVERIFY2(result.finished && result.code == 0, qPrintable(result.describe(args)));
        const QJsonObject config = readJsonObject(path(QStringLiteral("tuned/config.json")));
        QCOMPARE(config.value(QStringLiteral("model")).toObject().value(QStringLiteral("init_from")).toString(),
                 QDir::cleanPath(m_run));
        const QString log = QString::fromUtf8(readFile(path(QStringLiteral("tuned/log.txt"))));
        for (const char* fragment : {"model.init_from: ", "weights.pt: an LBD run's weights (smallcnn, 4 classes)",
                                     "tensors loaded, every layer below the classifier",
                                     "head.weight loaded too: the file's classes are this data's"}) {
            QVERIFY2(log.contains(QLatin1String(fragment)), qPrintable(fragment + QStringLiteral("\n") + log));
        }
        // A config.json written without it does not name the key at all.
        QVERIFY(!readJsonObject(m_run + QStringLiteral("/config.json")).value(QStringLiteral("model")).toObject().contains(
            QStringLiteral("init_from")));
    }

    void refusesWhatDoesNotFit()
    {
        QVERIFY(writeFile(path(QStringLiteral("notes.pt")), "just text\n"));
        const struct {
            QString from;
            QStringList extra;
            const char* says;
        } cases[] = {
            {m_run, {QStringLiteral("--arch"), QStringLiteral("resnet32")}, "model.arch is resnet32"},
            {m_run, {QStringLiteral("--particles"), QStringLiteral("3")}, "with 2 particles; model.particles is 3"},
            {path(QStringLiteral("absent.pt")), {}, "absent.pt: file not found"},
            {path(QStringLiteral("notes.pt")), {}, "notes.pt: not a state dict"},
        };
        int n = 0;
        for (const auto& c : cases) {
            const QStringList args = trainArgs(path(QStringLiteral("refused%1").arg(n++)), c.from, c.extra);
            const Result result = runLbd(args);
            QVERIFY2(result.finished && result.status == QProcess::NormalExit && result.code == 2, qPrintable(result.describe(args)));
            QVERIFY2(result.err.contains(QStringLiteral("model.init_from: ")) && result.err.contains(QLatin1String(c.says)),
                     qPrintable(result.describe(args)));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliInitFrom)
#include "test_cli_initfrom.moc"
