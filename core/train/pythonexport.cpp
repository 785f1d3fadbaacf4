#include "core/train/pythonexport.h"

#include "core/util/error.h"
#include "core/util/torchsavearchive.h"

#include <algorithm>
#include <cmath>
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

int64_t probabilityFileLimit(int64_t particles, int64_t images, const std::vector<std::string>& classNames)
{
    const int64_t classes = static_cast<int64_t>(classNames.size());
    int64_t limit = kProbabilityFileAllowance;
    for (const std::string& name : classNames) {
        limit += static_cast<int64_t>(name.size()) + 16;
    }
    int64_t tensors = 0;
    if (particles < 0 || images < 0 || __builtin_mul_overflow(particles, images, &tensors)
        || __builtin_mul_overflow(tensors, classes * 4, &tensors) || __builtin_add_overflow(tensors, images * 8, &tensors)
        || __builtin_add_overflow(limit, tensors, &limit)) {
        return kMaxTensorFileBytes;
    }
    return std::min(limit, kMaxTensorFileBytes);
}

namespace {

// What softmax in float32 can produce: finite values in [0, 1], each particle's row summing to 1
// (to float rounding over up to 100,000 classes). A file edited to hold NaN or 7.5 would
// otherwise flow into every metric as NaN.
void checkProbabilityValues(const torch::Tensor& probabilities, const std::string& path)
{
    const torch::Tensor p = probabilities.to(torch::kFloat64);
    if (!torch::isfinite(p).all().item<bool>() || (p < 0).any().item<bool>() || (p > 1).any().item<bool>()) {
        throw InputError(path + ": field probabilities holds values outside [0, 1] (or not finite), which no run writes");
    }
    if (p.numel() > 0) {
        const torch::Tensor sums = p.sum(-1).flatten();
        const double worst = sums[(sums - 1.0).abs().argmax()].item<double>();
        if (std::abs(worst - 1.0) > 1e-2) {
            throw InputError(path + ": field probabilities holds a row summing to " + std::to_string(worst)
                             + ", not 1 as a softmax does");
        }
    }
}

} // namespace

TestProbabilities loadTestProbabilities(const std::string& path, int64_t maxBytes)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        throw InputError(path + ": file not found (was the run finished?)");
    }
    const c10::IValue value = readTorchSaveFile(path, "a test-probabilities file", maxBytes);
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
    if (!result.probabilities.is_floating_point() || result.labels.is_floating_point()) {
        throw InputError(path + ": field probabilities must hold floats and field labels integers");
    }
    checkProbabilityValues(result.probabilities, path);
    return result;
}

TestProbabilities loadRunProbabilities(const std::string& path, int64_t particles, int64_t images,
                                       const std::vector<std::string>& classNames)
{
    const int64_t limit = probabilityFileLimit(particles, images, classNames);
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && static_cast<int64_t>(size) > limit) {
        throw InputError(path + ": " + std::to_string(size) + " bytes, more than the " + std::to_string(limit)
                         + " its run allows (" + std::to_string(particles) + " particles x " + std::to_string(images)
                         + " images x " + std::to_string(classNames.size())
                         + " classes, and " + std::to_string(kProbabilityFileAllowance >> 20)
                         + " MiB for headers): not this run's file; not read");
    }
    return loadTestProbabilities(path, limit);
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
