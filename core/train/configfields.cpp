#include "core/train/configfields.h"

#include "core/lbd/utilitysetting.h"
#include "core/util/error.h"
#include "datasets/catalogue.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <type_traits>

namespace lbd {
namespace {

using nlohmann::json;

// ---- JSON <-> value, one overload per value type. Errors say what is wrong, not where. ----

void fromJson(const json& j, double& out)
{
    if (!j.is_number()) {
        throw InputError("must be a number");
    }
    const double value = j.get<double>();
    if (!std::isfinite(value)) {
        throw InputError("must be finite");
    }
    out = value;
}

void fromJson(const json& j, bool& out)
{
    if (!j.is_boolean()) {
        throw InputError("must be true or false");
    }
    out = j.get<bool>();
}

void fromJson(const json& j, std::string& out)
{
    if (!j.is_string()) {
        throw InputError("must be a string");
    }
    out = j.get<std::string>();
}

void fromJson(const json& j, int64_t& out)
{
    if (!j.is_number_integer()) {
        throw InputError("must be an integer");
    }
    if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        throw InputError("is out of range (" + j.dump() + ")");
    }
    out = j.get<int64_t>();
}

void fromJson(const json& j, int& out)
{
    int64_t wide = 0;
    fromJson(j, wide);
    if (wide < std::numeric_limits<int>::min() || wide > std::numeric_limits<int>::max()) {
        throw InputError("is out of range (" + std::to_string(wide) + ")");
    }
    out = static_cast<int>(wide);
}

void fromJson(const json& j, uint64_t& out)
{
    int64_t wide = 0;
    fromJson(j, wide);
    if (wide < 0) {
        throw InputError("must not be negative");
    }
    out = static_cast<uint64_t>(wide);
}

template <typename T>
void fromJson(const json& j, std::vector<T>& out)
{
    if (!j.is_array()) {
        throw InputError("must be an array");
    }
    std::vector<T> values(j.size());
    for (size_t i = 0; i < j.size(); ++i) {
        fromJson(j[i], values[i]);
    }
    out = std::move(values);
}

void fromJson(const json& j, std::optional<double>& out)
{
    if (j.is_null()) {
        out.reset();
        return;
    }
    double value = 0.0;
    fromJson(j, value);
    out = value;
}

template <typename T>
json toJsonValue(const T& value)
{
    return json(value);
}

json toJsonValue(const std::optional<double>& value)
{
    return value ? json(*value) : json(nullptr);
}

template <typename T>
std::string typeName()
{
    if constexpr (std::is_same_v<T, double>) {
        return "number";
    } else if constexpr (std::is_same_v<T, bool>) {
        return "true|false";
    } else if constexpr (std::is_same_v<T, std::string>) {
        return "text";
    } else if constexpr (std::is_same_v<T, std::optional<double>>) {
        return "number or null";
    } else if constexpr (std::is_same_v<T, std::vector<int>> || std::is_same_v<T, std::vector<double>>) {
        return "list of numbers";
    } else {
        return "integer";
    }
}

// A field whose value is a plain member reached through `access` (TrainConfig& -> T&).
template <typename Access>
ConfigField value(std::string key, std::string help, Access access)
{
    using T = std::remove_reference_t<decltype(access(std::declval<TrainConfig&>()))>;
    ConfigField field;
    field.key = std::move(key);
    field.help = std::move(help);
    field.type = typeName<T>();
    field.read = [access](const TrainConfig& config) { return toJsonValue(access(const_cast<TrainConfig&>(config))); };
    field.write = [access](TrainConfig& config, const json& j) { fromJson(j, access(config)); };
    return field;
}

// A field stored as an enum and written as its name.
template <typename Access, typename Name, typename Parse>
ConfigField named(std::string key, std::string help, std::string choices, Access access, Name name, Parse parse)
{
    ConfigField field;
    field.key = std::move(key);
    field.help = std::move(help);
    field.type = std::move(choices);
    field.read = [access, name](const TrainConfig& config) { return json(name(access(const_cast<TrainConfig&>(config)))); };
    field.write = [access, parse](TrainConfig& config, const json& j) {
        std::string text;
        fromJson(j, text);
        try {
            access(config) = parse(text);
        } catch (const InputError& error) {
            throw InputError(std::string("is not valid: ") + error.what());
        }
    };
    return field;
}

template <typename Access>
ConfigField utility(std::string key, std::string help, Access access)
{
    ConfigField field;
    field.key = std::move(key);
    field.help = std::move(help);
    field.type = "onehot|tail:<c>|FILE.csv|FILE.json|{matrix}";
    field.read = [access](const TrainConfig& config) { return toJson(access(const_cast<TrainConfig&>(config))); };
    field.write = [access](TrainConfig& config, const json& j) { access(config) = utilitySettingFromJson(j, "the value"); };
    return field;
}

ConfigField when(ConfigField field, std::function<bool(const TrainConfig&)> written)
{
    field.written = std::move(written);
    return field;
}

// Which settings the data set's catalogue entry reads (an unknown name reads none).
DatasetSettings datasetSettings(const TrainConfig& config)
{
    const DatasetEntry* entry = findDataset(config.data.dataset);
    return entry ? entry->settings : DatasetSettings{};
}

bool isList(const TrainConfig& config)
{
    return datasetSettings(config).listFiles;
}

bool isSynthetic(const TrainConfig& config)
{
    return datasetSettings(config).synthetic;
}

// "fashion-mnist|mnist|...": the catalogue's names, so --help, the choices of --dataset and the
// completion list every registered data set.
std::string datasetChoices()
{
    std::string choices;
    for (const std::string& name : datasetNames()) {
        choices += (choices.empty() ? "" : "|") + name;
    }
    return choices;
}

using C = TrainConfig;

// The table in sections, one function each (the order here is the order of --help and config.json).
void addDataFields(std::vector<ConfigField>& f)
{
    f.push_back(named("data.dataset", "the data set or format", datasetChoices(), [](C& c) -> auto& { return c.data.dataset; },
                      [](const std::string& name) { return name; },
                      [](const std::string& text) { return datasetEntry(text).name; }));
    f.push_back(value("data.data_dir", "folder of the data set (empty: the data set's default location)",
                      [](C& c) -> auto& { return c.data.directory; }));
    f.push_back(when(value("data.train_list", "list data: the training list file (relative/path label lines)",
                           [](C& c) -> auto& { return c.data.trainList; }), isList));
    f.push_back(when(value("data.test_list", "list data: the test list file", [](C& c) -> auto& { return c.data.testList; }),
                     isList));
    f.push_back(when(value("data.val_list", "list data: a validation list file (instead of data.val_fraction)",
                           [](C& c) -> auto& { return c.data.validationList; }), isList));
    f.push_back(when(value("data.class_names", "list data: a file with one class name per line, in label order",
                           [](C& c) -> auto& { return c.data.classNamesFile; }), isList));
    f.push_back(named("data.profile", "long-tail profile (none: the data as given)", "none|exp|step|lbd-published",
                      [](C& c) -> auto& { return c.data.longTail.profile; }, profileName, parseProfile));
    f.push_back(value("data.imbalance_ratio", "rho = n_max / n_min of the long-tailed training split (1 keeps the data)",
                      [](C& c) -> auto& { return c.data.longTail.imbalanceRatio; }));
    f.push_back(value("data.seed", "seed of the long-tailed split (which images each class keeps)",
                      [](C& c) -> auto& { return c.data.longTail.seed; }));
    f.push_back(value("data.val_fraction", "share of each class's training images held out for validation (0: none)",
                      [](C& c) -> auto& { return c.data.longTail.validationFraction; }));
    f.push_back(value("data.caution_holdout",
                      "share of each class's training images held out (not trained on) to fit the out-of-distribution "
                      "caution, when there is no validation split and the long tail leaves no image out (0: none)",
                      [](C& c) -> auto& { return c.data.longTail.cautionHoldout; }));
    f.push_back(value("data.channels", "image folders and list files: 1 (grey), 3 (colour) or 0 (from the images: grey when they all are)",
                      [](C& c) -> auto& { return c.data.channels; }));
    f.push_back(value("data.image_size", "image folders and list files: images are resized to this square side",
                      [](C& c) -> auto& { return c.data.imageSize; }));
    f.push_back(value("data.held_out_fraction", "image folders without train/ and test/: the test share",
                      [](C& c) -> auto& { return c.data.heldOutFraction; }));
    const auto imageFiles = [](const C& c) { return datasetSettings(c).imageFormat; };
    f.push_back(when(named("data.alpha_background", "image folders and list files: what transparent pixels are composited on",
                           "white|black|grey|#rrggbb", [](C& c) -> auto& { return c.data.alphaBackground; }, alphaBackgroundName,
                           parseAlphaBackground),
                     [imageFiles](const C& c) { return imageFiles(c) || c.data.alphaBackground != kWhiteBackground; }));
    f.push_back(when(named("data.on_bad_file", "image folders and list files: an unreadable, empty or non-image file is left "
                                               "out and listed (skip) or stops the run (refuse)",
                           "skip|refuse", [](C& c) -> auto& { return c.data.onBadFile; }, badFilePolicyName, parseBadFilePolicy),
                     [imageFiles](const C& c) { return imageFiles(c) || c.data.onBadFile != BadFilePolicy::Skip; }));
    ConfigField memory = value("data.max_in_memory_mb", "user data larger than this is streamed from disk (MiB)",
                               [](C& c) -> auto& { return c.data.limits.maxInMemoryBytes; });
    memory.read = [](const C& c) { return json(c.data.limits.maxInMemoryBytes >> 20); };
    memory.write = [](C& c, const json& j) {
        int64_t megabytes = 0;
        fromJson(j, megabytes);
        if (megabytes < 1 || megabytes > (int64_t(1) << 30)) {
            throw InputError("must be between 1 and 2^30 MiB");
        }
        c.data.limits.maxInMemoryBytes = megabytes << 20;
    };
    f.push_back(memory);
    f.push_back(when(value("data.cache", "image folders and list files: off, or auto to read streamed images from a "
                                         "dataset cache built on first use",
                           [](C& c) -> auto& { return c.data.cache; }), [](const C& c) { return c.data.cache != "off"; }));
    f.push_back(when(value("data.cache_dir", "the dataset cache's folder (empty: 'cache' beside the runs folder)",
                           [](C& c) -> auto& { return c.data.cacheDirectory; }),
                     [](const C& c) { return !c.data.cacheDirectory.empty(); }));
    f.push_back(when(value("data.decode_threads", "threads decoding streamed images (0: every core)",
                           [](C& c) -> auto& { return c.data.decodeThreads; }), [](const C& c) { return c.data.decodeThreads != 0; }));
    f.push_back(when(value("data.synthetic.classes", "synthetic data: number of classes",
                           [](C& c) -> auto& { return c.data.synthetic.classes; }), isSynthetic));
    f.push_back(when(value("data.synthetic.train_per_class", "synthetic data: training images per class before the long tail",
                           [](C& c) -> auto& { return c.data.synthetic.trainPerClass; }), isSynthetic));
    f.push_back(when(value("data.synthetic.test_per_class", "synthetic data: test images per class",
                           [](C& c) -> auto& { return c.data.synthetic.testPerClass; }), isSynthetic));
    f.push_back(when(value("data.synthetic.channels", "synthetic data: 1 or 3 channels",
                           [](C& c) -> auto& { return c.data.synthetic.channels; }), isSynthetic));
    f.push_back(when(value("data.synthetic.size", "synthetic data: image side in pixels",
                           [](C& c) -> auto& { return c.data.synthetic.size; }), isSynthetic));
    f.push_back(when(value("data.synthetic.seed", "synthetic data: seed of the images (default: data.seed)",
                           [](C& c) -> auto& { return c.data.synthetic.seed; }), isSynthetic));
}

void addAugmentAndModelFields(std::vector<ConfigField>& f)
{
    f.push_back(value("augment.enabled", "augment training batches", [](C& c) -> auto& { return c.augment.enabled; }));
    f.push_back(value("augment.padding", "zero padding before the random crop, in pixels",
                      [](C& c) -> auto& { return c.augment.padding; }));
    f.push_back(value("augment.flip", "random horizontal flips", [](C& c) -> auto& { return c.augment.horizontalFlip; }));
    f.push_back(value("augment.rotation", "largest random rotation, in degrees (0: none)",
                      [](C& c) -> auto& { return c.augment.maxRotationDegrees; }));
    f.push_back(value("augment.output_size", "side of the network's input in pixels (smaller images are zero-padded)",
                      [](C& c) -> auto& { return c.augment.outputSize; }));
    f.push_back(value("augment.random_resized_crop",
                      "ImageNet's random resized crop (area and aspect ratio drawn, resized to output_size) instead of the padded crop",
                      [](C& c) -> auto& { return c.augment.randomResizedCrop; }));
    f.push_back(value("augment.crop_scale_min", "smallest area fraction of the random resized crop (0.08 as torchvision)",
                      [](C& c) -> auto& { return c.augment.cropScaleMin; }));
    f.push_back(value("augment.brightness", "colour jitter: brightness factor drawn from [1-x, 1+x] (0: off)",
                      [](C& c) -> auto& { return c.augment.brightness; }));
    f.push_back(value("augment.contrast", "colour jitter: contrast factor drawn from [1-x, 1+x] (0: off)",
                      [](C& c) -> auto& { return c.augment.contrast; }));
    f.push_back(value("augment.saturation", "colour jitter: saturation factor drawn from [1-x, 1+x] (0: off; colour images)",
                      [](C& c) -> auto& { return c.augment.saturation; }));

    f.push_back(value("model.arch", "particle network: resnet32, resnet50 or smallcnn", [](C& c) -> auto& { return c.model.arch; }));
    f.push_back(value("model.particles", "M, the number of particles (ensemble members)",
                      [](C& c) -> auto& { return c.model.particles; }));
    f.push_back(value("model.scale", "s of the cosine classifier (logits = s cos); also the LDAM margins' unit",
                      [](C& c) -> auto& { return c.model.cosineScale; }));
    // Written only when set: the config.json of every run from scratch stays as it was.
    f.push_back(when(value("model.init_from",
                           "start from these weights, not a random initialisation: a torchvision ResNet-50 state dict "
                           "(resnet50: stem and every particle's branch loaded, fc replaced) or an earlier run's weights.pt "
                           "or folder (empty: random)",
                           [](C& c) -> auto& { return c.model.initFrom; }),
                     [](const C& c) { return !c.model.initFrom.empty(); }));
}

void addObjectiveFields(std::vector<ConfigField>& f)
{
    f.push_back(named("objective.discrepancy", "discrepancy ratio f: w_c = 1/f(n_c)", "linear|effective|sqrt|log|constant|power",
                      [](C& c) -> auto& { return c.objective.discrepancy.kind; }, discrepancyKindName, parseDiscrepancyKind));
    f.push_back(named("objective.ratio_scale",
                      "scale of the class weights: published (only effective is rescaled, to sum to C) or as-linear "
                      "(every ratio sums like linear, so the utility term keeps its strength across ratios)",
                      "published|as-linear", [](C& c) -> auto& { return c.objective.discrepancy.scale; }, ratioScaleName,
                      parseRatioScale));
    f.push_back(value("objective.beta", "beta of the effective number (discrepancy effective)",
                      [](C& c) -> auto& { return c.objective.discrepancy.beta; }));
    f.push_back(value("objective.gamma", "gamma of f(n) = n^gamma (discrepancy power)",
                      [](C& c) -> auto& { return c.objective.discrepancy.gamma; }));
    f.push_back(value("objective.drw_epoch", "deferred re-weighting: w = 1 up to this epoch, w_c after (0: from the start)",
                      [](C& c) -> auto& { return c.objective.drwEpoch; }));
    f.push_back(value("objective.ldam_margins", "LDAM margins on the true-class logit while training",
                      [](C& c) -> auto& { return c.objective.ldamMargins; }));
    f.push_back(value("objective.max_margin", "LDAM margin of the rarest class", [](C& c) -> auto& { return c.objective.maxMargin; }));
    f.push_back(value("objective.logit_adjustment",
                      "logit-adjusted loss while training (Menon et al. 2021): softmax of z_k + tau log pi_k; tests use plain z",
                      [](C& c) -> auto& { return c.objective.logitAdjustment; }));
    f.push_back(value("objective.logit_adjust_tau", "tau of the logit-adjusted loss, in [0, 10] (1: Balanced Softmax)",
                      [](C& c) -> auto& { return c.objective.logitAdjustTau; }));
    f.push_back(value("objective.utility_term", "add the utility term (1/alpha) UT of the training utility",
                      [](C& c) -> auto& { return c.objective.utilityTerm; }));
    f.push_back(utility("objective.utility", "the TRAINING utility matrix (decisions use decision.utility)",
                        [](C& c) -> auto& { return c.objective.utility; }));
    f.push_back(named("objective.utility_form", "form of the utility term (bounded cannot run away)", "bounded|published|paper",
                      [](C& c) -> auto& { return c.objective.utilityForm; }, utilityFormName, parseUtilityForm));
    f.push_back(value("objective.alpha", "the utility term is weighted 1/alpha", [](C& c) -> auto& { return c.objective.alpha; }));
    f.push_back(value("objective.utility_after_drw_only", "apply the utility term only after the DRW epoch (published code)",
                      [](C& c) -> auto& { return c.objective.utilityAfterDrwOnly; }));
    f.push_back(value("objective.repulsive", "repulsive force between particles (M > 1)",
                      [](C& c) -> auto& { return c.objective.repulsive; }));
    f.push_back(value("objective.tau", "annealing a(e) = exp(-e/tau) of the repulsive force",
                      [](C& c) -> auto& { return c.objective.tau; }));
    f.push_back(value("objective.eps", "eps in log(Var + eps) of the repulsive term", [](C& c) -> auto& { return c.objective.eps; }));
}

void addOptimizerAndTrainingFields(std::vector<ConfigField>& f)
{
    f.push_back(value("optimizer.lr", "learning rate", [](C& c) -> auto& { return c.optimizer.learningRate; }));
    f.push_back(value("optimizer.momentum", "SGD momentum", [](C& c) -> auto& { return c.optimizer.momentum; }));
    f.push_back(value("optimizer.nesterov", "Nesterov momentum", [](C& c) -> auto& { return c.optimizer.nesterov; }));
    f.push_back(value("optimizer.weight_decay", "weight decay lambda", [](C& c) -> auto& { return c.optimizer.weightDecay; }));
    f.push_back(value("optimizer.warmup_epochs", "linear warm-up epochs", [](C& c) -> auto& { return c.optimizer.warmupEpochs; }));
    f.push_back(value("optimizer.decay_epochs", "the learning rate is multiplied by decay_factors after these epochs",
                      [](C& c) -> auto& { return c.optimizer.decayEpochs; }));
    f.push_back(value("optimizer.decay_factors", "factors of the learning rate after each decay epoch",
                      [](C& c) -> auto& { return c.optimizer.decayFactors; }));

    f.push_back(value("train.epochs", "epochs", [](C& c) -> auto& { return c.train.epochs; }));
    f.push_back(value("train.batch_size", "minibatch size", [](C& c) -> auto& { return c.train.batchSize; }));
    f.push_back(value("train.eval_every", "evaluate every K epochs (and after the last)", [](C& c) -> auto& { return c.train.evalEvery; }));
    f.push_back(value("train.checkpoint_every", "write a checkpoint every K epochs (and after the last)",
                      [](C& c) -> auto& { return c.train.checkpointEvery; }));
    f.push_back(value("train.device", "auto, cpu or cuda[:N]", [](C& c) -> auto& { return c.train.device; }));
    f.push_back(named("train.precision", "mixed precision on CUDA (ignored on the CPU)", "fp16|bf16|fp32",
                      [](C& c) -> auto& { return c.train.precision; }, precisionName, parsePrecision));
    f.push_back(value("train.channels_last", "channels-last memory layout on CUDA",
                      [](C& c) -> auto& { return c.train.channelsLast; }));
    f.push_back(value("train.cuda_graph", "capture the training step in a CUDA graph", [](C& c) -> auto& { return c.train.cudaGraph; }));
    f.push_back(value("train.sync_bn", "data-parallel runs: batch norm over the global batch (statistics summed over the ranks)",
                      [](C& c) -> auto& { return c.train.syncBatchNorm; }));
    f.push_back(value("train.seed", "seed of the initialisation, batch order and augmentation",
                      [](C& c) -> auto& { return c.train.seed; }));
    f.push_back(value("train.threads", "CPU threads (0: all cores)", [](C& c) -> auto& { return c.train.threads; }));
}

void addDecisionFields(std::vector<ConfigField>& f)
{
    f.push_back(utility("decision.utility", "the DECISION utility matrix of the run's evaluations",
                        [](C& c) -> auto& { return c.decision.utility; }));
    f.push_back(named("decision.rule", "decision rule", "expected|argmax|mean-logit|eq7",
                      [](C& c) -> auto& { return c.decision.rule; }, decisionRuleName, parseDecisionRule));
    f.push_back(value("decision.defer", "defer (reject) when the best expected utility is below this (null: never)",
                      [](C& c) -> auto& { return c.decision.deferUtility; }));
}

std::vector<ConfigField> makeFields()
{
    std::vector<ConfigField> f;
    f.push_back(value("name", "run name (the run folder is named after it)", [](C& c) -> auto& { return c.name; }));
    f.push_back(value("description", "what the preset or run is for", [](C& c) -> auto& { return c.description; }));
    f.push_back(named("protocol",
                      "the named protocol the settings follow (lbd-math.md section 8): paper-standard = one-hot training, "
                      "mean-logit decisions; paper-tail = tail:1 training, mean-logit; app = your own",
                      "app|paper-standard|paper-tail", [](C& c) -> auto& { return c.protocol; },
                      [](Protocol p) { return protocolName(p); }, [](const std::string& t) { return parseProtocol(t); }));
    for (const auto add : {addDataFields, addAugmentAndModelFields, addObjectiveFields, addOptimizerAndTrainingFields,
                           addDecisionFields}) {
        add(f);
    }
    return f;
}

} // namespace

const std::vector<ConfigField>& configFields()
{
    static const std::vector<ConfigField> fields = makeFields();
    return fields;
}

nlohmann::json parseConfigValue(const ConfigField& field, const std::string& text)
{
    const auto fail = [&](const std::string& what) {
        return InputError(field.key + ": '" + text + "' is not " + what);
    };
    const auto number = [&](const std::string& item) {
        size_t used = 0;
        double value = 0.0;
        try {
            value = std::stod(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (item.empty() || used != item.size() || !std::isfinite(value)) {
            throw fail("a finite number");
        }
        return value;
    };
    if (field.type == "number") {
        return number(text);
    }
    if (field.type == "number or null") {
        return text == "none" || text == "null" ? json(nullptr) : json(number(text));
    }
    if (field.type == "integer") {
        size_t used = 0;
        long long value = 0;
        try {
            value = std::stoll(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (text.empty() || used != text.size()) {
            throw fail("an integer");
        }
        return json(static_cast<int64_t>(value));
    }
    if (field.type == "true|false") {
        if (text != "true" && text != "false") {
            throw fail("true or false");
        }
        return json(text == "true");
    }
    if (field.type == "list of numbers") {
        json list = json::array();
        size_t begin = 0;
        while (begin <= text.size() && !text.empty()) {
            const size_t comma = text.find(',', begin);
            const std::string item = text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
            const double value = number(item);
            list.push_back(value == std::floor(value) && std::abs(value) < 1e15 ? json(static_cast<int64_t>(value))
                                                                                 : json(value));
            if (comma == std::string::npos) {
                break;
            }
            begin = comma + 1;
        }
        return list;
    }
    return json(text);
}

const ConfigField* findConfigField(const std::string& key)
{
    for (const ConfigField& field : configFields()) {
        if (field.key == key) {
            return &field;
        }
    }
    return nullptr;
}

} // namespace lbd
