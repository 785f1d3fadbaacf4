// The data set catalogue (datasets/catalogue): the built-in entries and what they declare, lookups
// naming the known data sets, and a dummy format registered at run time reaching the config
// parser, `lbd data`-style preparation and the config field table (the GUI's list:
// tests/ui/test_datasetsection.cpp).
#include "core/data/datapreparation.h"
#include "core/train/configfields.h"
#include "core/train/configjson.h"
#include "datasets/catalogue.h"
#include "tests/datasets/dummydataset.h"
#include "tests/support/expect.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

using namespace lbd;
using test::throwsInputError;

class TestCatalogue : public QObject {
    Q_OBJECT
private slots:
    // Before anything builds the config field table, which takes the names once.
    void initTestCase() { registerDataset(test::dummyDatasetEntry()); }

    void builtInsInTheirOrderThenRegistered()
    {
        QCOMPARE(datasetNames(), (std::vector<std::string>{"fashion-mnist", "mnist", "cifar10", "cifar100", "folder", "list",
                                                           "synthetic", test::kDummyDataset}));
        for (const DatasetEntry* entry : datasetEntries()) {
            QVERIFY2(!entry->title.empty() && !entry->description.empty() && entry->read, entry->name.c_str());
        }
    }

    void descriptorsSayWhatEachEntryNeeds()
    {
        const DatasetEntry& fashion = datasetEntry("fashion-mnist");
        QCOMPARE(fashion.defaultDirectory, std::string("/usr/share/datasets/fashion-mnist"));
        QVERIFY(!fashion.requiresDirectory());
        QCOMPARE(fashion.classNames.front(), std::string("T-shirt/top"));
        QCOMPARE(fashion.formatFor({}).height, int64_t(28));
        QVERIFY(datasetEntry("cifar10").requiresDirectory());
        QVERIFY(datasetEntry("list").settings.listFiles);
        DatasetOptions options;
        options.imageSize = 48;
        QCOMPARE(datasetEntry("folder").formatFor(options).height, int64_t(48));
        options.synthetic.size = 20;
        options.synthetic.classes = 7;
        QCOMPARE(datasetEntry("synthetic").formatFor(options).width, int64_t(20));
        QCOMPARE(datasetEntry("synthetic").previewFor(options).classNames.size(), size_t(7));
        QCOMPARE(datasetEntry("folder").previewFor(options).imagesPerClass, int64_t(0)); // known only after reading
    }

    void unknownNamesListTheKnownOnes()
    {
        QVERIFY(findDataset("cifar1000") == nullptr);
        QVERIFY(throwsInputError([] { datasetEntry("cifar1000"); }, {"cifar1000", "fashion-mnist", test::kDummyDataset}));
        DataSpec spec;
        spec.dataset = "cifar1000";
        QVERIFY(throwsInputError([&] { spec.validate(); }, {"cifar1000", "synthetic"}));
        QVERIFY(throwsInputError([] { trainConfigFromJson({{"data", {{"dataset", "cifar1000"}}}}, "test.json"); },
                                 {"data.dataset", "cifar1000", "mnist"}));
    }

    void registrationRefusesDuplicatesAndEntriesWithoutReader()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, registerDataset(test::dummyDatasetEntry()));
        DatasetEntry noReader = test::dummyDatasetEntry();
        noReader.name = "no-reader";
        noReader.read = nullptr;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, registerDataset(noReader));
        QVERIFY(findDataset("no-reader") == nullptr);
    }

    void requiredSettingsComeFromTheEntry()
    {
        DataSpec spec;
        spec.dataset = "cifar10";
        QVERIFY(throwsInputError([&] { spec.validate(); }, {"data_dir", "cifar10"}));
        spec.dataset = "list";
        spec.directory = "/tmp";
        QVERIFY(throwsInputError([&] { spec.validate(); }, {"train_list", "test_list"}));
        spec.dataset = "synthetic";
        spec.validationList = "val.txt";
        QVERIFY(throwsInputError([&] { spec.validate(); }, {"val_list"}));
    }

    // The dummy needs no change outside its entry: the config parser accepts it, the field table
    // offers it, config.json writes no list or synthetic keys for it, and preparation reads it.
    void aRegisteredFormatIsReadEverywhere()
    {
        const ConfigField* field = findConfigField("data.dataset");
        QVERIFY(field != nullptr);
        QVERIFY2(field->type.find(test::kDummyDataset) != std::string::npos, field->type.c_str());

        TrainConfig config = trainConfigFromJson({{"data", {{"dataset", test::kDummyDataset}, {"imbalance_ratio", 4}}}},
                                                 "test.json");
        QCOMPARE(config.data.dataset, std::string(test::kDummyDataset));
        const nlohmann::json written = toJson(config);
        QVERIFY(!written["data"].contains("train_list"));
        QVERIFY(!written["data"].contains("synthetic"));

        const PreparedData prepared = prepareData(config.data);
        QCOMPARE(prepared.dataset.name, std::string(test::kDummyDataset));
        QCOMPARE(prepared.dataset.classNames, (std::vector<std::string>{"dark", "mid", "light"}));
        QCOMPARE(prepared.trainCounts, (std::vector<int64_t>{40, 20, 10}));
        QCOMPARE(prepared.testCounts, (std::vector<int64_t>{5, 5, 5}));
        QCOMPARE(prepared.dataset.train.images.sizes().vec(), (std::vector<int64_t>{70, 1, 8, 8}));
        QCOMPARE(prepared.dataset.test.images[14][0][3][3].item<int>(), 160);
    }
};

QTEST_APPLESS_MAIN(TestCatalogue)
#include "test_catalogue.moc"
