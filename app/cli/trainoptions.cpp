#include "app/cli/trainoptions.h"

#include "app/cli/dataoptions.h"

#include "core/train/configjson.h"
#include "core/train/presets.h"
#include "core/util/atomicfile.h"
#include "core/util/error.h"

namespace lbd::cli {

nlohmann::json trainConfigJsonFromArgs(Args& args)
{
    const auto configPath = args.value("config");
    const auto preset = args.value("preset");
    if (configPath && preset) {
        throw InputError("--config and --preset cannot be combined");
    }
    nlohmann::json config;
    if (configPath) {
        try {
            config = nlohmann::json::parse(readTextFile(*configPath));
        } catch (const nlohmann::json::exception& error) {
            throw InputError(*configPath + ": not valid JSON (" + error.what() + ")");
        }
    } else {
        config = loadPresetJson(preset.value_or("quick-cpu"));
    }
    nlohmann::json patch = nlohmann::json::object();
    nlohmann::json data = nlohmann::json::object();
    applyDataFlags(args, data);
    if (!data.empty()) {
        patch["data"] = data;
    }
    const auto setText = [&](const char* flag, const char* section, const char* key) {
        if (const auto value = args.value(flag)) {
            patch[section][key] = *value;
        }
    };
    const auto setNumber = [&](const char* flag, const char* section, const char* key) {
        if (args.value(flag)) {
            patch[section][key] = args.number(flag, 0);
        }
    };
    const auto setInteger = [&](const char* flag, const char* section, const char* key) {
        if (args.value(flag)) {
            patch[section][key] = args.integer(flag, 0);
        }
    };
    setText("name", "meta", "name");
    if (patch.contains("meta")) {
        patch["name"] = patch["meta"]["name"];
        patch.erase("meta");
    }
    setText("device", "train", "device");
    setInteger("epochs", "train", "epochs");
    setInteger("batch-size", "train", "batch_size");
    setInteger("eval-every", "train", "eval_every");
    setInteger("checkpoint-every", "train", "checkpoint_every");
    setInteger("threads", "train", "threads");
    // Two utilities (lbd-math.md section 5): what training optimises and what decisions use.
    setText("train-utility", "objective", "utility");
    setText("utility-form", "objective", "utility_form");
    setText("utility", "decision", "utility");
    setText("rule", "decision", "rule");
    setNumber("defer", "decision", "defer");
    if (args.value("seed")) {
        patch["train"]["seed"] = args.integer("seed", 0); // the data seed is set by applyDataFlags
    }
    if (args.value("train-seed")) {
        // Only the model initialisation, batch order and augmentation: the same long-tailed split.
        patch["train"]["seed"] = args.integer("train-seed", 0);
    }
    if (args.flag("no-cuda-graph")) {
        patch["train"]["cuda_graph"] = false;
    }
    setText("precision", "train", "precision");
    if (args.flag("no-bf16")) { // older spelling of --precision fp32
        patch["train"]["precision"] = "fp32";
    }
    setText("arch", "model", "arch");
    setInteger("particles", "model", "particles");
    setText("baseline", "objective", "baseline");
    setNumber("alpha", "objective", "alpha");
    setNumber("tau", "objective", "tau");
    setText("discrepancy", "objective", "discrepancy");
    setInteger("drw-epoch", "objective", "drw_epoch");
    setNumber("lr", "optimizer", "lr");
    setNumber("weight-decay", "optimizer", "weight_decay");
    // --baseline replaces what the method defines (and the particle count, unless --particles is
    // given too); the preset's other values (alpha, tau, the utility, ...) stay.
    if (patch.contains("objective") && patch["objective"].contains("baseline")) {
        if (config.contains("model") && config["model"].is_object()
            && !(patch.contains("model") && patch["model"].contains("particles"))) {
            config["model"].erase("particles");
        }
        if (config.contains("objective") && config["objective"].is_object()) {
            for (const std::string& key : baselineObjectiveKeys()) {
                config["objective"].erase(key);
            }
        }
    }
    mergeJson(config, patch);
    return config;
}

} // namespace lbd::cli
