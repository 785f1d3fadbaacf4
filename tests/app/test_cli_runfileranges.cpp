// Run-folder values read back only within the range their writer produces (issue 37 item 1):
// - status.json (readRunStatus): state one of the four the trainer writes,
//   0 <= checkpoint_epoch <= epochs_done <= epochs <= 100000; `train --resume` refuses the rest;
// - run.json (readRunManifest): one non-negative count per class, 1 or 3 channels, sides and
//   input_size within the model's limits, one mean in [0, 1] and one std in [0.001, 0.5] per
//   channel; `eval` and `predict` refuse the rest;
// - checkpoint.pt against config.json: its epoch within 1..train.epochs for predict, export,
//   ood --fit and train --resume (the other entries: core_test_checkpointranges);
// - a run with a validation list records its validation counts in run.json, and
//   val_probabilities.pt is held to them (it fell back to the 4 GiB tensor-file limit).
// Each refusal: exit 2 naming the file and the field or entry, nothing written, no NaN printed.
#include "tests/app/clitest.h"

#include <QCryptographicHash>
#include <QDirIterator>

using namespace lbd::test;

namespace {

// RUN/FILE's JSON edited by one Python statement on `d` (the parsed file).
const char* kEditJson = R"(
import json, sys
path, statement = sys.argv[1], sys.argv[2]
d = json.load(open(path))
exec(statement)
json.dump(d, open(path, "w"))
)";

} // namespace

class TestCliRunFileRanges final : public CliTest {
    Q_OBJECT

    QString m_listRun; // a run on list files with a validation list

    bool editJson(const QString& file, const QString& statement) const
    {
        const Result edited = python(QString::fromUtf8(kEditJson), {file, statement});
        if (edited.code != 0) {
            qWarning("%s", qPrintable(edited.err));
        }
        return edited.code == 0;
    }

    // Every file of the folder with its size, time and (under 64 MiB) the hash of its bytes, to see
    // that a refused command wrote nothing.
    static QMap<QString, QByteArray> snapshot(const QString& folder)
    {
        QMap<QString, QByteArray> files;
        QDirIterator it(folder, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QFileInfo file(it.next());
            QByteArray state = QByteArray::number(file.size()) + ' '
                               + QByteArray::number(file.lastModified().toMSecsSinceEpoch());
            if (file.size() < (qint64(64) << 20)) {
                state += ' ' + QCryptographicHash::hash(readFile(file.filePath()), QCryptographicHash::Sha256).toHex();
            }
            files.insert(QDir(folder).relativeFilePath(file.filePath()), state);
        }
        return files;
    }

    // Runs `args` (RUN: `run`, IMAGE: a PNG, OUT: a fresh path) and checks the refusal.
    void expectRefused(QStringList args, const QString& run, const QString& file, const QString& message)
    {
        const QString out = run + QStringLiteral("-out");
        for (QString& arg : args) {
            arg.replace(QStringLiteral("RUN"), run).replace(QStringLiteral("IMAGE"), path(QStringLiteral("image.png")));
            arg.replace(QStringLiteral("OUT"), out);
        }
        const QMap<QString, QByteArray> before = snapshot(run);
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, run + QLatin1Char('/') + file + QStringLiteral(": ") + message, result, args);
        QVERIFY2(!(result.out + result.err).contains(QStringLiteral("nan"), Qt::CaseInsensitive), qPrintable(result.describe(args)));
        QVERIFY2(!QFileInfo::exists(out), qPrintable(QStringLiteral("the refused command wrote ") + out));
        const QMap<QString, QByteArray> after = snapshot(run);
        for (auto it = after.begin(); it != after.end(); ++it) {
            // A resume takes the run lock (runlock.h) and appends its data-loading lines to the
            // run's log before the model exists to read the checkpoint into: no run data.
            if (it.key() == QStringLiteral("lock") || it.key() == QStringLiteral("log.txt")) {
                continue;
            }
            QVERIFY2(before.value(it.key()) == it.value(), qPrintable(QStringLiteral("the refused command wrote ") + it.key()
                                                                       + QLatin1Char('\n') + result.describe(args)));
        }
    }

private slots:
    void initTestCase()
    {
        trainTinyRun();
        QVERIFY2(!m_run.isEmpty(), qPrintable(m_trainFailure));
        const Result image = python(QStringLiteral("import sys; from PIL import Image; Image.new('L', (16, 16)).save(sys.argv[1])"),
                                    {path(QStringLiteral("image.png"))});
        QVERIFY2(image.code == 0, qPrintable(image.err));
        // make-list-data's lists: 4 classes, 3 held-out images each as the test and validation lists.
        const QStringList make = {"make-list-data", path("list"), "--classes", "4", "--max-per-class", "12", "--ratio", "2",
                                  "--test-per-class", "3", "--width", "20", "--height", "20"};
        const Result made = runLbd(make);
        EXPECT_EXIT(made, make, 0);
        QJsonObject config = QJsonDocument::fromJson(kTinyConfig).object();
        config[QStringLiteral("data")] = QJsonObject{{"dataset", "list"}, {"data_dir", path("list")},
                                                     {"train_list", "ImageNet_LT_train.txt"}, {"test_list", "ImageNet_LT_test.txt"},
                                                     {"val_list", "ImageNet_LT_val.txt"}, {"channels", 1}, {"image_size", 16}};
        QVERIFY(writeFile(path("list.json"), QJsonDocument(config).toJson()));
        m_listRun = path("list-run");
        const QStringList train = {"train", "--config", path("list.json"), "--out", m_listRun, "--quiet"};
        const Result trained = runLbd(train);
        EXPECT_EXIT(trained, train, 0);
    }

    void statusOutOfRange_data()
    {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QStringList resume = {"train", "--resume", "RUN", "--quiet"};
        QTest::newRow("epochs_done 900") << "d['epochs_done'] = 900" << resume
                                         << "field epochs_done = 900 is outside 0..2 (its field epochs, the run's train.epochs)";
        QTest::newRow("epochs_done -1") << "d['epochs_done'] = -1" << resume << "field epochs_done = -1 is outside 0..2";
        QTest::newRow("checkpoint_epoch 3") << "d['checkpoint_epoch'] = 3" << resume
                                            << "field checkpoint_epoch = 3 is outside 0..2 (its field epochs_done)";
        QTest::newRow("checkpoint_epoch 3, --epochs 4")
            << "d['checkpoint_epoch'] = 3" << QStringList{"train", "--resume", "RUN", "--epochs", "4", "--quiet"}
            << "field checkpoint_epoch = 3 is outside 0..2";
        QTest::newRow("epochs 200000") << "d['epochs'] = 200000" << resume << "field epochs = 200000 is outside 0..100000";
        QTest::newRow("state done") << "d['state'] = 'done'" << resume << "field state = 'done' is not one a run writes";
        QTest::newRow("state missing") << "del d['state']" << resume << "field state is missing";
    }

    void statusOutOfRange()
    {
        QFETCH(QString, edit);
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QString copy = copyOf(m_run, QStringLiteral("status-%1").arg(QTest::currentDataTag()).replace(' ', '-'));
        QVERIFY(!copy.isEmpty());
        QVERIFY(editJson(copy + QStringLiteral("/status.json"), edit));
        expectRefused(args, copy, QStringLiteral("status.json"), message);
    }

    void manifestOutOfRange_data()
    {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative count") << "d['train_counts'][1] = -5"
                                        << "field train_counts[1] = -5 is negative (a number of images)";
        QTest::newRow("3 test counts") << "d['test_counts'] = d['test_counts'][:3]"
                                       << "field test_counts has 3 counts, not one per class of class_names (4)";
        QTest::newRow("2 channels") << "d['image']['channels'] = 2" << "field image.channels = 2 is not 1 or 3";
        QTest::newRow("height 5000") << "d['image']['height'] = 5000" << "field image.height = 5000 is outside 1..1024";
        QTest::newRow("input_size 4") << "d['input_size'] = 4" << "field input_size = 4 is outside 8..1024";
        QTest::newRow("std 0") << "d['normalization']['std'][0] = 0" << "field normalization.std[0] = 0 is outside 0.001..0.5";
        QTest::newRow("mean 1e300") << "d['normalization']['mean'][0] = 1e300"
                                    << "field normalization.mean[0] = inf is outside 0..1";
        QTest::newRow("two means") << "d['normalization']['mean'] = [0.1, 0.2]"
                                   << "field normalization.mean has 2 values, not one per image channel (1)";
        QTest::newRow("one class") << "d['class_names'] = ['a']" << "field class_names lists 1 classes, outside 2..100000";
    }

    void manifestOutOfRange()
    {
        QFETCH(QString, edit);
        QFETCH(QString, message);
        const QString copy = copyOf(m_run, QStringLiteral("manifest-%1").arg(QTest::currentDataTag()).replace(' ', '-'));
        QVERIFY(!copy.isEmpty());
        QVERIFY(editJson(copy + QStringLiteral("/run.json"), edit));
        expectRefused({"eval", "RUN", "--json"}, copy, QStringLiteral("run.json"), message);
        expectRefused({"predict", "RUN", "IMAGE"}, copy, QStringLiteral("run.json"), message);
    }

    // config.json's train.epochs lowered under the checkpoint's epoch (2): refused by every loader.
    void checkpointEpochAgainstTheConfig_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("predict") << QStringList{"predict", "RUN", "IMAGE"};
        QTest::newRow("export --out") << QStringList{"export", "RUN", "--out", "OUT"};
        QTest::newRow("export --onnx") << QStringList{"export", "RUN", "--onnx", "OUT"};
        QTest::newRow("ood --fit") << QStringList{"ood", "RUN", "--fit"};
        QTest::newRow("train --resume") << QStringList{"train", "--resume", "RUN", "--quiet"};
    }

    void checkpointEpochAgainstTheConfig()
    {
        QFETCH(QStringList, args);
        const QString copy = copyOf(m_run, QStringLiteral("epoch-%1").arg(QTest::currentDataTag()).replace(' ', '-'));
        QVERIFY(!copy.isEmpty());
        QVERIFY(editJson(copy + QStringLiteral("/config.json"), QStringLiteral("d['train']['epochs'] = 1")));
        // Stopped, so that the resume goes on to the checkpoint (finished would be 'nothing to do').
        QVERIFY(editJson(copy + QStringLiteral("/status.json"), QStringLiteral("d['state'] = 'stopped'")));
        expectRefused(args, copy, QStringLiteral("checkpoint.pt"),
                      QStringLiteral("entry epoch = 2 is outside 1..1 (the run's train.epochs)"));
    }

    // A validation list has no count in split.json: run.json records it, and the validation
    // probabilities are held to it.
    void validationListCountsRecordedAndUsed()
    {
        QVERIFY(!m_listRun.isEmpty());
        const QJsonObject manifest = readJsonObject(m_listRun + QStringLiteral("/run.json"));
        QCOMPARE(manifest.value(QStringLiteral("validation_counts")).toArray(), (QJsonArray{3, 3, 3, 3}));
        const QStringList evalValidation = {"eval", m_listRun, "--split", "validation", "--json"};
        const Result fine = runLbd(evalValidation);
        EXPECT_EXIT(fine, evalValidation, 0);

        const QString grown = copyOf(m_listRun, QStringLiteral("list-grown"));
        QVERIFY(!grown.isEmpty());
        QFile file(grown + QStringLiteral("/val_probabilities.pt"));
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.resize(qint64(1) << 30));
        file.close();
        expectRefused({"eval", "RUN", "--split", "validation"}, grown, QStringLiteral("val_probabilities.pt"),
                      QStringLiteral("1073741824 bytes, more than the "));
        const Result bound = runLbd({"eval", grown, "--split", "validation"});
        EXPECT_MENTIONS(bound.err, QStringLiteral("(2 particles x 12 images x 4 classes"), bound, QStringList{"eval"});

        const QString damaged = copyOf(m_listRun, QStringLiteral("list-damaged"));
        QVERIFY(!damaged.isEmpty());
        QVERIFY(editJson(damaged + QStringLiteral("/run.json"), QStringLiteral("d['validation_counts'][2] = -1")));
        expectRefused({"eval", "RUN", "--split", "validation"}, damaged, QStringLiteral("run.json"),
                      QStringLiteral("field validation_counts[2] = -1 is negative"));
        // Counts that are not the file's labels: another run's file.
        const QString other = copyOf(m_listRun, QStringLiteral("list-other"));
        QVERIFY(!other.isEmpty());
        QVERIFY(editJson(other + QStringLiteral("/run.json"), QStringLiteral("d['validation_counts'] = [4, 3, 3, 2]")));
        expectRefused({"eval", "RUN", "--split", "validation"}, other, QStringLiteral("val_probabilities.pt"),
                      QStringLiteral("does not belong to this run (its labels do not give the validation counts"));
    }
};

QTEST_MAIN(TestCliRunFileRanges)
#include "test_cli_runfileranges.moc"
