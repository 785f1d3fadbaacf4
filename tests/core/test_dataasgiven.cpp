// A user's own images are used as given (issue 26): a config naming a folder or list without a long
// tail gets profile none; a built-in data set keeps the benchmark's exp at ratio 100; runs are named
// after the user's data; and the summary said before a run warns about classes too small to learn,
// without a validation image or without a test image.
#include "core/data/datapreparation.h"
#include "core/train/configjson.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace lbd;

class TestDataAsGiven : public QObject {
    Q_OBJECT

private slots:
    void aFolderConfigWithoutALongTailIsUsedAsGiven()
    {
        const TrainConfig folder =
            trainConfigFromJson(nlohmann::json{{"data", {{"dataset", "folder"}, {"data_dir", "/data/digits"}}}}, "test");
        QCOMPARE(folder.data.longTail.profile, LongTailProfile::None);
        QCOMPARE(folder.data.channels, int64_t(0)); // from the images
        QCOMPARE(folder.data.runName(), std::string("digits-folder"));

        const TrainConfig chosen = trainConfigFromJson(
            nlohmann::json{{"data", {{"dataset", "folder"}, {"data_dir", "/data/digits/"}, {"imbalance_ratio", 10}}}}, "test");
        QCOMPARE(chosen.data.longTail.profile, LongTailProfile::Exponential);
        QCOMPARE(chosen.data.longTail.imbalanceRatio, 10.0);
        QCOMPARE(chosen.data.runName(), std::string("digits-folder"));

        const TrainConfig list = trainConfigFromJson(
            nlohmann::json{{"data", {{"dataset", "list"}, {"data_dir", "/d"}, {"train_list", "lists/my train.txt"},
                                     {"test_list", "lists/test.txt"}}}},
            "test");
        QCOMPARE(list.data.longTail.profile, LongTailProfile::None);
        QCOMPARE(list.data.runName(), std::string("my-train-list"));

        const TrainConfig fashion = trainConfigFromJson(nlohmann::json{{"data", {{"dataset", "fashion-mnist"}}}}, "test");
        QCOMPARE(fashion.data.longTail.profile, LongTailProfile::Exponential);
        QCOMPARE(fashion.data.longTail.imbalanceRatio, 100.0);
        QVERIFY(fashion.data.runName().empty());
        QCOMPARE(parseProfile("none"), LongTailProfile::None);
        QCOMPARE(profileName(LongTailProfile::None), std::string("none"));
    }

    void profileNoneKeepsEveryImage()
    {
        LongTailSpec spec;
        spec.profile = LongTailProfile::None;
        QCOMPARE(longTailCounts(150, 4, spec), (std::vector<int64_t>{150, 150, 150, 150}));
        QVERIFY(keepsEveryImage(spec));
    }

    void theSummaryWarnsAboutSmallClasses()
    {
        DataSpec spec;
        spec.dataset = "synthetic";
        spec.synthetic.classes = 4;
        spec.synthetic.trainPerClass = 40;
        spec.synthetic.testPerClass = 3;
        spec.synthetic.size = 8;
        spec.synthetic.channels = 1;
        spec.longTail.imbalanceRatio = 40; // 40, 11, 3, 1
        spec.longTail.validationFraction = 0.25;
        const PreparedData prepared = prepareData(spec);
        const DataSummary summary = summarizeData(prepared, spec);
        QVERIFY(!summary.lines.empty());
        const QString first = QString::fromStdString(summary.lines.front());
        QVERIFY2(first.contains(QStringLiteral("resampled to a long tail (profile exp, ratio 40, seed 0): 55 of 160 images kept")),
                 qPrintable(first));
        QString warnings;
        for (const std::string& w : summary.warnings) {
            warnings += QString::fromStdString(w) + QLatin1Char('\n');
        }
        // Kept 40, 11, 3, 1; held out 10, 3, 1, 0: trained on 30, 8, 2, 1.
        QCOMPARE(prepared.trainCounts, (std::vector<int64_t>{30, 8, 2, 1}));
        QVERIFY2(!warnings.contains(QStringLiteral("class0 has only")), qPrintable(warnings));
        QVERIFY2(warnings.contains(QStringLiteral("has only 8 training images (fewer than 10)")), qPrintable(warnings));
        QVERIFY2(warnings.contains(QStringLiteral("has only 1 training image (fewer than 10)")), qPrintable(warnings));
        QVERIFY2(warnings.contains(QStringLiteral("has no validation image")), qPrintable(warnings));
        QCOMPARE(summary.warnings.size(), size_t(4)); // three small classes, one without validation
    }
};

QTEST_APPLESS_MAIN(TestDataAsGiven)
#include "test_dataasgiven.moc"
