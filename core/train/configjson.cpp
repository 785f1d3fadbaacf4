#include "core/train/configjson.h"

#include "core/data/dataspecjson.h"
#include "core/eval/decisionrule.h"
#include "core/lbd/utilitysetting.h"
#include "core/util/atomicfile.h"
#include "core/util/jsonread.h"

#include <nlohmann/json.hpp>

namespace lbd {

void mergeJson(nlohmann::json& base, const nlohmann::json& patch)
{
    if (!base.is_object() || !patch.is_object()) {
        base = patch;
        return;
    }
    for (const auto& item : patch.items()) {
        if (item.value().is_object() && base.contains(item.key()) && base[item.key()].is_object()) {
            mergeJson(base[item.key()], item.value());
        } else {
            base[item.key()] = item.value();
        }
    }
}

nlohmann::json toJson(const TrainConfig& config)
{
    const auto& o = config.objective;
    const auto& a = config.augment;
    const auto& m = config.model;
    const auto& p = config.optimizer;
    const auto& t = config.train;
    return {{"name", config.name},
            {"description", config.description},
            {"data", toJson(config.data)},
            {"augment",
             {{"enabled", a.enabled},
              {"padding", a.padding},
              {"flip", a.horizontalFlip},
              {"rotation", a.maxRotationDegrees},
              {"output_size", a.outputSize}}},
            {"model", {{"arch", m.arch}, {"particles", m.particles}, {"scale", m.cosineScale}}},
            {"objective",
             {{"discrepancy", discrepancyKindName(o.discrepancy.kind)},
              {"beta", o.discrepancy.beta},
              {"gamma", o.discrepancy.gamma},
              {"drw_epoch", o.drwEpoch},
              {"ldam_margins", o.ldamMargins},
              {"max_margin", o.maxMargin},
              {"utility_term", o.utilityTerm},
              {"utility", toJson(o.utility)},
              {"utility_form", utilityFormName(o.utilityForm)},
              {"alpha", o.alpha},
              {"utility_after_drw_only", o.utilityAfterDrwOnly},
              {"repulsive", o.repulsive},
              {"tau", o.tau},
              {"eps", o.eps}}},
            {"optimizer",
             {{"lr", p.learningRate},
              {"momentum", p.momentum},
              {"nesterov", p.nesterov},
              {"weight_decay", p.weightDecay},
              {"warmup_epochs", p.warmupEpochs},
              {"decay_epochs", p.decayEpochs},
              {"decay_factors", p.decayFactors}}},
            {"train",
             {{"epochs", t.epochs},
              {"batch_size", t.batchSize},
              {"eval_every", t.evalEvery},
              {"checkpoint_every", t.checkpointEvery},
              {"device", t.device},
              {"precision", t.precision},
              {"channels_last", t.channelsLast},
              {"cuda_graph", t.cudaGraph},
              {"seed", t.seed},
              {"threads", t.threads}}},
            {"decision",
             {{"utility", toJson(config.decision.utility)},
              {"rule", decisionRuleName(config.decision.rule)},
              {"defer", config.decision.deferUtility ? nlohmann::json(*config.decision.deferUtility)
                                                     : nlohmann::json(nullptr)}}}};
}

namespace {

// InputErrors from a parse*() helper get the key prefixed.
template <typename Parse>
auto parseNamed(const JsonReader& reader, const std::string& key, Parse parse)
{
    try {
        return parse();
    } catch (const InputError& error) {
        throw InputError(reader.key(key) + ": " + error.what());
    }
}

void readObjective(const nlohmann::json& json, TrainConfig& config, const std::string& context)
{
    JsonReader reader(json, context);
    auto& o = config.objective;
    if (reader.has("baseline")) {
        std::string name;
        reader.read("baseline", name);
        const Baseline baseline = parseNamed(reader, "baseline", [&] { return parseBaseline(name); });
        // Only what the method defines: alpha, tau and the rest of the preset stay.
        applyBaseline(baseline, config.train.epochs, o, config.model.particles);
    }
    std::string kind = discrepancyKindName(o.discrepancy.kind);
    reader.read("discrepancy", kind);
    o.discrepancy.kind = parseNamed(reader, "discrepancy", [&] { return parseDiscrepancyKind(kind); });
    reader.read("beta", o.discrepancy.beta);
    reader.read("gamma", o.discrepancy.gamma);
    reader.read("drw_epoch", o.drwEpoch);
    reader.read("ldam_margins", o.ldamMargins);
    reader.read("max_margin", o.maxMargin);
    reader.read("utility_term", o.utilityTerm);
    if (reader.has("utility")) {
        o.utility = utilitySettingFromJson(reader.child("utility"), reader.key("utility"));
    }
    std::string form = utilityFormName(o.utilityForm);
    reader.read("utility_form", form);
    o.utilityForm = parseNamed(reader, "utility_form", [&] { return parseUtilityForm(form); });
    reader.read("alpha", o.alpha);
    reader.read("utility_after_drw_only", o.utilityAfterDrwOnly);
    reader.read("repulsive", o.repulsive);
    reader.read("tau", o.tau);
    reader.read("eps", o.eps);
    reader.rejectUnknown();
    try {
        o.validate();
    } catch (const InputError& error) {
        throw InputError(context + ": " + error.what());
    }
}

void readDecision(const nlohmann::json& json, DecisionSpec& decision, const std::string& context)
{
    JsonReader reader(json, context);
    if (reader.has("utility")) {
        decision.utility = utilitySettingFromJson(reader.child("utility"), reader.key("utility"));
    }
    std::string rule = decisionRuleName(decision.rule);
    reader.read("rule", rule);
    decision.rule = parseNamed(reader, "rule", [&] { return parseDecisionRule(rule); });
    reader.read("defer", decision.deferUtility); // null: no defer option
    reader.rejectUnknown();
    if (decision.deferUtility && !decisionRuleInfo(decision.rule).supportsDefer) {
        throw InputError(reader.key("defer") + ": the " + decisionRuleName(decision.rule)
                         + " rule has no defer option (use expected or argmax)");
    }
}

// Configs written before training and decision utilities were separate had one setting,
// train.utility, used by both, and train.decision_rule ("lbd" = Eq. 7); they trained with the
// utility term of the paper's form. The new keys win where a config has both.
void readLegacyUtility(JsonReader& train, TrainConfig& config, const nlohmann::json& root)
{
    std::string utility;
    std::string rule;
    train.read("utility", utility);
    train.read("decision_rule", rule);
    const nlohmann::json* objective = root.contains("objective") ? &root.at("objective") : nullptr;
    const nlohmann::json* decision = root.contains("decision") ? &root.at("decision") : nullptr;
    const auto lacks = [](const nlohmann::json* object, const char* key) {
        return object == nullptr || !object->is_object() || !object->contains(key);
    };
    if (!utility.empty()) {
        if (lacks(objective, "utility")) {
            config.objective.utility = utilityFromSpec(utility);
        }
        if (lacks(objective, "utility_form")) {
            config.objective.utilityForm = UtilityForm::Paper;
        }
        if (lacks(decision, "utility")) {
            config.decision.utility = utilityFromSpec(utility);
        }
    }
    if (!rule.empty() && lacks(decision, "rule")) {
        config.decision.rule = parseNamed(train, "decision_rule", [&] { return parseDecisionRule(rule); });
    }
}

} // namespace

TrainConfig trainConfigFromJson(const nlohmann::json& json, const std::string& source)
{
    TrainConfig config;
    JsonReader root(json, source);
    root.read("name", config.name);
    root.read("description", config.description);
    if (root.has("data")) {
        config.data = dataSpecFromJson(root.child("data"), "data");
    }
    // train before objective: a baseline preset needs the number of epochs (DRW at 80%);
    // objective before model: a baseline sets the particle count, which model.particles overrides.
    if (root.has("train")) {
        JsonReader reader(root.child("train"), "train");
        auto& t = config.train;
        reader.read("epochs", t.epochs);
        reader.read("batch_size", t.batchSize);
        reader.read("eval_every", t.evalEvery);
        reader.read("checkpoint_every", t.checkpointEvery);
        reader.read("device", t.device);
        if (reader.has("bf16") && !reader.has("precision")) { // configs written before "precision"
            bool bf16 = true;
            reader.read("bf16", bf16);
            t.precision = bf16 ? "bf16" : "fp32";
        } else {
            reader.read("precision", t.precision);
            bool ignored = true;
            reader.read("bf16", ignored); // "precision" wins when a config has both
        }
        reader.read("channels_last", t.channelsLast);
        reader.read("cuda_graph", t.cudaGraph);
        reader.read("seed", t.seed);
        reader.read("threads", t.threads);
        readLegacyUtility(reader, config, json);
        reader.rejectUnknown();
    }
    if (root.has("augment")) {
        JsonReader reader(root.child("augment"), "augment");
        auto& a = config.augment;
        reader.read("enabled", a.enabled);
        reader.read("padding", a.padding);
        reader.read("flip", a.horizontalFlip);
        reader.read("rotation", a.maxRotationDegrees);
        reader.read("output_size", a.outputSize);
        reader.rejectUnknown();
    }
    if (root.has("objective")) {
        readObjective(root.child("objective"), config, "objective");
    }
    if (root.has("decision")) {
        readDecision(root.child("decision"), config.decision, "decision");
    }
    if (root.has("model")) {
        JsonReader reader(root.child("model"), "model");
        reader.read("arch", config.model.arch);
        reader.read("particles", config.model.particles);
        reader.read("scale", config.model.cosineScale);
        reader.rejectUnknown();
    }
    if (root.has("optimizer")) {
        JsonReader reader(root.child("optimizer"), "optimizer");
        auto& p = config.optimizer;
        reader.read("lr", p.learningRate);
        reader.read("momentum", p.momentum);
        reader.read("nesterov", p.nesterov);
        reader.read("weight_decay", p.weightDecay);
        reader.read("warmup_epochs", p.warmupEpochs);
        if (reader.has("decay_epochs")) {
            std::vector<double> epochs;
            reader.read("decay_epochs", epochs);
            p.decayEpochs.assign(epochs.begin(), epochs.end());
        }
        reader.read("decay_factors", p.decayFactors);
        reader.rejectUnknown();
    }
    root.rejectUnknown();
    config.validate();
    return config;
}

const std::vector<std::string>& baselineObjectiveKeys()
{
    static const std::vector<std::string> keys = {"discrepancy", "drw_epoch", "ldam_margins", "utility_term", "repulsive"};
    return keys;
}

TrainConfig loadTrainConfig(const std::string& path)
{
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(readTextFile(path));
    } catch (const nlohmann::json::exception& error) {
        throw InputError(path + ": not valid JSON (" + error.what() + ")");
    }
    try {
        return trainConfigFromJson(json, "config");
    } catch (const InputError& error) {
        throw InputError(path + ": " + error.what());
    }
}

ObjectiveSpec trainingObjective(const TrainConfig& config, const UtilityMatrix& trainingUtility)
{
    ObjectiveSpec spec = config.objective;
    spec.utilityMatrix = trainingUtility.values();
    spec.scale = config.model.cosineScale;
    return spec;
}

void TrainConfig::validate() const
{
    const auto fail = [](const std::string& message) { throw InputError(message); };
    data.validate();
    model.validate();
    objective.validate();
    if (train.epochs < 1) fail("train.epochs must be at least 1, got " + std::to_string(train.epochs));
    if (train.batchSize < 1 || train.batchSize > 65536) fail("train.batch_size must be in 1..65536, got " + std::to_string(train.batchSize));
    if (train.evalEvery < 1) fail("train.eval_every must be at least 1");
    if (train.checkpointEvery < 1) fail("train.checkpoint_every must be at least 1");
    if (train.threads < 0) fail("train.threads must not be negative");
    if (train.precision != "fp16" && train.precision != "bf16" && train.precision != "fp32") {
        fail("train.precision must be fp16, bf16 or fp32, got '" + train.precision + "'");
    }
    if (!(optimizer.learningRate > 0)) fail("optimizer.lr must be positive");
    if (!(optimizer.momentum >= 0 && optimizer.momentum < 1)) fail("optimizer.momentum must be in [0, 1)");
    if (!(optimizer.weightDecay >= 0)) fail("optimizer.weight_decay must not be negative");
    if (optimizer.warmupEpochs < 0) fail("optimizer.warmup_epochs must not be negative");
    if (optimizer.decayEpochs.size() != optimizer.decayFactors.size()) {
        fail("optimizer.decay_epochs and optimizer.decay_factors must have the same length");
    }
    for (const double factor : optimizer.decayFactors) {
        if (!(factor > 0)) fail("optimizer.decay_factors must be positive");
    }
    if (augment.padding < 0 || augment.padding > 64) fail("augment.padding must be in 0..64");
    if (!(augment.maxRotationDegrees >= 0 && augment.maxRotationDegrees <= 180)) fail("augment.rotation must be in [0, 180] degrees");
    if (augment.outputSize < 8) fail("augment.output_size must be at least 8");
}

} // namespace lbd
