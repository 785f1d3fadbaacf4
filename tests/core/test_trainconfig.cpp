// Config parsing (every invalid value names its key), presets, the learning-rate schedule, and
// the flat-buffer SGD against LibTorch's own SGD.
#include "core/train/configjson.h"
#include "core/train/flatsgd.h"
#include "core/train/lrschedule.h"
#include "core/train/presets.h"
#include "tests/support/expect.h"

#include <nlohmann/json.hpp>

using namespace lbd;
using test::throwsInputError;

class TestTrainConfig : public QObject {
    Q_OBJECT
private slots:
    void defaultsRoundTrip()
    {
        const TrainConfig config;
        const TrainConfig again = trainConfigFromJson(toJson(config));
        QCOMPARE(toJson(again).dump(), toJson(config).dump());
    }

    // A synthetic data set whose image seed differs from the data seed is described exactly by
    // its config.json (a run folder must reload the same images); precision round-trips, and a
    // config written before "precision" reads "bf16": false as fp32.
    void syntheticSeedAndPrecisionRoundTrip()
    {
        TrainConfig config;
        config.data.kind = DatasetKind::Synthetic;
        config.data.synthetic.seed = 7;
        config.data.longTail.seed = 3;
        config.train.precision = "bf16";
        const TrainConfig again = trainConfigFromJson(toJson(config));
        QCOMPARE(again.data.synthetic.seed, uint64_t(7));
        QCOMPARE(again.data.longTail.seed, uint64_t(3));
        QCOMPARE(again.train.precision, std::string("bf16"));
        auto legacy = toJson(TrainConfig{});
        legacy["train"].erase("precision");
        legacy["train"]["bf16"] = false;
        QCOMPARE(trainConfigFromJson(legacy).train.precision, std::string("fp32"));
        auto wrong = toJson(TrainConfig{});
        wrong["train"]["precision"] = "fp8";
        QVERIFY(throwsInputError([&] { trainConfigFromJson(wrong); }, {"train.precision", "fp8"}));
    }

    void invalidValuesNameTheirKey()
    {
        const auto expectKey = [](const nlohmann::json& json, const std::string& key) {
            return throwsInputError([&] { trainConfigFromJson(json); }, {key});
        };
        QVERIFY(expectKey({{"train", {{"epochs", 0}}}}, "train.epochs"));
        QVERIFY(expectKey({{"train", {{"epochs", "ten"}}}}, "train.epochs"));
        QVERIFY(expectKey({{"train", {{"batch_size", -3}}}}, "train.batch_size"));
        QVERIFY(expectKey({{"train", {{"decision_rule", "vote"}}}}, "vote"));
        QVERIFY(expectKey({{"train", {{"lerning_rate", 0.1}}}}, "train.lerning_rate"));
        QVERIFY(expectKey({{"optimizer", {{"lr", -0.1}}}}, "optimizer.lr"));
        QVERIFY(expectKey(nlohmann::json::parse(R"({"optimizer": {"decay_epochs": [1, 2], "decay_factors": [0.1]}})"),
                          "optimizer.decay_epochs"));
        QVERIFY(expectKey({{"objective", {{"alpha", -1.0}}}}, "alpha"));
        QVERIFY(expectKey({{"objective", {{"tau", 0.0}}}}, "tau"));
        QVERIFY(expectKey({{"objective", {{"discrepancy", "cubic"}}}}, "objective.discrepancy"));
        QVERIFY(expectKey({{"model", {{"particles", 0}}}}, "particles"));
        QVERIFY(expectKey({{"model", {{"arch", "vgg"}}}}, "vgg"));
        QVERIFY(expectKey({{"data", {{"imbalance_ratio", 0.5}}}}, "data.imbalance_ratio"));
        QVERIFY(expectKey({{"data", {{"dataset", "cifar10"}}}}, "data_dir"));
        QVERIFY(expectKey({{"augment", {{"rotation", 400.0}}}}, "augment.rotation"));
        QVERIFY(expectKey(nlohmann::json::parse(R"({"optimizer": {"lr": "fast"}})"), "optimizer.lr"));
    }

    void baselinePresetsSetParticlesUnlessGiven()
    {
        TrainConfig ce = trainConfigFromJson({{"objective", {{"baseline", "ce"}}}});
        QCOMPARE(ce.model.particles, int64_t(1));
        QVERIFY(!ce.objective.ldamMargins);
        TrainConfig ensemble = trainConfigFromJson({{"objective", {{"baseline", "ensemble"}}}, {"model", {{"particles", 5}}}});
        QCOMPARE(ensemble.model.particles, int64_t(5));
        QVERIFY(!ensemble.objective.repulsive);
    }

    void shippedPresetsParse()
    {
        const auto presets = listPresets();
        QVERIFY(presets.size() >= 5);
        for (const auto& preset : presets) {
            nlohmann::json json = loadPresetJson(preset.name);
            if (json["data"].value("data_dir", "x").empty()) {
                // Presets for the user's own data need --data-dir: that must be the error.
                QVERIFY(throwsInputError([&] { trainConfigFromJson(json); }, {"data_dir"}));
                json["data"]["data_dir"] = "/somewhere";
            }
            const TrainConfig config = trainConfigFromJson(json);
            QVERIFY(!config.description.empty());
        }
        const TrainConfig paper = trainConfigFromJson(loadPresetJson("fashion-mnist-lt"));
        QCOMPARE(paper.train.epochs, 200);
        QCOMPARE(paper.objective.alpha, 0.002);
        QCOMPARE(paper.objective.tau, 40.0);
        QCOMPARE(paper.model.particles, int64_t(3));
        QVERIFY(throwsInputError([] { loadPresetJson("nope"); }, {"nope", "quick-cpu"}));
    }

    void learningRateSchedule()
    {
        OptimizerSpec o; // 0.1, warm-up 5, x0.01 from 160, x0.0001 from 180
        QCOMPARE(learningRateForEpoch(o, 1), 0.02);
        QCOMPARE(learningRateForEpoch(o, 5), 0.1);
        QCOMPARE(learningRateForEpoch(o, 159), 0.1);
        QVERIFY(std::abs(learningRateForEpoch(o, 160) - 0.001) < 1e-15);
        QVERIFY(std::abs(learningRateForEpoch(o, 180) - 1e-5) < 1e-18);
    }

    void flatSgdMatchesLibTorchSgd()
    {
        torch::manual_seed(0);
        auto reference = torch::nn::Linear(5, 3);
        auto flat = torch::nn::Linear(5, 3);
        {
            torch::NoGradGuard noGrad;
            flat->weight.copy_(reference->weight);
            flat->bias.copy_(reference->bias);
        }
        torch::optim::SGD sgd(reference->parameters(),
                              torch::optim::SGDOptions(0.1).momentum(0.9).nesterov(true).weight_decay(5e-4));
        FlatSgd mine(flat->parameters(), 0.9, true, 5e-4);
        mine.setLearningRate(0.1);
        for (int step = 0; step < 5; ++step) {
            const auto x = torch::randn({8, 5});
            sgd.zero_grad();
            reference->forward(x).pow(2).mean().backward();
            sgd.step();
            mine.zeroGrad();
            flat->forward(x).pow(2).mean().backward();
            mine.step();
        }
        QVERIFY(torch::allclose(flat->weight, reference->weight, 1e-6, 1e-7));
        QVERIFY(torch::allclose(flat->bias, reference->bias, 1e-6, 1e-7));
    }
};

QTEST_APPLESS_MAIN(TestTrainConfig)
#include "test_trainconfig.moc"
