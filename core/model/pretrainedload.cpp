#include "core/model/pretrainedload.h"

#include "core/model/modelfactory.h"
#include "core/model/particleresnet50.h"
#include "core/util/archivecheck.h"
#include "core/util/error.h"
#include "core/util/torchsavearchive.h"

#include <caffe2/serialize/inline_container.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>

namespace lbd {
namespace {

// Far above ResNet-50's 100 MB (a ResNet-152 is 240 MB): a larger file is not a network we load.
constexpr int64_t kMaxInitFileBytes = int64_t(2) << 30;

std::string shapeText(const std::vector<int64_t>& sizes)
{
    std::string text = "[";
    for (size_t d = 0; d < sizes.size(); ++d) {
        text += (d ? ", " : "") + std::to_string(sizes[d]);
    }
    return text + "]";
}

bool endsWith(const std::string& text, const std::string& tail)
{
    return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// What a file holds, as read: the tensors under their names, and an LBD run's metadata.
struct Source {
    std::string file;
    bool torchvision = false;
    std::vector<std::pair<std::string, PickledTensor>> tensors; // in the file's order
    std::string arch;                                          // LBD runs only
    int64_t particles = 0;
    std::vector<std::string> classNames;
    // A run's checkpoint.pt (a LibTorch archive, not a pickle): its tensors, read whole.
    std::map<std::string, torch::Tensor> loaded;

    const PickledTensor* find(const std::string& key) const
    {
        for (const auto& [name, tensor] : tensors) {
            if (name == key) {
                return &tensor;
            }
        }
        return nullptr;
    }
};

std::string resolveFile(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        // A run folder (core/train/runfolder.h names the file; the model layer only reads it).
        // An unfinished run has only its checkpoint: its last epoch's weights.
        for (const char* name : {"weights.pt", "checkpoint.pt"}) {
            const std::string file = (std::filesystem::path(path) / name).string();
            if (std::filesystem::is_regular_file(file, ec)) {
                return file;
            }
        }
        throw InputError(path + ": a folder without weights.pt or checkpoint.pt (not an LBD run?)");
    }
    return path;
}

std::vector<std::pair<std::string, PickledTensor>> tensorsOf(const PickleValue& dict, const std::string& file)
{
    std::vector<std::pair<std::string, PickledTensor>> tensors;
    for (const auto& [name, value] : dict.entries()) {
        if (value.kind() != PickleValue::Kind::Tensor) {
            throw InputError(file + ": " + name + " is a " + PickleValue::kindName(value.kind()) + ", not a tensor (not a state dict)");
        }
        tensors.emplace_back(name, value.asTensor());
    }
    // DataParallel saves every key under "module.": one network all the same.
    const bool wrapped = !tensors.empty() && std::all_of(tensors.begin(), tensors.end(), [](const auto& t) {
        return t.first.rfind("module.", 0) == 0;
    });
    if (wrapped) {
        for (auto& t : tensors) {
            t.first.erase(0, 7);
        }
    }
    return tensors;
}

Source readSource(const TorchSaveReader& reader, const std::string& file)
{
    Source source;
    source.file = file;
    const PickleValue& root = reader.root();
    try {
        if (root.kind() != PickleValue::Kind::Dict) {
            throw InputError(file + ": holds a " + std::string(PickleValue::kindName(root.kind())) + ", not a state dict");
        }
        const PickleValue* nested = root.find("state_dict");
        if (nested && root.find("arch")) { // weights.pt of an LBD run (core/train/pythonexport.h)
            source.tensors = tensorsOf(*nested, file);
            source.arch = root.find("arch")->asString();
            source.particles = root.find("particles") ? root.find("particles")->asInt() : 0;
            if (const PickleValue* names = root.find("class_names")) {
                for (const auto& name : names->items()) {
                    source.classNames.push_back(name.asString());
                }
            }
            return source;
        }
        source.tensors = tensorsOf(nested ? *nested : root, file);
    } catch (const std::invalid_argument& error) {
        throw InputError(file + ": not a state dict (" + error.what() + ")");
    }
    source.torchvision = source.find("layer1.0.conv1.weight") || source.find("fc.weight");
    if (!source.torchvision && !source.find("head.weight")) {
        throw InputError(file + ": neither a torchvision ResNet state dict (conv1.weight, layer1.0.conv1.weight, ..., fc.weight) "
                         "nor an LBD run's weights (head.weight)");
    }
    return source;
}

// Whether `file` is a LibTorch archive (what saveCheckpoint writes: TorchScript's layout with
// constants.pkl), which our unpickler does not read and torch::serialize::InputArchive does.
bool isLibTorchArchive(const std::string& file)
{
    try {
        caffe2::serialize::PyTorchStreamReader zip(file);
        return zip.hasRecord("constants.pkl");
    } catch (const c10::Error&) {
        return false; // not a zip: TorchSaveReader says so, naming the file
    }
}

// A run's checkpoint.pt (core/train/checkpoint.h): param/<key> and buffer/<key>, the config it
// was trained with, and the class names from the run's run.json beside it.
Source readCheckpoint(const std::string& file)
{
    Source source;
    source.file = file;
    checkTorchArchive(file, "an LBD checkpoint", kMaxInitFileBytes, ArchiveLayout::LibTorchModule);
    try {
        torch::serialize::InputArchive archive;
        archive.load_from(file);
        for (const std::string& key : archive.keys()) {
            const bool buffer = key.rfind("buffer/", 0) == 0;
            if (!buffer && key.rfind("param/", 0) != 0) {
                continue; // the optimiser's momentum, the epoch, the history
            }
            torch::Tensor tensor;
            archive.read(key, tensor, buffer);
            const std::string name = key.substr(key.find('/') + 1);
            PickledTensor shape;
            shape.sizes = tensor.sizes().vec();
            source.tensors.emplace_back(name, shape);
            source.loaded[name] = tensor;
        }
        c10::IValue config;
        if (archive.try_read("config", config) && config.isString()) {
            const nlohmann::json model = nlohmann::json::parse(config.toStringRef()).value("model", nlohmann::json::object());
            source.arch = model.value("arch", std::string());
            source.particles = model.value("particles", int64_t(0));
        }
    } catch (const c10::Error& error) {
        throw InputError(file + ": not an LBD checkpoint (" + error.what_without_backtrace() + ")");
    } catch (const nlohmann::json::exception& error) {
        throw InputError(file + ": its config is not readable JSON (" + error.what() + ")");
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& error) { // TorchScript's ErrorReport is not a c10::Error
        throw InputError(file + ": not an LBD checkpoint (" + error.what() + ")");
    }
    std::ifstream manifest(std::filesystem::path(file).parent_path() / "run.json");
    const nlohmann::json run = nlohmann::json::parse(manifest, nullptr, false);
    if (run.is_object() && run.contains("class_names") && run["class_names"].is_array()) {
        for (const auto& name : run["class_names"]) {
            source.classNames.push_back(name.is_string() ? name.get<std::string>() : std::string());
        }
    }
    if (!source.find("head.weight")) {
        throw InputError(file + ": a LibTorch archive without the weights of an LBD run (no param/head.weight)");
    }
    return source;
}

// The torchvision name of an LBD ResNet-50 key: layer3.1.conv2.conv.weight <- layer3.1.conv2.weight,
// layer3.1.conv2.bn.running_var <- layer3.1.bn2.running_var, ...downsample.conv.weight <-
// ...downsample.0.weight, ...downsample.bn.bias <- ...downsample.1.bias. Empty for the classifier.
std::string torchvisionKey(const std::string& key)
{
    if (key.rfind("head.", 0) == 0) {
        return {};
    }
    static const std::regex block(R"(^(layer\d+\.\d+)\.(conv([123])|downsample)\.(conv|bn)\.(\w+)$)");
    std::smatch m;
    if (!std::regex_match(key, m, block)) {
        return key; // conv1.weight, bn1.*
    }
    const bool conv = m[4] == "conv";
    if (m[2] == "downsample") {
        return m[1].str() + ".downsample." + (conv ? "0." : "1.") + m[5].str();
    }
    return m[1].str() + "." + (conv ? "conv" : "bn") + m[3].str() + "." + m[5].str();
}

// How one file tensor becomes one model tensor.
enum class Fit { Same, Tiled, ChannelsSummed, ChannelsRepeated };

struct Planned {
    std::string key;       // the model's
    std::string sourceKey; // the file's
    Fit fit = Fit::Same;
    torch::Tensor target;
};

// Nothing when the shapes do not fit.
std::optional<Fit> fitOf(const std::vector<int64_t>& from, const torch::Tensor& target, const std::string& key, bool perParticle,
          int64_t particles)
{
    const std::vector<int64_t> to = target.sizes().vec();
    if (from == to) {
        return Fit::Same;
    }
    if (perParticle && particles > 1 && !from.empty() && from.size() == to.size() && to[0] == particles * from[0]
        && std::equal(from.begin() + 1, from.end(), to.begin() + 1)) {
        return Fit::Tiled;
    }
    if (key == "conv1.weight" && from.size() == 4 && to.size() == 4 && from[0] == to[0] && from[2] == to[2] && from[3] == to[3]) {
        if (from[1] == 3 && to[1] == 1) {
            return Fit::ChannelsSummed;
        }
        if (from[1] == 1 && to[1] == 3) {
            return Fit::ChannelsRepeated;
        }
    }
    return std::nullopt;
}

// The per-particle stage names of a ResNet-50 ("layer3.", "layer4.").
std::vector<std::string> particleStages(ParticleModelImpl& model)
{
    auto* resnet = dynamic_cast<ParticleResNetImpl<ParticleBottleneck>*>(&model);
    if (!resnet) {
        return {};
    }
    std::vector<std::string> stages;
    for (size_t s = resnet->layout().firstParticleStage; s < resnet->layout().blocks.size(); ++s) {
        stages.push_back("layer" + std::to_string(s + 1) + ".");
    }
    return stages;
}

void checkLbdRun(const Source& source, const ModelSpec& spec)
{
    if (!source.arch.empty() && source.arch != spec.arch) {
        throw InputError(source.file + ": weights of an LBD " + source.arch + " run; model.arch is " + spec.arch
                         + " (set model.arch to " + source.arch + " to fine-tune them)");
    }
    if (source.particles > 0 && source.particles != spec.particles) {
        throw InputError(source.file + ": weights of an LBD run with " + std::to_string(source.particles)
                         + " particles; model.particles is " + std::to_string(spec.particles) + " (set it to "
                         + std::to_string(source.particles) + " to fine-tune them)");
    }
}

// Every model key's source and fit, and the file's keys nothing reads; throws on the first problem.
std::vector<Planned> plan(const Source& source, ParticleModelImpl& model, std::set<std::string>& used)
{
    const std::vector<std::string> stages = particleStages(model);
    std::vector<Planned> planned;
    std::vector<std::pair<std::string, torch::Tensor>> targets;
    for (const auto& p : model.named_parameters()) {
        targets.emplace_back(p.key(), p.value());
    }
    for (const auto& b : model.named_buffers()) {
        targets.emplace_back(b.key(), b.value());
    }
    for (const auto& [key, target] : targets) {
        const std::string sourceKey = source.torchvision ? torchvisionKey(key) : key;
        if (key.rfind("head.", 0) == 0) {
            continue; // the classifier: loadInitialWeights decides
        }
        const bool perParticle = source.torchvision
            && std::any_of(stages.begin(), stages.end(), [&](const std::string& s) { return key.rfind(s, 0) == 0; });
        // A per-particle tensor is stated per particle: the shape the file would need.
        std::vector<int64_t> wanted = target.sizes().vec();
        if (perParticle && !wanted.empty()) {
            wanted[0] /= model.particleCount();
        }
        const std::string needs = shapeText(wanted) + (perParticle ? " (per particle)" : "");
        const PickledTensor* tensor = source.find(sourceKey);
        if (!tensor) {
            if (endsWith(key, "num_batches_tracked")) {
                continue; // only used with momentum None, which we never use
            }
            throw InputError(source.file + ": key " + sourceKey + " is missing (the model's " + key + " needs " + needs + ")");
        }
        const std::optional<Fit> fit = fitOf(tensor->sizes, target, key, perParticle, model.particleCount());
        if (!fit) {
            throw InputError(source.file + ": key " + sourceKey + " has shape " + shapeText(tensor->sizes) + " in the file, the model's "
                             + key + " needs " + needs);
        }
        Planned p{key, sourceKey, *fit, target};
        used.insert(sourceKey);
        planned.push_back(std::move(p));
    }
    for (const auto& [name, tensor] : source.tensors) {
        const bool ignorable = source.torchvision ? (name.rfind("fc.", 0) == 0 || endsWith(name, "num_batches_tracked"))
                                                  : name.rfind("head.", 0) == 0;
        if (!used.count(name) && !ignorable) {
            throw InputError(source.file + ": key " + name + " " + shapeText(tensor.sizes) + " has no place in the model ("
                             + model.spec().arch + (source.torchvision ? ": not a torchvision ResNet-50?" : "") + ")");
        }
    }
    return planned;
}

torch::Tensor sourceTensor(const TorchSaveReader* reader, const Source& source, const std::string& key)
{
    const auto it = source.loaded.find(key);
    return it != source.loaded.end() ? it->second : reader->tensor(*source.find(key), key);
}

void copyPlanned(const TorchSaveReader* reader, const Source& source, const std::vector<Planned>& planned, int64_t particles)
{
    torch::NoGradGuard noGrad;
    for (const Planned& p : planned) {
        torch::Tensor value = sourceTensor(reader, source, p.sourceKey);
        switch (p.fit) {
        case Fit::Same: break;
        case Fit::Tiled: {
            std::vector<int64_t> repeats(static_cast<size_t>(value.dim()), 1);
            repeats[0] = particles;
            value = value.repeat(repeats);
            break;
        }
        case Fit::ChannelsSummed: value = value.sum(1, true); break;
        case Fit::ChannelsRepeated: value = value.repeat({1, 3, 1, 1}) / 3.0; break;
        }
        auto target = p.target;
        target.copy_(value.to(target.dtype()));
    }
}

bool sameClasses(const Source& source, const std::vector<std::string>& classNames, const torch::Tensor& head)
{
    const PickledTensor* weight = source.find("head.weight");
    return weight && weight->sizes == head.sizes().vec() && !classNames.empty() && source.classNames == classNames;
}

// `particles`: the count to state (checkInitialWeights may check with fewer).
void describe(InitialWeightsReport& report, const Source& source, const std::vector<Planned>& planned, ParticleModelImpl& model,
              int64_t particles)
{
    const std::string m = std::to_string(particles);
    int64_t shared = 0, tiled = 0;
    for (const Planned& p : planned) {
        (p.fit == Fit::Tiled ? tiled : shared) += 1;
        if (p.fit == Fit::ChannelsSummed) {
            report.lines.push_back("conv1.weight: the file's 3 input channels summed into the model's 1 (grey images), the usual "
                                   "practice");
        } else if (p.fit == Fit::ChannelsRepeated) {
            report.lines.push_back("conv1.weight: the file's 1 input channel repeated over the model's 3, divided by 3");
        }
    }
    if (source.torchvision) {
        const std::vector<std::string> stages = particleStages(model);
        std::string names;
        for (const auto& s : stages) {
            names += (names.empty() ? "" : ", ") + s.substr(0, s.size() - 1);
        }
        report.lines.push_back(std::to_string(shared) + " tensors into the shared stem and trunk (conv1, bn1 and the stages "
                               "before " + (stages.empty() ? "the particles" : stages.front().substr(0, stages.front().size() - 1)) + ")");
        report.lines.push_back(std::to_string(tiled) + " tensors of " + names + " copied into each of the " + m + " particles");
        report.lines.push_back("names: layerS.B.convK.* -> layerS.B.convK.conv.*, layerS.B.bnK.* -> layerS.B.convK.bn.*, "
                               "downsample.0/.1 -> downsample.conv/.bn, conv1 and bn1 as they are");
        const PickledTensor* fc = source.find("fc.weight");
        report.lines.push_back(std::string(fc ? "fc.weight " + shapeText(fc->sizes) + " and fc.bias" : "fc (absent)")
                               + " not loaded: replaced by the cosine classifier head.weight "
                               + shapeText({particles, model.numClasses(), model.featureDim()}) + ", randomly initialised");
    } else {
        report.lines.push_back(std::to_string(shared) + " tensors loaded, every layer below the classifier");
    }
}

InitialWeightsReport apply(const std::string& path, ParticleModelImpl& model, const std::vector<std::string>& classNames, bool copy,
                           int64_t statedParticles)
{
    const std::string file = resolveFile(path);
    std::unique_ptr<TorchSaveReader> reader;
    Source source;
    if (isLibTorchArchive(file)) {
        source = readCheckpoint(file);
    } else {
        reader = std::make_unique<TorchSaveReader>(
            file, "a state dict (torch.save of a model's state_dict(), or an LBD run's weights.pt)", kMaxInitFileBytes);
        source = readSource(*reader, file);
    }
    const ModelSpec& spec = model.spec();
    InitialWeightsReport report;
    report.file = file;
    if (source.torchvision) {
        if (spec.arch != "resnet50") {
            throw InputError(file + ": a torchvision ResNet state dict loads into model.arch resnet50 only (model.arch is "
                             + spec.arch + ")");
        }
        report.kind = "a torchvision ResNet-50 state dict (" + std::to_string(source.tensors.size()) + " keys)";
    } else {
        checkLbdRun(source, spec);
        report.kind = std::string(source.loaded.empty() ? "an LBD run's weights (" : "an LBD run's checkpoint (")
                      + (source.arch.empty() ? spec.arch : source.arch) + ", "
                      + std::to_string(source.classNames.size()) + " classes)";
    }
    std::set<std::string> used;
    const std::vector<Planned> planned = plan(source, model, used);
    const bool keepHead = !source.torchvision && sameClasses(source, classNames, model.classifierWeights());
    if (copy) {
        copyPlanned(reader.get(), source, planned, model.particleCount());
        if (keepHead) {
            torch::NoGradGuard noGrad;
            auto head = model.classifierWeights();
            head.copy_(sourceTensor(reader.get(), source, "head.weight"));
        }
    }
    describe(report, source, planned, model, statedParticles);
    if (!source.torchvision) {
        report.lines.push_back(keepHead ? "head.weight loaded too: the file's classes are this data's"
                                        : "head.weight re-initialised: the file's " + std::to_string(source.classNames.size())
                                              + " classes are not this data's " + std::to_string(classNames.size()));
    }
    report.tensorsLoaded = static_cast<int64_t>(planned.size()) + (keepHead ? 1 : 0);
    return report;
}

} // namespace

InitialWeightsReport loadInitialWeights(const std::string& path, ParticleModelImpl& model,
                                        const std::vector<std::string>& classNames)
{
    return apply(path, model, classNames, true, model.particleCount());
}

InitialWeightsReport checkInitialWeights(const std::string& path, const ModelSpec& spec,
                                         const std::vector<std::string>& classNames)
{
    // A torchvision file fits M particles exactly when it fits two (each per-particle tensor is the
    // file's tensor M times over): the check builds two, not M ResNet-50 branches (32 would be
    // 3 GB and many seconds on the GUI thread).
    ModelSpec built = spec;
    if (spec.arch == "resnet50" && spec.particles > 2 && !isLibTorchArchive(resolveFile(path))) {
        const TorchSaveReader reader(resolveFile(path), "a state dict", kMaxInitFileBytes);
        if (readSource(reader, resolveFile(path)).torchvision) {
            built.particles = 2;
        }
    }
    ParticleModel model = makeParticleModel(built);
    return apply(path, *model, classNames, false, spec.particles);
}

} // namespace lbd
