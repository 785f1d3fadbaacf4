// The run comparison's config rows: config.json flattened to dotted keys, and only the keys whose
// value differs between the compared runs (or is missing from one) become rows of the table; the
// same for run.json's provenance (environment rows), as `lbd diff` prints it. config.json is read
// by the reader of lbd train and lbd eval (unknown keys refused), so the configs use real settings:
// every other setting is its default in both runs and makes no row.
#include "tests/ui/uitestsupport.h"

#include "ui/runs/configdiff.h"
#include "ui/runs/runcomparisonview.h"

#include <QFile>
#include <QTableWidget>

using namespace lbd::ui;

namespace {

QString writeConfig(const QTemporaryDir& dir, const QString& name, const QByteArray& json)
{
    const QString folder = dir.filePath(name);
    QDir().mkpath(folder);
    QFile file(folder + QStringLiteral("/config.json"));
    if (!file.open(QIODevice::WriteOnly)) {
        return {};
    }
    file.write(json);
    return folder;
}

// A run.json with a provenance that differs from the default one in `changes`.
QString writeManifest(const QTemporaryDir& dir, const QString& name, const QJsonObject& changes)
{
    const QString folder = dir.filePath(name);
    QDir().mkpath(folder);
    QJsonObject provenance{{QStringLiteral("lbd_version"), QStringLiteral("0.1.0")},
                           {QStringLiteral("git_commit"), QStringLiteral("aaaa")},
                           {QStringLiteral("command_line"), QStringLiteral("lbd train")},
                           {QStringLiteral("host"), QStringLiteral("h")},
                           {QStringLiteral("cpu"), QStringLiteral("c")},
                           {QStringLiteral("gpu"), QStringLiteral("none")},
                           {QStringLiteral("gpu_driver"), QStringLiteral("none")},
                           {QStringLiteral("cuda"), QStringLiteral("none")},
                           {QStringLiteral("cudnn"), QStringLiteral("none")},
                           {QStringLiteral("nccl"), QStringLiteral("none")},
                           {QStringLiteral("libtorch"), QStringLiteral("1.13.0")},
                           {QStringLiteral("data_fingerprint"), QStringLiteral("fnv1a64:0 (0 files, 0 bytes)")}};
    for (auto it = changes.begin(); it != changes.end(); ++it) {
        provenance[it.key()] = it.value();
    }
    QFile file(folder + QStringLiteral("/run.json"));
    if (!file.open(QIODevice::WriteOnly)) {
        return {};
    }
    file.write(QJsonDocument(QJsonObject{{QStringLiteral("device"), QStringLiteral("cpu")},
                                         {QStringLiteral("provenance"), provenance}})
                   .toJson());
    return folder;
}

} // namespace

class TestConfigDiff : public QObject {
    Q_OBJECT

private slots:
    void onlyDifferingKeysBecomeRows()
    {
        QTemporaryDir dir;
        const QString a = writeConfig(dir, QStringLiteral("a"),
                                      R"({"name": "a", "optimizer": {"lr": 0.1, "momentum": 0.9}, "train": {"seed": 1}})");
        const QString b = writeConfig(dir, QStringLiteral("b"),
                                      R"({"name": "b", "optimizer": {"lr": 0.05, "momentum": 0.9}, "train": {"seed": 1, "threads": 2}})");
        const FlatConfig first = readFlatConfig(a);
        QCOMPARE(first.at("optimizer.lr"), std::string("0.1"));
        QCOMPARE(first.at("name"), std::string("a")); // strings without their quotes
        const FlatConfig second = readFlatConfig(b);
        QCOMPARE(differingKeys({first, second}),
                 (std::vector<std::string>{"name", "optimizer.lr", "train.threads"}));
        QVERIFY(differingKeys({first}).empty());
        QVERIFY(differingKeys({first, first}).empty());
        QVERIFY(readFlatConfig(dir.filePath(QStringLiteral("missing"))).empty());

        RunComparisonView view;
        ComparedRun runA;
        runA.summary.name = "a";
        runA.config = first;
        ComparedRun runB;
        runB.summary.name = "b";
        runB.config = second;
        view.setRuns({runA, runB});
        QTableWidget* table = view.table();
        QStringList configRows;
        int learningRateRow = -1;
        for (int r = 0; r < table->rowCount(); ++r) {
            const QString title = table->verticalHeaderItem(r)->text();
            if (title.startsWith(QStringLiteral("config: "))) {
                configRows << title;
                learningRateRow = title.endsWith(QStringLiteral(".lr")) ? r : learningRateRow;
            }
        }
        QCOMPARE(configRows, (QStringList{QStringLiteral("config: name"), QStringLiteral("config: optimizer.lr"),
                                          QStringLiteral("config: train.threads")}));
        QCOMPARE(table->item(learningRateRow, 0)->text(), QStringLiteral("0.1"));
        QCOMPARE(table->item(learningRateRow, 1)->text(), QStringLiteral("0.05"));
    }

    // Another commit and another GPU: two environment rows, under the config rows.
    void differingEnvironmentBecomesRows()
    {
        QTemporaryDir dir;
        const QString a = writeManifest(dir, QStringLiteral("a"), {});
        const QString b = writeManifest(dir, QStringLiteral("b"), {{QStringLiteral("git_commit"), QStringLiteral("bbbb")},
                                                                   {QStringLiteral("gpu"), QStringLiteral("cuda:0 NVIDIA H100")}});
        const QString old = dir.filePath(QStringLiteral("old")); // a run made before provenance was recorded
        QDir().mkpath(old);
        QFile legacy(old + QStringLiteral("/run.json"));
        QVERIFY(legacy.open(QIODevice::WriteOnly));
        legacy.write(R"({"device": "cpu", "lbd_version": "0.0.9"})");
        legacy.close();
        const FlatConfig first = readFlatEnvironment(a);
        const FlatConfig second = readFlatEnvironment(b);
        QCOMPARE(differingKeys({first, second}), (std::vector<std::string>{"git_commit", "gpu"}));
        const FlatConfig legacyEnvironment = readFlatEnvironment(old);
        QCOMPARE(legacyEnvironment.at("lbd_version"), std::string("0.0.9"));
        QCOMPARE(legacyEnvironment.at("git_commit"), std::string("unknown"));
        QVERIFY(readFlatEnvironment(dir.filePath(QStringLiteral("missing"))).empty());

        RunComparisonView view;
        ComparedRun runA;
        runA.summary.name = "a";
        runA.environment = first;
        ComparedRun runB;
        runB.summary.name = "b";
        runB.environment = second;
        view.setRuns({runA, runB});
        QTableWidget* table = view.table();
        QStringList rows;
        int gpuRow = -1;
        for (int r = 0; r < table->rowCount(); ++r) {
            const QString title = table->verticalHeaderItem(r)->text();
            if (title.startsWith(QStringLiteral("environment: "))) {
                rows << title;
                gpuRow = title.endsWith(QStringLiteral("gpu")) ? r : gpuRow;
            }
        }
        QCOMPARE(rows, (QStringList{QStringLiteral("environment: git_commit"), QStringLiteral("environment: gpu")}));
        QCOMPARE(table->item(gpuRow, 0)->text(), QStringLiteral("none"));
        QCOMPARE(table->item(gpuRow, 1)->text(), QStringLiteral("cuda:0 NVIDIA H100"));
    }
};

QTEST_MAIN(TestConfigDiff)
#include "test_configdiff.moc"
