// Provenance in every run and `lbd diff` (issue 29 item 5): run.json records the build and its
// commit, the command line, the machine, the GPU software ("none" on the CPU) and the data's
// fingerprint, every field filled; `lbd diff` on two runs that differ in one setting prints
// exactly that key among the config differences, the command lines among the environment's, and
// refuses a folder that is not a run.
#include "tests/app/clitest.h"

#include <QSysInfo>

using namespace lbd::test;

namespace {

QJsonObject provenanceOf(const QString& run)
{
    QFile in(run + QStringLiteral("/run.json"));
    if (!in.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(in.readAll()).object().value(QStringLiteral("provenance")).toObject();
}

// The lines of one section of `lbd diff`'s output ("config: 1 difference" and its indented rows).
QStringList sectionLines(const QString& out, const QString& section)
{
    QStringList lines;
    bool inside = false;
    for (const QString& line : out.split(QLatin1Char('\n'))) {
        if (!line.startsWith(QLatin1Char(' '))) {
            inside = line.startsWith(section + QStringLiteral(": "));
            if (inside) {
                lines << line;
            }
        } else if (inside) {
            lines << line.trimmed();
        }
    }
    return lines;
}

} // namespace

class TestCliDiff final : public CliTest {
    Q_OBJECT

    QString m_other; // the tiny run again with objective.alpha 0.5

private slots:
    void initTestCase()
    {
        trainTinyRun();
        QVERIFY2(!m_run.isEmpty(), qPrintable(m_trainFailure));
        m_other = path(QStringLiteral("other"));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny.json")),
                                  QStringLiteral("--out"), m_other, QStringLiteral("--quiet"), QStringLiteral("--set"),
                                  QStringLiteral("objective.alpha=0.5")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
    }

    void everyProvenanceFieldIsFilled()
    {
        const QJsonObject provenance = provenanceOf(m_run);
        const QStringList keys = {QStringLiteral("lbd_version"), QStringLiteral("git_commit"), QStringLiteral("command_line"),
                                  QStringLiteral("host"),        QStringLiteral("cpu"),        QStringLiteral("gpu"),
                                  QStringLiteral("gpu_driver"),  QStringLiteral("cuda"),       QStringLiteral("cudnn"),
                                  QStringLiteral("nccl"),        QStringLiteral("libtorch"),   QStringLiteral("data_fingerprint")};
        QCOMPARE(provenance.keys().size(), keys.size());
        for (const QString& key : keys) {
            QVERIFY2(provenance.value(key).isString() && !provenance.value(key).toString().trimmed().isEmpty(), qPrintable(key));
        }
        QCOMPARE(provenance.value(QStringLiteral("lbd_version")).toString(), QStringLiteral(LBD_VERSION));
        // Built from this checkout: the commit CMake read (a tarball says "unknown").
        const QString sourceRoot = QFileInfo(QStringLiteral(__FILE__)).absoluteDir().filePath(QStringLiteral("../.."));
        if (QFileInfo::exists(sourceRoot + QStringLiteral("/.git"))) {
            QVERIFY2(QRegularExpression(QStringLiteral("^[0-9a-f]{40}(-dirty)?$"))
                         .match(provenance.value(QStringLiteral("git_commit")).toString())
                         .hasMatch(),
                     qPrintable(provenance.value(QStringLiteral("git_commit")).toString()));
        }
        const QString commandLine = provenance.value(QStringLiteral("command_line")).toString();
        QVERIFY2(commandLine.startsWith(kLbd + QStringLiteral(" train --config ") + path(QStringLiteral("tiny.json"))),
                 qPrintable(commandLine));
        QCOMPARE(provenance.value(QStringLiteral("host")).toString(), QSysInfo::machineHostName());
        QVERIFY(provenance.value(QStringLiteral("data_fingerprint")).toString().startsWith(QStringLiteral("fnv1a64:")));
        // No GPU in this process: every GPU field says so.
        const Result version = runLbd({QStringLiteral("--version")});
        if (version.out.contains(QStringLiteral("CUDA not available"))) {
            for (const char* key : {"gpu", "gpu_driver", "cuda", "cudnn", "nccl"}) {
                QCOMPARE(provenance.value(QLatin1String(key)).toString(), QStringLiteral("none"));
            }
        }
        // The same synthetic data, the same fingerprint.
        QCOMPARE(provenanceOf(m_other).value(QStringLiteral("data_fingerprint")), provenance.value(QStringLiteral("data_fingerprint")));
    }

    void diffPrintsExactlyTheChangedKey()
    {
        const QStringList args = {QStringLiteral("diff"), m_run, m_other};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        QCOMPARE(sectionLines(result.out, QStringLiteral("config")),
                 QStringList({QStringLiteral("config: 1 difference"), QStringLiteral("objective.alpha: 0.7  ->  0.5")}));
        const QStringList environment = sectionLines(result.out, QStringLiteral("environment"));
        QVERIFY2(environment.size() == 2 && environment[1].startsWith(QStringLiteral("command_line: ")), qPrintable(result.out));
        QVERIFY2(!sectionLines(result.out, QStringLiteral("metrics")).isEmpty(), qPrintable(result.out));

        const QStringList json = {QStringLiteral("diff"), m_run, m_other, QStringLiteral("--json")};
        const Result asJson = runLbd(json);
        EXPECT_EXIT(asJson, json, 0);
        const QJsonArray config = QJsonDocument::fromJson(asJson.out.toUtf8()).object().value(QStringLiteral("config")).toArray();
        QCOMPARE(config.size(), 1);
        QCOMPARE(config[0].toObject().value(QStringLiteral("key")).toString(), QStringLiteral("objective.alpha"));
    }

    void aRunDiffersFromItselfInNothing()
    {
        const QStringList args = {QStringLiteral("diff"), m_run, m_run};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        for (const char* section : {"config", "environment", "metrics"}) {
            QCOMPARE(sectionLines(result.out, QLatin1String(section)), QStringList(QLatin1String(section) + QStringLiteral(": no differences")));
        }
    }

    void aFolderThatIsNotARunIsRefused()
    {
        QDir().mkpath(path(QStringLiteral("empty")));
        const QStringList args = {QStringLiteral("diff"), m_run, path(QStringLiteral("empty"))};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, path(QStringLiteral("empty")) + QStringLiteral(": not a run folder"), result, args);
    }
};

QTEST_MAIN(TestCliDiff)
#include "test_cli_diff.moc"
