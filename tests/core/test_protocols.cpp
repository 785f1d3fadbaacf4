// The named protocols of lbd-math.md section 8: every preset and built-in study names one, the
// paper presets follow paper-standard (and their -tail variants paper-tail), a config that
// contradicts its protocol is refused, a user's override that leaves a protocol makes the run
// "app" with a note, and a paper-standard run trains with a zero utility term and decides by
// mean-logit.
#include "core/study/studyspec.h"
#include "core/train/configjson.h"
#include "core/train/presets.h"
#include "core/train/trainer.h"
#include "core/util/error.h"
#include "core/util/jsonfile.h"
#include "tests/support/tinyconfig.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace lbd;

namespace {

// A preset as a config; presets of data that has no default folder (CIFAR, list files) ship an
// empty data_dir that a user must fill.
TrainConfig presetConfig(const std::string& name)
{
    nlohmann::json json = loadPresetJson(name);
    if (json["data"].contains("data_dir") && json["data"]["data_dir"] == "") {
        json["data"]["data_dir"] = "/somewhere";
    }
    return trainConfigFromJson(json, name);
}

} // namespace

class TestProtocols : public QObject {
    Q_OBJECT
private slots:
    void everyPresetNamesItsProtocol()
    {
        const std::vector<PresetInfo> presets = listPresets();
        QVERIFY(presets.size() >= 9);
        for (const PresetInfo& preset : presets) {
            const nlohmann::json json = loadPresetJson(preset.name);
            QVERIFY2(json.contains("protocol") && json["protocol"].is_string(), preset.name.c_str());
            const TrainConfig config = presetConfig(preset.name);
            QVERIFY2(!protocolContradiction(config), preset.name.c_str());
        }
        for (const std::string name : {"fashion-mnist-lt", "cifar10-lt", "cifar100-lt", "imagenet-lt"}) {
            const TrainConfig standard = presetConfig(name);
            QCOMPARE(protocolName(standard.protocol), std::string("paper-standard"));
            QCOMPARE(standard.decision.rule, DecisionRule::MeanLogit);
            QVERIFY(!standard.objective.utilityTerm || standard.objective.utility.spec == "onehot");
            const TrainConfig tail = presetConfig(name + "-tail");
            QCOMPARE(protocolName(tail.protocol), std::string("paper-tail"));
            QCOMPARE(tail.objective.utility.spec, std::string("tail:1"));
            QVERIFY(tail.objective.utilityTerm);
            QCOMPARE(tail.decision.rule, DecisionRule::MeanLogit);
        }
        // The app's own default (a user's decisions) stays expected utility.
        QCOMPARE(presetConfig("quick-cpu").decision.rule, DecisionRule::Expected);
        // ImageNet-LT evaluates on the published loader's validation list.
        QCOMPARE(loadPresetJson("imagenet-lt")["data"]["test_list"].get<std::string>(), std::string("ImageNet_LT_val.txt"));
    }

    void everyBuiltInStudyNamesItsProtocol()
    {
        const std::vector<StudyInfo> studies = listBuiltInStudies();
        QVERIFY(studies.size() >= 7);
        for (const StudyInfo& info : studies) {
            const nlohmann::json raw = readJsonFile(info.path);
            QVERIFY2(raw.contains("protocol"), info.name.c_str());
            const StudySpec spec = findStudySpec(info.name);
            QVERIFY(spec.protocol.has_value());
            for (const bool quick : {false, true}) {
                StudyOptions options;
                options.quick = quick;
                const ResolvedStudy study = resolveStudy(spec, options);
                QVERIFY2(study.notes.empty(), info.name.c_str());
                for (const StudyCell& cell : study.cells) {
                    const TrainConfig config = trainConfigFromJson(runConfigJson(study, study.runs.front()));
                    const TrainConfig cellConfig = trainConfigFromJson(cell.config);
                    QVERIFY2(cellConfig.protocol != Protocol::App, (info.name + ": " + cell.label).c_str());
                    QCOMPARE(cellConfig.decision.rule, DecisionRule::MeanLogit);
                    Q_UNUSED(config);
                }
            }
        }
        // The paper's accuracy tables are paper-standard; the utility ablation compares a
        // paper-standard cell with a paper-tail one.
        for (const std::string name : {"methods", "calibration", "discrepancy", "repulsion", "particles"}) {
            QCOMPARE(protocolName(*findStudySpec(name).protocol), std::string("paper-standard"));
        }
        const ResolvedStudy utility = resolveStudy(findStudySpec("utility"), StudyOptions());
        QCOMPARE(utility.cells.size(), size_t(2));
        QCOMPARE(trainConfigFromJson(utility.cells[0].config).protocol, Protocol::PaperStandard);
        QCOMPARE(trainConfigFromJson(utility.cells[1].config).protocol, Protocol::PaperTail);
        // The one-hot cell is the methods study's LBD cell: one config, so one run serves both.
        const ResolvedStudy methods = resolveStudy(findStudySpec("methods"), StudyOptions());
        QCOMPARE(utility.cells[0].config.dump().size() > 0, true);
        nlohmann::json a = utility.cells[0].config, b = methods.cells.back().config;
        a.erase("name");
        b.erase("name");
        QCOMPARE(a.dump(), b.dump());
    }

    void aContradictedProtocolIsRefused()
    {
        TrainConfig config = test::tinyConfig();
        applyProtocol(config, Protocol::PaperStandard);
        config.validate();
        config.decision.rule = DecisionRule::Expected;
        try {
            config.validate();
            QFAIL("a paper-standard config deciding by expected utility was accepted");
        } catch (const InputError& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("mean-logit")), error.what());
        }
        applyProtocol(config, Protocol::PaperStandard);
        config.objective.utilityTerm = true;
        config.objective.utility = utilityFromSpec("tail:2");
        QVERIFY(protocolContradiction(config).has_value());
        QVERIFY(QString::fromStdString(*protocolContradiction(config)).contains(QStringLiteral("tail:2")));
        applyProtocol(config, Protocol::PaperTail);
        QVERIFY(!protocolContradiction(config));
        config.objective.utility = utilityFromSpec("tail:2");
        QVERIFY(protocolContradiction(config).has_value());
        // A config file that names a protocol it contradicts is refused with the key named.
        nlohmann::json json = loadPresetJson("fashion-mnist-lt");
        json["objective"]["utility"] = "tail:1";
        json["objective"]["utility_term"] = true;
        QVERIFY_EXCEPTION_THROWN(trainConfigFromJson(json), InputError);
    }

    void anOverrideThatLeavesTheProtocolMakesTheRunApp()
    {
        nlohmann::json config = loadPresetJson("fashion-mnist-lt");
        nlohmann::json patch = {{"decision", {{"rule", "expected"}}}};
        const auto note = mergeOverrides(config, patch);
        QVERIFY(note.has_value());
        QVERIFY2(QString::fromStdString(*note).contains(QStringLiteral("paper-standard")), note->c_str());
        QCOMPARE(config["protocol"].get<std::string>(), std::string("app"));
        QCOMPARE(trainConfigFromJson(config).protocol, Protocol::App);
        // An override the protocol allows keeps it.
        nlohmann::json kept = loadPresetJson("fashion-mnist-lt");
        QVERIFY(!mergeOverrides(kept, {{"train", {{"epochs", 3}}}}));
        QCOMPARE(kept["protocol"].get<std::string>(), std::string("paper-standard"));
        // A user who names the protocol is held to it (validate refuses the contradiction).
        nlohmann::json named = loadPresetJson("fashion-mnist-lt");
        QVERIFY(!mergeOverrides(named, {{"protocol", "paper-standard"}, {"decision", {{"rule", "argmax"}}}}));
        QVERIFY_EXCEPTION_THROWN(trainConfigFromJson(named), InputError);
        // A study's --set does the same per cell, with a note.
        StudyOptions options;
        options.quick = true;
        options.set = nestedPatch({{"objective.utility", "tail:2"}, {"objective.utility_term", true}}, "--set");
        const ResolvedStudy study = resolveStudy(findStudySpec("repulsion"), options);
        QCOMPARE(study.notes.size(), study.cells.size());
        QCOMPARE(trainConfigFromJson(study.cells[0].config).protocol, Protocol::App);
    }

    void paperStandardTrainsWithAZeroUtilityTermAndDecidesByMeanLogit()
    {
        TrainConfig config = test::tinyConfig(3);
        config.objective.drwEpoch = 1; // the utility term would start after epoch 1
        applyProtocol(config, Protocol::PaperStandard);
        QTemporaryDir dir;
        int epochs = 0;
        TrainingCallbacks callbacks;
        callbacks.onEpoch = [&](const EpochMetrics& metrics) {
            ++epochs;
            QCOMPARE(metrics.objective.utility, 0.0);
            QCOMPARE(metrics.objective.utilityWeight * metrics.objective.utility, 0.0);
            if (metrics.evaluation) {
                QCOMPARE(metrics.evaluation->rule, DecisionRule::MeanLogit);
                QVERIFY(metrics.evaluation->published.has_value());
            }
        };
        Trainer trainer(config, dir.path().toStdString(), false);
        const TrainingResult result = trainer.run(callbacks, nullptr);
        QCOMPARE(epochs, 3);
        QVERIFY(result.finalReport.has_value());
        const nlohmann::json report = readJsonFile(dir.filePath(QStringLiteral("report.json")).toStdString());
        QCOMPARE(report["protocol"].get<std::string>(), std::string("paper-standard"));
        QCOMPARE(report["decision_rule"].get<std::string>(), std::string("mean-logit"));
        QVERIFY(report["evaluation"].contains("published"));
        // The same run with the tail-sensitive protocol has a utility term that is not zero.
        TrainConfig tail = test::tinyConfig(3);
        tail.objective.drwEpoch = 1;
        applyProtocol(tail, Protocol::PaperTail);
        QTemporaryDir tailDir;
        double utilitySeen = 0.0;
        TrainingCallbacks tailCallbacks;
        tailCallbacks.onEpoch = [&](const EpochMetrics& metrics) { utilitySeen += std::abs(metrics.objective.utility); };
        Trainer(tail, tailDir.path().toStdString(), false).run(tailCallbacks, nullptr);
        QVERIFY2(utilitySeen > 0.0, "the paper-tail run's utility term was zero: the check above could not fail");
    }
};

QTEST_APPLESS_MAIN(TestProtocols)
#include "test_protocols.moc"
