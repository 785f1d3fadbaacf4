// The run comparison's config rows: config.json flattened to dotted keys, and only the keys whose
// value differs between the compared runs (or is missing from one) become rows of the table.
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

} // namespace

class TestConfigDiff : public QObject {
    Q_OBJECT

private slots:
    void onlyDifferingKeysBecomeRows()
    {
        QTemporaryDir dir;
        const QString a = writeConfig(dir, QStringLiteral("a"),
                                      R"({"name": "a", "optimizer": {"learning_rate": 0.1, "momentum": 0.9}, "train": {"seed": 1}})");
        const QString b = writeConfig(dir, QStringLiteral("b"),
                                      R"({"name": "b", "optimizer": {"learning_rate": 0.05, "momentum": 0.9}, "train": {"seed": 1, "threads": 2}})");
        const FlatConfig first = readFlatConfig(a);
        QCOMPARE(first.at("optimizer.learning_rate"), std::string("0.1"));
        QCOMPARE(first.at("name"), std::string("a")); // strings without their quotes
        const FlatConfig second = readFlatConfig(b);
        QCOMPARE(differingKeys({first, second}),
                 (std::vector<std::string>{"name", "optimizer.learning_rate", "train.threads"}));
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
                learningRateRow = title.endsWith(QStringLiteral("learning_rate")) ? r : learningRateRow;
            }
        }
        QCOMPARE(configRows, (QStringList{QStringLiteral("config: name"), QStringLiteral("config: optimizer.learning_rate"),
                                          QStringLiteral("config: train.threads")}));
        QCOMPARE(table->item(learningRateRow, 0)->text(), QStringLiteral("0.1"));
        QCOMPARE(table->item(learningRateRow, 1)->text(), QStringLiteral("0.05"));
    }
};

QTEST_MAIN(TestConfigDiff)
#include "test_configdiff.moc"
