#include "core/train/pythonexport.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"

#include <fstream>
#include <iterator>

namespace lbd {
namespace {

void writePickle(const std::string& path, const c10::IValue& value)
{
    const std::vector<char> bytes = torch::pickle_save(value);
    writeFileAtomically(path, std::string(bytes.begin(), bytes.end()));
}

c10::List<std::string> nameList(const std::vector<std::string>& names)
{
    c10::List<std::string> list;
    for (const auto& name : names) {
        list.push_back(name);
    }
    return list;
}

} // namespace

void saveTestProbabilities(const std::string& path, const torch::Tensor& probabilities, const torch::Tensor& labels,
                           const std::vector<std::string>& classNames)
{
    c10::impl::GenericDict dict(c10::StringType::get(), c10::AnyType::get());
    dict.insert("probabilities", probabilities.to(torch::kFloat32).cpu().contiguous());
    dict.insert("labels", labels.to(torch::kInt64).cpu().contiguous());
    dict.insert("class_names", nameList(classNames));
    writePickle(path, dict);
}

TestProbabilities loadTestProbabilities(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw InputError(path + ": file not found (was the run finished?)");
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    TestProbabilities result;
    try {
        const c10::IValue value = torch::pickle_load(bytes);
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
    c10::Dict<std::string, torch::Tensor> state;
    for (const auto& item : model.named_parameters()) {
        state.insert(item.key(), item.value().detach().cpu().clone());
    }
    for (const auto& item : model.named_buffers()) {
        state.insert(item.key(), item.value().detach().cpu().clone());
    }
    c10::impl::GenericDict dict(c10::StringType::get(), c10::AnyType::get());
    dict.insert("state_dict", state);
    dict.insert("class_names", nameList(classNames));
    dict.insert("arch", spec.arch);
    dict.insert("particles", spec.particles);
    dict.insert("input_channels", spec.inputChannels);
    dict.insert("input_size", spec.inputSize);
    dict.insert("cosine_scale", spec.cosineScale);
    dict.insert("normalization_mean", torch::tensor(normalization.mean));
    dict.insert("normalization_std", torch::tensor(normalization.std));
    writePickle(path, dict);
}

} // namespace lbd
