#include "core/train/pythonexport.h"

#include "core/util/error.h"
#include "core/util/torchsavearchive.h"

#include <filesystem>

namespace lbd {

void saveTestProbabilities(const std::string& path, const torch::Tensor& probabilities, const torch::Tensor& labels,
                           const std::vector<std::string>& classNames)
{
    TorchSaveArchive archive;
    PickleValue root = PickleValue::dict({});
    root.insert("probabilities", archive.add(probabilities.to(torch::kFloat32)));
    root.insert("labels", archive.add(labels.to(torch::kInt64)));
    root.insert("class_names", PickleValue::stringList(classNames));
    archive.write(path, root);
}

TestProbabilities loadTestProbabilities(const std::string& path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        throw InputError(path + ": file not found (was the run finished?)");
    }
    const c10::IValue value = readTorchSaveFile(path, "a test-probabilities file");
    TestProbabilities result;
    try {
        const auto dict = value.toGenericDict();
        result.probabilities = dict.at("probabilities").toTensor();
        result.labels = dict.at("labels").toTensor();
        for (const auto& name : dict.at("class_names").toListRef()) {
            result.classNames.push_back(name.toStringRef());
        }
    } catch (const c10::Error& error) {
        throw InputError(path + ": not a test-probabilities file (" + std::string(error.what_without_backtrace()) + ")");
    }
    if (result.probabilities.dim() != 3 || result.labels.dim() != 1 || result.probabilities.size(1) != result.labels.size(0)) {
        throw InputError(path + ": probabilities and labels do not fit together");
    }
    return result;
}

void exportPythonWeights(const std::string& path, torch::nn::Module& model, const std::vector<std::string>& classNames,
                         const ModelSpec& spec, const Normalization& normalization)
{
    TorchSaveArchive archive;
    PickleValue state = PickleValue::dict({});
    for (const auto& item : model.named_parameters()) {
        state.insert(item.key(), archive.add(item.value()));
    }
    for (const auto& item : model.named_buffers()) {
        state.insert(item.key(), archive.add(item.value()));
    }
    PickleValue root = PickleValue::dict({});
    root.insert("state_dict", std::move(state));
    root.insert("class_names", PickleValue::stringList(classNames));
    root.insert("arch", PickleValue::string(spec.arch));
    root.insert("particles", PickleValue::integer(spec.particles));
    root.insert("input_channels", PickleValue::integer(spec.inputChannels));
    root.insert("input_size", PickleValue::integer(spec.inputSize));
    root.insert("cosine_scale", archive.add(torch::tensor(spec.cosineScale, torch::kFloat64)));
    root.insert("normalization_mean", archive.add(torch::tensor(normalization.mean)));
    root.insert("normalization_std", archive.add(torch::tensor(normalization.std)));
    archive.write(path, root);
}

} // namespace lbd
