#include "core/train/configjson.h"
#include "core/util/jsonfile.h"

#include "core/eval/decisionrule.h"
#include "core/lbd/priorutility.h"
#include "core/lbd/utilitysetting.h"
#include "core/train/configfields.h"
#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/namedchoice.h"
#include "core/util/numbertext.h"
#include "core/lbd/utilitymatrix.h"

#include <nlohmann/json.hpp>

#include <utility>

namespace lbd {
namespace {

using nlohmann::json;

json::json_pointer pointerOf(const std::string& key)
{
    std::string pointer = "/" + key;
    for (char& c : pointer) {
        c = c == '.' ? '/' : c;
    }
    return json::json_pointer(pointer);
}

void setField(const ConfigField& field, TrainConfig& config, const json& value)
{
    try {
        field.write(config, value);
    } catch (const InputError& error) {
        throw InputError(field.key + " " + error.what());
    }
}

// Keys that configs written by earlier versions hold and that the table no longer has. Read
// before the table so that the current keys win where a config has both:
// - train.bf16 (before train.precision): false meant fp32;
// - train.utility / train.decision_rule (before training and decision utilities were separate):
//   one matrix for both, "lbd" for Eq. 7, and a utility term of the paper's form.
void readLegacyKeys(json& root, TrainConfig& config)
{
    if (!root.contains("train") || !root["train"].is_object()) {
        return;
    }
    json& train = root["train"];
    const auto lacks = [&](const char* section, const char* key) {
        return !root.contains(section) || !root[section].is_object() || !root[section].contains(key);
    };
    if (train.contains("bf16")) {
        if (!train["bf16"].is_boolean()) {
            throw InputError("train.bf16 must be true or false");
        }
        if (!train.contains("precision")) {
            config.train.precision = train["bf16"].get<bool>() ? Precision::Bf16 : Precision::Fp32;
        }
        train.erase("bf16");
    }
    if (train.contains("utility")) {
        if (!train["utility"].is_string()) {
            throw InputError("train.utility must be a string");
        }
        const UtilitySetting utility = utilityFromSpec(train["utility"].get<std::string>());
        if (lacks("objective", "utility")) {
            config.objective.utility = utility;
        }
        if (lacks("objective", "utility_form")) {
            config.objective.utilityForm = UtilityForm::Paper;
        }
        if (lacks("decision", "utility")) {
            config.decision.utility = utility;
        }
        train.erase("utility");
    }
    if (train.contains("decision_rule")) {
        if (!train["decision_rule"].is_string()) {
            throw InputError("train.decision_rule must be a string");
        }
        const std::string rule = train["decision_rule"].get<std::string>();
        if (lacks("decision", "rule")) {
            try {
                config.decision.rule = parseDecisionRule(rule);
            } catch (const InputError& error) {
                throw InputError(std::string("train.decision_rule: ") + error.what());
            }
        }
        train.erase("decision_rule");
    }
}

// A section of the table ("data", "data.synthetic"): some field's key starts with it.
bool isSection(const std::string& key)
{
    for (const ConfigField& field : configFields()) {
        if (field.key.size() > key.size() && field.key.compare(0, key.size(), key) == 0 && field.key[key.size()] == '.') {
            return true;
        }
    }
    return false;
}

// Walks the object: a key of the table is set, a section is descended into, anything else is
// unknown (so a deeply nested or misspelt object stops at its first unknown key).
void readFields(const json& object, const std::string& prefix, TrainConfig& config)
{
    for (const auto& item : object.items()) {
        const std::string key = prefix.empty() ? item.key() : prefix + "." + item.key();
        if (const ConfigField* field = findConfigField(key)) {
            setField(*field, config, item.value());
        } else if (isSection(key)) {
            if (!item.value().is_object()) {
                throw InputError(key + " must be an object of settings");
            }
            readFields(item.value(), key, config);
        } else {
            throw InputError(key + " is not a known setting");
        }
    }
}

} // namespace

void mergeJson(json& base, const json& patch)
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

json toJson(const TrainConfig& config)
{
    json out = json::object();
    for (const ConfigField& field : configFields()) {
        if (!field.written || field.written(config)) {
            out[pointerOf(field.key)] = field.read(config);
        }
    }
    return out;
}

namespace {

// The reader proper, on a document it may change: loadTrainConfig moves the parsed file in (a
// copy of a 48 MB config's values cost some 65 MB more).
TrainConfig configFromOwnedJson(json root, const std::string& source)
{
    if (!root.is_object()) {
        throw InputError(source + " must be a JSON object of settings (found " + std::string(root.type_name()) + ")");
    }
    TrainConfig config;
    readLegacyKeys(root, config);
    // A baseline sets what its method defines (applyBaseline) from the number of epochs; the
    // other keys, read after it, override it.
    std::optional<std::string> baseline;
    if (root.contains("objective") && root["objective"].is_object() && root["objective"].contains("baseline")) {
        if (!root["objective"]["baseline"].is_string()) {
            throw InputError("objective.baseline must be a string");
        }
        baseline = root["objective"]["baseline"].get<std::string>();
        root["objective"].erase("baseline");
    }
    if (baseline) {
        if (root.contains("train") && root["train"].is_object() && root["train"].contains("epochs")) {
            setField(*findConfigField("train.epochs"), config, root["train"]["epochs"]);
        }
        try {
            applyBaseline(parseBaseline(*baseline), config.train.epochs, config.objective, config.model.particles);
        } catch (const InputError& error) {
            throw InputError(std::string("objective.baseline: ") + error.what());
        }
    }
    // The synthetic images' seed follows the data seed unless a config names it.
    const bool syntheticSeedGiven = root.contains("data") && root["data"].is_object() && root["data"].contains("synthetic")
        && root["data"]["synthetic"].is_object() && root["data"]["synthetic"].contains("seed");
    // A user's own folder or list is used as given unless the config names a long tail (the
    // defaults, exp at ratio 100, are the built-in data sets' benchmark).
    const bool longTailGiven = root.contains("data") && root["data"].is_object()
        && (root["data"].contains("profile") || root["data"].contains("imbalance_ratio"));
    readFields(root, "", config);
    if (!syntheticSeedGiven) {
        config.data.synthetic.seed = config.data.longTail.seed;
    }
    if (!longTailGiven) {
        config.data.useAsGiven();
    }
    config.validate();
    return config;
}

} // namespace

TrainConfig trainConfigFromJson(const json& input, const std::string& source)
{
    return configFromOwnedJson(input, source);
}

TrainConfig loadTrainConfig(const std::string& path)
{
    json json = readJsonFile(path);
    try {
        return configFromOwnedJson(std::move(json), "config");
    } catch (const InputError& error) {
        throw InputError(path + ": " + error.what());
    }
}

const std::vector<std::string>& baselineObjectiveKeys()
{
    static const std::vector<std::string> keys = {"discrepancy", "drw_epoch", "ldam_margins", "logit_adjustment",
                                                  "utility_term", "repulsive"};
    return keys;
}

void setBaselineInConfigJson(json& config, const std::string& baseline, bool keepParticles)
{
    if (config.contains("model") && config["model"].is_object() && !keepParticles) {
        config["model"].erase("particles");
    }
    if (config.contains("objective") && config["objective"].is_object()) {
        for (const std::string& key : baselineObjectiveKeys()) {
            config["objective"].erase(key);
        }
    }
    config["objective"]["baseline"] = baseline;
}

ObjectiveSpec trainingObjective(const TrainConfig& config, const UtilityMatrix& trainingUtility)
{
    ObjectiveSpec spec = config.objective;
    spec.utilityMatrix = trainingUtility.values();
    spec.scale = config.model.cosineScale;
    return spec;
}

ModelSpec runModelSpec(const TrainConfig& config, int64_t inputChannels, int64_t classCount)
{
    ModelSpec spec = config.model;
    spec.inputChannels = inputChannels;
    spec.numClasses = classCount;
    spec.inputSize = config.augment.outputSize;
    return spec;
}

std::string precisionName(Precision precision)
{
    switch (precision) {
    case Precision::Fp16: return "fp16";
    case Precision::Bf16: return "bf16";
    case Precision::Fp32: return "fp32";
    }
    return "fp32";
}

Precision parsePrecision(const std::string& text)
{
    return parseNamedChoice(text, std::vector<Precision>{Precision::Fp16, Precision::Bf16, Precision::Fp32}, precisionName,
                            "precision");
}

namespace {

bool trainsWithOneHot(const UtilitySetting& utility)
{
    return utility.byValue() ? utility.matrix.isOneHot() : utility.spec == "onehot";
}

std::optional<double> trainingTailPenalty(const UtilitySetting& utility)
{
    return utility.byValue() ? tailPenaltyOf(utility.matrix) : tailPenaltyOf(utility.spec);
}

} // namespace

std::optional<std::string> protocolContradiction(const TrainConfig& config)
{
    const std::string name = protocolName(config.protocol);
    const auto rule = [&]() -> std::optional<std::string> {
        if (config.decision.rule != DecisionRule::MeanLogit) {
            return "protocol " + name + " decides by mean-logit (the published code's argmax of the mean logits), but "
                   "decision.rule is " + decisionRuleName(config.decision.rule);
        }
        return std::nullopt;
    };
    // Both paper protocols train the published way on every image of the long-tailed split, and LBD
    // (more than one particle) without the logit-adjusted loss, which only the one-network
    // logit-adjustment baselines use (lbd-math.md section 8).
    const auto training = [&]() -> std::optional<std::string> {
        if (config.data.longTail.validationFraction > 0.0) {
            return "protocol " + name + " trains on every image of the long-tailed split, as the paper, but "
                   "data.val_fraction is " + numberText(config.data.longTail.validationFraction, 6)
                + " (that share is held out for validation)";
        }
        if (config.objective.logitAdjustment && config.model.particles > 1) {
            return "protocol " + name + " trains LBD without the logit-adjusted loss (only the one-particle "
                   "logit-adjustment baselines use it), but objective.logit_adjustment is true with "
                + std::to_string(config.model.particles) + " particles";
        }
        return std::nullopt;
    };
    if (config.protocol != Protocol::App) {
        if (auto why = training()) {
            return why;
        }
    }
    switch (config.protocol) {
    case Protocol::App: return std::nullopt;
    case Protocol::PaperStandard:
        if (config.objective.utilityTerm && !trainsWithOneHot(config.objective.utility)) {
            return "protocol paper-standard trains with the one-hot utility (the utility term is zero), but "
                   "objective.utility is " + config.objective.utility.describe();
        }
        return rule();
    case Protocol::PaperTail: {
        const auto penalty = trainingTailPenalty(config.objective.utility);
        if (!config.objective.utilityTerm || !penalty || *penalty != 1.0) {
            return "protocol paper-tail trains with the tail-sensitive utility c = 1 (objective.utility tail:1 with the "
                   "utility term on), but objective.utility is " + config.objective.utility.describe()
                + (config.objective.utilityTerm ? "" : " and objective.utility_term is false");
        }
        return rule();
    }
    }
    return std::nullopt;
}

void applyProtocol(TrainConfig& config, Protocol protocol)
{
    config.protocol = protocol;
    switch (protocol) {
    case Protocol::App: return;
    case Protocol::PaperStandard:
        config.objective.utility = utilityFromSpec("onehot");
        config.objective.utilityTerm = false; // zero under one-hot anyway; off, so every such run has one config
        break;
    case Protocol::PaperTail:
        config.objective.utility = utilityFromSpec(tailSpec(1.0));
        config.objective.utilityTerm = true;
        break;
    }
    config.decision.rule = DecisionRule::MeanLogit;
    config.decision.deferUtility.reset(); // mean-logit does not score by expected utility
    config.data.longTail.validationFraction = 0.0;
    if (config.model.particles > 1) {
        config.objective.logitAdjustment = false;
    }
}

void applyProtocolToJson(json& config, Protocol protocol)
{
    config["protocol"] = protocolName(protocol);
    switch (protocol) {
    case Protocol::App: return;
    case Protocol::PaperStandard:
        config["objective"]["utility"] = "onehot";
        config["objective"]["utility_term"] = false;
        break;
    case Protocol::PaperTail:
        config["objective"]["utility"] = tailSpec(1.0);
        config["objective"]["utility_term"] = true;
        break;
    }
    config["decision"]["rule"] = decisionRuleName(DecisionRule::MeanLogit);
    config["decision"]["defer"] = nullptr;
    config["data"]["val_fraction"] = 0.0;
    const json& model = config.contains("model") && config["model"].is_object() ? config["model"] : json::object();
    const json particles = model.value("particles", json(TrainConfig{}.model.particles));
    if (particles.is_number_integer() && particles.get<int64_t>() > 1 && config["objective"].is_object()
        && config["objective"].contains("logit_adjustment")) {
        config["objective"]["logit_adjustment"] = false;
    }
}

std::optional<std::string> mergeOverrides(json& config, const json& patch)
{
    mergeJson(config, patch);
    if (patch.is_object() && patch.contains("protocol")) {
        return std::nullopt; // the user named the protocol: validate() holds them to it
    }
    if (!config.is_object() || !config.contains("protocol") || !config["protocol"].is_string()
        || config["protocol"] == protocolName(Protocol::App)) {
        return std::nullopt;
    }
    const std::string named = config["protocol"].get<std::string>();
    json probe = config;
    probe["protocol"] = protocolName(Protocol::App);
    TrainConfig parsed;
    try {
        parsed = trainConfigFromJson(probe, "config");
        parsed.protocol = parseProtocol(named);
    } catch (const InputError&) {
        return std::nullopt; // another error: reading the merged config reports it unchanged
    }
    const auto contradiction = protocolContradiction(parsed);
    if (!contradiction) {
        return std::nullopt;
    }
    config["protocol"] = protocolName(Protocol::App);
    return "protocol: app, not " + named + " (" + *contradiction + "); numbers of this run are not comparable with the "
           "paper's tables";
}

void TrainConfig::validate() const
{
    const auto fail = [](const std::string& message) { throw InputError(message); };
    if (const auto contradiction = protocolContradiction(*this)) {
        fail(*contradiction + " (set protocol to app to train these settings)");
    }
    try {
        data.validate();
    } catch (const InputError& error) {
        throw InputError(std::string("data.") + error.what());
    }
    model.validate();
    try {
        objective.validate();
    } catch (const InputError& error) {
        throw InputError(std::string("objective: ") + error.what());
    }
    if (train.epochs < 1 || train.epochs > kMaxEpochs) {
        fail("train.epochs must be in 1.." + std::to_string(kMaxEpochs) + ", got " + std::to_string(train.epochs));
    }
    if (train.batchSize < 1 || train.batchSize > 65536) fail("train.batch_size must be in 1..65536, got " + std::to_string(train.batchSize));
    if (train.evalEvery < 1) fail("train.eval_every must be at least 1");
    if (train.checkpointEvery < 1) fail("train.checkpoint_every must be at least 1");
    if (train.threads < 0 || train.threads > 1024) fail("train.threads must be in 0..1024");
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
    if (augment.outputSize < 8 || augment.outputSize > 1024) fail("augment.output_size must be in 8..1024");
    if (!(augment.cropScaleMin > 0 && augment.cropScaleMin <= 1)) fail("augment.crop_scale_min must be in (0, 1]");
    for (const auto& [key, spread] : {std::pair<const char*, double>{"augment.brightness", augment.brightness},
                                      {"augment.contrast", augment.contrast}, {"augment.saturation", augment.saturation}}) {
        if (!(spread >= 0 && spread < 1)) fail(std::string(key) + " must be in [0, 1)");
    }
    if (decision.deferUtility) {
        checkDeferUtility(*decision.deferUtility, decision.rule, "decision.defer");
    }
    if (!decision.utility.byValue() && isPriorUtilitySpec(decision.utility.spec)) {
        checkPriorUtilityRule(decision.rule, "decision.utility " + decision.utility.spec + " with decision.rule eq7");
    }
}

} // namespace lbd
