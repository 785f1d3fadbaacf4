// Run-folder files read back only as their writer can produce them (issues 35 item 5 and 37):
// - a pickle calling os.system (made here by /usr/bin/python3: a class whose __reduce__ returns
//   (os.system, ("touch MARKER",))) inside checkpoint.pt, weights.pt or test_probabilities.pt is
//   refused with exit 2 naming the file by every loader: predict, export --onnx, ood --fit, eval,
//   train --resume, --init-from (a file and a run folder); the marker the payload would create
//   is absent, and Python's own unpickler does run it (the fixture is a real poison);
// - a flipped byte is found by the zip's CRC-32 before anything is parsed;
// - a test_probabilities.pt grown to 2 GiB is refused from its size against the run's metadata,
//   one with a NaN or a 7.5 from its values;
// - `lbd diff` reads config.json as `lbd eval` does (over the value limit: exit 2, not "empty");
// - `lbd study DIR --summarize` with a report.json field of the wrong type or out of range:
//   exit 2 naming the file and field.
#include "tests/app/clitest.h"

#include <QRegularExpression>

using namespace lbd::test;

namespace {

// Copies RUN to COPY and replaces the data.pkl of COPY/FILE with a pickle whose object calls
// os.system("touch MARKER") when Python unpickles it; every other entry stays as written.
const char* kPoison = R"(
import os, pickle, shutil, sys, zipfile
run, copy, name, marker = sys.argv[1:5]
shutil.copytree(run, copy)
class Evil:
    def __reduce__(self):
        return (os.system, ("touch " + marker,))
path = os.path.join(copy, name)
with zipfile.ZipFile(path) as source:
    entries = [(info.filename, source.read(info)) for info in source.infolist()]
with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as out:
    for entry, data in entries:
        out.writestr(entry, pickle.dumps({"x": Evil()}, protocol=2) if entry.endswith("/data.pkl") else data)
)";

} // namespace

class TestCliRunFileChecks final : public CliTest {
    Q_OBJECT

    // A copy of the tiny run with FILE poisoned; the payload would create `marker`.
    QString poisoned(const QString& name, const QString& file, const QString& marker) const
    {
        const QString copy = path(name);
        const Result made = python(QString::fromUtf8(kPoison), {m_run, copy, file, marker});
        return made.finished && made.code == 0 ? copy : QString();
    }

private slots:
    void initTestCase()
    {
        trainTinyRun();
        QVERIFY2(!m_run.isEmpty(), qPrintable(m_trainFailure));
        const Result image = python(QStringLiteral("import sys; from PIL import Image; Image.new('L', (16, 16)).save(sys.argv[1])"),
                                    {path(QStringLiteral("image.png"))});
        QVERIFY2(image.code == 0, qPrintable(image.err));
    }

    // The fixture is a real poison: Python's pickle runs its payload.
    void poisonRunsUnderPython()
    {
        const QString marker = path(QStringLiteral("python-marker"));
        const QString copy = poisoned(QStringLiteral("python-check"), QStringLiteral("checkpoint.pt"), marker);
        QVERIFY(!copy.isEmpty());
        const Result loaded = python(QStringLiteral("import pickle, sys, zipfile\n"
                                                    "z = zipfile.ZipFile(sys.argv[1])\n"
                                                    "pickle.loads(z.read([n for n in z.namelist() if n.endswith('/data.pkl')][0]))"),
                                     {copy + QStringLiteral("/checkpoint.pt")});
        QVERIFY2(loaded.code == 0, qPrintable(loaded.err));
        QVERIFY(QFileInfo::exists(marker));
    }

    void poisonedFileRefused_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("args"); // RUN stands for the poisoned copy, OUT for a fresh path
        QTest::addColumn<QString>("named");   // what the message must name
        const QString checkpoint = QStringLiteral("checkpoint.pt");
        QTest::newRow("predict") << checkpoint << QStringList{"predict", "RUN", "IMAGE"} << "RUN/checkpoint.pt";
        QTest::newRow("export --onnx") << checkpoint << QStringList{"export", "RUN", "--onnx", "OUT"} << "RUN/checkpoint.pt";
        QTest::newRow("export --out") << checkpoint << QStringList{"export", "RUN", "--out", "OUT"} << "RUN/checkpoint.pt";
        QTest::newRow("ood --fit") << checkpoint << QStringList{"ood", "RUN", "--fit"} << "RUN/checkpoint.pt";
        QTest::newRow("train --resume") << checkpoint << QStringList{"train", "--resume", "RUN", "--epochs", "3", "--quiet"}
                                        << "RUN/checkpoint.pt";
        QTest::newRow("eval") << QStringLiteral("test_probabilities.pt") << QStringList{"eval", "RUN"}
                              << "RUN/test_probabilities.pt";
        QTest::newRow("--init-from checkpoint.pt")
            << checkpoint << QStringList{"train", "--config", "TINY", "--init-from", "RUN/checkpoint.pt", "--out", "OUT", "--quiet"}
            << "RUN/checkpoint.pt";
        QTest::newRow("--init-from RUN (weights.pt)")
            << QStringLiteral("weights.pt")
            << QStringList{"train", "--config", "TINY", "--init-from", "RUN", "--out", "OUT", "--quiet"} << "RUN/weights.pt";
    }

    void poisonedFileRefused()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(QRegularExpression("[^a-z]+"), "-");
        const QString marker = path(QStringLiteral("marker") + tag);
        const QString copy = poisoned(QStringLiteral("poisoned") + tag, file, marker);
        QVERIFY(!copy.isEmpty());
        const QString out = path(QStringLiteral("out") + tag);
        for (QString& arg : args) {
            arg.replace(QStringLiteral("RUN"), copy).replace(QStringLiteral("IMAGE"), path(QStringLiteral("image.png")));
            arg.replace(QStringLiteral("OUT"), out).replace(QStringLiteral("TINY"), path(QStringLiteral("tiny.json")));
        }
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QFileInfo(named.replace(QStringLiteral("RUN"), copy)).fileName(), result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("posix.system"), result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("refused"), result, args);
        QVERIFY2(!QFileInfo::exists(marker), "the payload ran");
        QVERIFY2(!QFileInfo(out).isFile(), "the refused command wrote its output");
    }

    // One flipped byte inside a tensor's entry: found by the entry's CRC-32 before LibTorch parses.
    void flippedByteFoundByCrc()
    {
        const QString copy = copyOf(m_run, QStringLiteral("flipped"));
        QVERIFY(!copy.isEmpty());
        const Result flipped = python(QStringLiteral("import sys, zipfile\n"
                                                     "p = sys.argv[1]; z = zipfile.ZipFile(p)\n"
                                                     "i = [i for i in z.infolist() if i.filename.endswith('/data/3')][0]\n"
                                                     "at = i.header_offset + 30 + len(i.filename) + len(i.extra) + 10\n"
                                                     "b = bytearray(open(p, 'rb').read()); b[at] ^= 1; open(p, 'wb').write(b)"),
                                      {copy + QStringLiteral("/checkpoint.pt")});
        QVERIFY2(flipped.code == 0, qPrintable(flipped.err));
        const QStringList args = {QStringLiteral("predict"), copy, path(QStringLiteral("image.png"))};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("checkpoint.pt: damaged"), result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("CRC-32"), result, args);
    }

    // 2 GiB of zeros behind the file's intact start: refused from its size, before it is opened.
    void oversizedProbabilitiesRefused()
    {
        const QString copy = copyOf(m_run, QStringLiteral("grown"));
        QVERIFY(!copy.isEmpty());
        QFile file(copy + QStringLiteral("/test_probabilities.pt"));
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.resize(qint64(2) << 30));
        file.close();
        const QStringList args = {QStringLiteral("eval"), copy};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        // 2 particles x 40 images x 4 classes of floats, 40 labels, the names and 1 MiB.
        EXPECT_MENTIONS(result.err, QStringLiteral("test_probabilities.pt: 2147483648 bytes, more than the "), result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("(2 particles x 40 images x 4 classes"), result, args);
    }

    void probabilityValuesChecked_data()
    {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("expected");
        QTest::newRow("NaN") << "p[0, 0, 0] = float('nan')" << "outside [0, 1] (or not finite)";
        QTest::newRow("7.5") << "p[1, 3, 2] = 7.5" << "outside [0, 1]";
        QTest::newRow("row of 0.5") << "p[0, 5] = p[0, 5] / 2" << "a row summing to 0.5";
    }

    void probabilityValuesChecked()
    {
        QFETCH(QString, edit);
        QFETCH(QString, expected);
        const QString copy = copyOf(m_run, QStringLiteral("values-") + QString::fromLatin1(QTest::currentDataTag()).remove(' '));
        QVERIFY(!copy.isEmpty());
        const Result edited = python(QStringLiteral("import sys, torch\nf = sys.argv[1]\nd = torch.load(f)\n"
                                                    "p = d['probabilities']\n") + edit + QStringLiteral("\ntorch.save(d, f)"),
                                     {copy + QStringLiteral("/test_probabilities.pt")});
        QVERIFY2(edited.code == 0, qPrintable(edited.err));
        const QStringList args = {QStringLiteral("eval"), copy, QStringLiteral("--json")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("test_probabilities.pt: field probabilities"), result, args);
        EXPECT_MENTIONS(result.err, expected, result, args);
        QVERIFY(!result.out.contains(QStringLiteral("NaN"), Qt::CaseInsensitive));
    }

    // Over the 4,000,000-value limit: refused by diff as by eval, not read as an empty config.
    void diffRefusesConfigOverLimit()
    {
        const QString copy = copyOf(m_run, QStringLiteral("huge-config"));
        QVERIFY(!copy.isEmpty());
        const Result grown = python(QStringLiteral("import json, sys\nf = sys.argv[1]\nc = json.load(open(f))\n"
                                                   "c['decision']['utility'] = {'matrix': [[0] * 2001 for _ in range(2001)]}\n"
                                                   "json.dump(c, open(f, 'w'))"),
                                    {copy + QStringLiteral("/config.json")});
        QVERIFY2(grown.code == 0, qPrintable(grown.err));
        for (const QStringList& args : {QStringList{QStringLiteral("diff"), m_run, copy}, QStringList{QStringLiteral("eval"), copy}}) {
            const Result result = runLbd(args);
            EXPECT_EXIT(result, args, 2);
            EXPECT_MENTIONS(result.err, copy + QStringLiteral("/config.json: JSON with more than 4000000 values"), result, args);
        }
    }

    // A stored matrix is one row of the diff, shown shortened, and a setting that differs is named.
    void diffShowsMatrixAsOneRow()
    {
        const QString copy = copyOf(m_run, QStringLiteral("matrix-config"));
        QVERIFY(!copy.isEmpty());
        const Result edited = python(QStringLiteral("import json, sys\nf = sys.argv[1]\nc = json.load(open(f))\n"
                                                    "c['decision']['utility'] = {'matrix': [[1 if t == d else 0.25 for d in range(4)] for t in range(4)]}\n"
                                                    "json.dump(c, open(f, 'w'))"),
                                     {copy + QStringLiteral("/config.json")});
        QVERIFY2(edited.code == 0, qPrintable(edited.err));
        const QStringList args = {QStringLiteral("diff"), m_run, copy};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        EXPECT_MENTIONS(result.out, QStringLiteral("config: 2 differences"), result, args);
        EXPECT_MENTIONS(result.out, QStringLiteral("decision.utility: tail:0.5  ->  (absent)"), result, args);
        EXPECT_MENTIONS(result.out, QStringLiteral("decision.utility.matrix: (absent)  ->  [[1.0,0.25,0.25,0.25],"), result, args);
    }

    void summarizeRefusesBadReport_data()
    {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("expected");
        QTest::newRow("head_classes a string") << "e['fhr']['curve'][0]['head_classes'] = 'many'"
                                               << "report.json: field evaluation.fhr.curve[0].head_classes must be an integer (found a string)";
        QTest::newRow("accuracy a string") << "e['accuracy']['accuracy'] = 'high'"
                                           << "report.json: field evaluation.accuracy.accuracy must be a number (found a string)";
        QTest::newRow("accuracy 75") << "e['accuracy']['accuracy'] = 75"
                                     << "report.json: field evaluation.accuracy.accuracy is 75, outside [0.0, 1.0]";
        QTest::newRow("region a number") << "e['regions']['thirds'][1]['region'] = 3"
                                         << "report.json: field evaluation.regions.thirds[1].region must be a string (found a number)";
        QTest::newRow("train_seconds negative") << "r['train_seconds'] = -5"
                                                << "report.json: field train_seconds is -5, outside [0.0, inf]";
    }

    void summarizeRefusesBadReport()
    {
        QFETCH(QString, edit);
        QFETCH(QString, expected);
        const QString study = path(QStringLiteral("study"));
        if (!QFileInfo::exists(study + QStringLiteral("/results"))) {
            QVERIFY(writeFile(path(QStringLiteral("study.json")),
                              tinyStudyJson(QStringLiteral("checks"), R"([{"label": "LBD"}])",
                                            QJsonObject{{QStringLiteral("epochs"), 1}})));
            const QStringList args = {QStringLiteral("study"), path(QStringLiteral("study.json")), QStringLiteral("--out"), study,
                                      QStringLiteral("--quiet")};
            const Result trained = runLbd(args);
            EXPECT_EXIT(trained, args, 0);
        }
        const QString report = study + QStringLiteral("/runs/lbd/seed-1/report.json"); // the cell's id: its label's slug
        const QByteArray original = readFile(report);
        QVERIFY(!original.isEmpty());
        const Result edited = python(QStringLiteral("import json, sys\nf = sys.argv[1]\nr = json.load(open(f))\ne = r['evaluation']\n")
                                         + edit + QStringLiteral("\njson.dump(r, open(f, 'w'))"),
                                     {report});
        QVERIFY2(edited.code == 0, qPrintable(edited.err));
        const QStringList args = {QStringLiteral("study"), study, QStringLiteral("--summarize")};
        const Result result = runLbd(args);
        QVERIFY(writeFile(report, original));
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, expected, result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("seed-1/report.json"), result, args);
    }
};

QTEST_MAIN(TestCliRunFileChecks)
#include "test_cli_runfilechecks.moc"
