// The images held out for the out-of-distribution caution when a run has no validation split and
// its long tail leaves no image out (issue 35 item 1, LongTailSpec::cautionHoldout): how many each
// class gives (hand-computed), that they are never in a training batch, that the caution is
// fitted on them (ood.json says so), that a resumed run keeps them, and that 0 (or a validation
// split, or a left-out pool) leaves the split as it was.
#include "core/data/batchsource.h"
#include "core/data/datapreparation.h"
#include "core/data/longtail.h"
#include "core/eval/oodimages.h"
#include "core/util/error.h"
#include "core/train/runfolder.h"
#include "core/train/trainer.h"
#include "tests/support/tinyconfig.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

using namespace lbd;

namespace {

// 8x8 grey images whose first two pixels spell their row (row % 256, row / 256), so that a batch
// says which rows it holds; `perClass` images of each class, in class order.
Dataset numberedDataset(const std::vector<int64_t>& perClass)
{
    int64_t total = 0;
    for (const int64_t n : perClass) {
        total += n;
    }
    Dataset data;
    data.name = "numbered";
    for (size_t c = 0; c < perClass.size(); ++c) {
        data.classNames.push_back("c" + std::to_string(c));
    }
    data.format = ImageFormat{1, 8, 8};
    data.train.images = torch::zeros({total, 1, 8, 8}, torch::kUInt8);
    data.train.labels = torch::empty({total}, torch::kInt64);
    int64_t row = 0;
    for (size_t c = 0; c < perClass.size(); ++c) {
        for (int64_t i = 0; i < perClass[c]; ++i, ++row) {
            data.train.images[row][0][0][0] = row % 256;
            data.train.images[row][0][0][1] = row / 256;
            data.train.labels[row] = static_cast<int64_t>(c);
        }
    }
    data.test = data.train.select(torch::arange(0, total, 7, torch::kInt64));
    return data;
}

LongTailSpec asGiven(double cautionHoldout = 0.05)
{
    LongTailSpec spec;
    spec.profile = LongTailProfile::None;
    spec.imbalanceRatio = 1.0;
    spec.seed = 3;
    spec.cautionHoldout = cautionHoldout;
    return spec;
}

// Every row one epoch of `split`'s training batches holds (no augmentation, no normalisation).
std::set<int64_t> rowsInOneEpoch(const DataSplit& split, int64_t epoch)
{
    AugmentSpec augment;
    augment.enabled = false;
    augment.outputSize = 8;
    BatchOptions options;
    options.batchSize = 16;
    options.seed = 5;
    auto source = makeBatchSource(split, ImageFormat{1, 8, 8}, torch::kCPU, augment, {{0.0f}, {1.0f}}, options);
    source->startEpoch(epoch);
    std::set<int64_t> rows;
    Batch batch;
    while (source->next(batch)) {
        const auto pixels = (batch.images * 255.0).round().to(torch::kInt64);
        for (int64_t i = 0; i < pixels.size(0); ++i) {
            rows.insert(pixels[i][0][0][0].item<int64_t>() + 256 * pixels[i][0][0][1].item<int64_t>());
        }
    }
    return rows;
}

TrainConfig tinyAsGiven(int epochs, double cautionHoldout = 0.05)
{
    TrainConfig config = test::tinyConfig(epochs);
    config.data.synthetic.trainPerClass = 120; // 4 classes: 6 each held out (5 % of 120), 24 in all
    config.data.longTail = asGiven(cautionHoldout);
    return config;
}

nlohmann::json readJson(const QString& directory, const char* file)
{
    return RunFolder(directory.toStdString()).readJson(file);
}

} // namespace

class TestCautionHoldout : public QObject {
    Q_OBJECT
private slots:
    // 5 % rounded, at least 2, at most 50, never leaving fewer than 5 training images.
    void countsPerClass()
    {
        QCOMPARE(cautionHoldoutCount(100, 0.05), int64_t(5));
        QCOMPARE(cautionHoldoutCount(150, 0.05), int64_t(8));   // 7.5 rounds up
        QCOMPARE(cautionHoldoutCount(40, 0.05), int64_t(2));    // 2 exactly
        QCOMPARE(cautionHoldoutCount(20, 0.05), int64_t(2));    // 1 raised to the least
        QCOMPARE(cautionHoldoutCount(7, 0.05), int64_t(2));     // leaves 5
        QCOMPARE(cautionHoldoutCount(6, 0.05), int64_t(0));     // 2 would leave 4: none
        QCOMPARE(cautionHoldoutCount(1000, 0.05), int64_t(50));
        QCOMPARE(cautionHoldoutCount(6000, 0.05), int64_t(50)); // 300 capped
        QCOMPARE(cautionHoldoutCount(12, 0.5), int64_t(6));     // leaves 6
        QCOMPARE(cautionHoldoutCount(10, 0.5), int64_t(5));     // 5 leaves 5
        QCOMPARE(cautionHoldoutCount(1000, 0.0), int64_t(0));
    }

    // Classes of 400, 150, 60, 7 and 6 images: 20, 8, 3, 2 and 0 held out (33 in all), the rest
    // trained on; one epoch's batches hold every training row and no held-out one.
    void heldOutRowsAreBalancedAndNeverTrainedOn()
    {
        const Dataset data = numberedDataset({400, 150, 60, 7, 6});
        const LongTailSplit split = makeLongTailSplit(data, asGiven());
        QCOMPARE(split.cautionCounts, (std::vector<int64_t>{20, 8, 3, 2, 0}));
        QCOMPARE(split.classCounts, (std::vector<int64_t>{380, 142, 57, 5, 6}));
        QCOMPARE(split.cautionIndices.size(), size_t(33));
        QVERIFY(std::is_sorted(split.cautionIndices.begin(), split.cautionIndices.end()));
        QCOMPARE(countPerClass(cautionHoldoutSplit(data, split).labels, 5), split.cautionCounts);
        QCOMPARE(makeLongTailSplit(data, asGiven()).cautionIndices, split.cautionIndices); // seeded
        LongTailSpec otherSeed = asGiven();
        otherSeed.seed = 4;
        QVERIFY(makeLongTailSplit(data, otherSeed).cautionIndices != split.cautionIndices);

        // Together they are every row; apart, no row is in both.
        std::vector<int64_t> together = split.trainIndices;
        together.insert(together.end(), split.cautionIndices.begin(), split.cautionIndices.end());
        std::sort(together.begin(), together.end());
        QCOMPARE(together, makeLongTailSplit(data, asGiven(0.0)).trainIndices);
        QVERIFY(std::adjacent_find(together.begin(), together.end()) == together.end());

        const DataSplit training = applyLongTailSplit(data, split);
        const std::set<int64_t> trainingRows(split.trainIndices.begin(), split.trainIndices.end());
        for (const int64_t epoch : {1, 2}) {
            const std::set<int64_t> seen = rowsInOneEpoch(training, epoch);
            QCOMPARE(seen, trainingRows);
            for (const int64_t row : split.cautionIndices) {
                QVERIFY2(seen.count(row) == 0, qPrintable(QStringLiteral("caution row %1 trained on").arg(row)));
            }
        }
    }

    // The rows survive split.json; a split file from before (no caution fields) holds none out,
    // and one whose caution rows are also training rows is refused.
    void splitFileKeepsThem()
    {
        const Dataset data = numberedDataset({400, 150, 60, 7, 6});
        const LongTailSplit split = makeLongTailSplit(data, asGiven());
        nlohmann::json json = toJson(split);
        QCOMPARE(json.at("caution_counts").get<std::vector<int64_t>>(), split.cautionCounts);
        const LongTailSplit loaded = longTailSplitFromJson(json, "split.json");
        QCOMPARE(loaded.cautionIndices, split.cautionIndices);
        QCOMPARE(loaded.spec.cautionHoldout, 0.05);

        nlohmann::json old = json;
        old.erase("caution_holdout");
        old.erase("caution_counts");
        old.erase("caution_indices");
        QCOMPARE(longTailSplitFromJson(old, "split.json").spec.cautionHoldout, 0.0);

        nlohmann::json overlapping = json;
        overlapping["caution_indices"][0] = split.trainIndices.front();
        bool refused = false;
        try {
            longTailSplitFromJson(overlapping, "split.json");
        } catch (const InputError& error) {
            refused = std::string(error.what()).find("caution_indices") != std::string::npos;
        }
        QVERIFY(refused);
    }

    // Off, with a validation split, with a long tail that leaves images out, or too few in all:
    // the split is the one without a hold-out.
    void noHoldOutWhereAnotherSourceServes()
    {
        const Dataset data = numberedDataset({400, 150, 60, 7, 6});
        const LongTailSplit off = makeLongTailSplit(data, asGiven(0.0));
        QVERIFY(off.cautionIndices.empty());
        QVERIFY(off.cautionCounts.empty());
        QCOMPARE(off.classCounts, (std::vector<int64_t>{400, 150, 60, 7, 6}));
        QVERIFY(!toJson(off).contains("caution_indices"));

        LongTailSpec validation = asGiven();
        validation.validationFraction = 0.1;
        QVERIFY(makeLongTailSplit(data, validation).cautionIndices.empty());

        LongTailSpec longTail = asGiven();
        longTail.profile = LongTailProfile::Exponential;
        longTail.imbalanceRatio = 10.0;
        LongTailSpec longTailOff = longTail;
        longTailOff.cautionHoldout = 0.0;
        // Five classes of 400, ratio 10: 400, 224, 126, 71, 40 kept, 1,139 left out.
        const Dataset balanced = numberedDataset({400, 400, 400, 400, 400});
        QVERIFY(makeLongTailSplit(balanced, longTail).cautionIndices.empty());
        QCOMPARE(makeLongTailSplit(balanced, longTail).trainIndices, makeLongTailSplit(balanced, longTailOff).trainIndices);
        // The same long tail on data that already is one leaves nothing out: the hold-out serves.
        QVERIFY(!makeLongTailSplit(data, longTail).cautionIndices.empty());

        // 4 classes of 40: 2 each, 8 < 20 in all, too few to fit the caution on.
        QVERIFY(makeLongTailSplit(numberedDataset({40, 40, 40, 40}), asGiven()).cautionIndices.empty());
    }

    // A tiny run as given: split.json and the log name the held-out images, the caution is fitted
    // on exactly them (ood.json's source and rows), and a stopped and resumed run keeps them.
    void theCautionIsFittedOnThemAndAResumeKeepsThem()
    {
        QTemporaryDir dir;
        TrainingControl control;
        TrainingCallbacks callbacks;
        QStringList log;
        callbacks.onMessage = [&log](const std::string& text) { log << QString::fromStdString(text); };
        callbacks.onEpoch = [&control](const EpochMetrics& metrics) {
            if (metrics.epoch == 1) {
                control.stopRequested = true;
            }
        };
        const TrainingResult first = Trainer(tinyAsGiven(2), dir.path().toStdString()).run(callbacks, &control);
        QVERIFY(first.stopped);
        const nlohmann::json split = readJson(dir.path(), RunFolder::kSplit);
        const auto rows = split.at("caution_indices").get<std::vector<int64_t>>();
        QCOMPARE(split.at("caution_counts").get<std::vector<int64_t>>(), (std::vector<int64_t>{6, 6, 6, 6}));
        QCOMPARE(split.at("class_counts").get<std::vector<int64_t>>(), (std::vector<int64_t>{114, 114, 114, 114}));
        const QString said = log.join(QLatin1Char('\n'));
        QVERIFY2(said.contains(QStringLiteral("held out 24 images for the caution (disc-0 6, square-0 6, diamond-0 6, ring-0 6): "
                                              "they are not trained on")),
                 qPrintable(said));

        // Resumed (from config.json and split.json), it keeps them.
        const TrainingResult resumed = Trainer(tinyAsGiven(2), dir.path().toStdString(), true).run({});
        QCOMPARE(resumed.epochsCompleted, 2);
        QCOMPARE(readJson(dir.path(), RunFolder::kSplit).at("caution_indices").get<std::vector<int64_t>>(), rows);
        const nlohmann::json ood = readJson(dir.path(), kOodFitFile);
        QCOMPARE(ood.at("source").get<std::string>(), std::string(kOodSourceCautionHoldout));
        QCOMPARE(ood.at("held_out").at("training_rows").get<std::vector<int64_t>>(), rows);
        QCOMPARE(ood.at("held_out").at("per_class").get<std::vector<int64_t>>(), (std::vector<int64_t>{6, 6, 6, 6}));
        QCOMPARE(ood.at("images").get<int64_t>(), int64_t(24));
    }

    // Off: the run trains on every image and the caution falls back to training images, as before.
    void offTrainsOnEveryImage()
    {
        QTemporaryDir dir;
        Trainer(tinyAsGiven(1, 0.0), dir.path().toStdString()).run({});
        const nlohmann::json split = readJson(dir.path(), RunFolder::kSplit);
        QVERIFY(!split.contains("caution_indices"));
        QCOMPARE(split.at("class_counts").get<std::vector<int64_t>>(), (std::vector<int64_t>{120, 120, 120, 120}));
        QCOMPARE(readJson(dir.path(), kOodFitFile).at("source").get<std::string>(), std::string(kOodSourceTraining));
    }
};

QTEST_APPLESS_MAIN(TestCautionHoldout)
#include "test_cautionholdout.moc"
