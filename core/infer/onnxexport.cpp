#include "core/infer/onnxexport.h"

#include "core/infer/loadedrun.h"
#include "core/infer/onnxparticlegraph.h"
#include "core/util/atomicfile.h"
#include "core/util/buildinfo.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace lbd {

namespace {

std::string listOf(const std::vector<float>& values)
{
    std::ostringstream out;
    out.precision(9);
    for (size_t i = 0; i < values.size(); ++i) {
        out << (i ? ", " : "") << values[i];
    }
    return "[" + out.str() + "]";
}

std::string usageText(const ModelSpec& spec, const std::vector<float>& mean, const std::vector<float>& stdev)
{
    const std::string s = std::to_string(spec.inputSize);
    return "LBD Studio particle ensemble (" + spec.arch + ", M = " + std::to_string(spec.particles) + ", "
        + std::to_string(spec.numClasses) + " classes). Input \"image\": float32 [N, " + std::to_string(spec.inputChannels) + ", "
        + s + ", " + s + "], pixels / 255 in 0..1 (grey or RGB as lbd reads the images), centred on the " + s + " x " + s
        + " canvas as lbd does (zero padding, or a centre crop; lbd_studio.preprocess with mean 0 and std 1 gives it); "
          "do not normalise: the graph applies the run's mean " + listOf(mean) + " and std "
        + listOf(stdev) + " itself. Outputs: \"probabilities\" float32 [N, " + std::to_string(spec.particles) + ", "
        + std::to_string(spec.numClasses) + "] (every particle's softmax) and \"mean_probabilities\" [N, "
        + std::to_string(spec.numClasses) + "] (their mean, p-bar). Class names: metadata \"class_names\".";
}

} // namespace

OnnxExportSummary writeParticleModelOnnx(const std::string& outFile, ParticleModelImpl& model, const std::vector<float>& mean,
                                         const std::vector<float>& stdev, const std::vector<std::string>& classNames)
{
    if (outFile.empty()) {
        throw InputError("no output file given for the ONNX model");
    }
    model.eval();
    const OnnxGraph graph = buildParticleOnnxGraph(model, mean, stdev);
    const ModelSpec& spec = model.spec();
    OnnxModelInfo info;
    info.producerVersion = buildInfo().lbdVersion;
    info.docString = usageText(spec, mean, stdev);
    info.metadata = {{"class_names", nlohmann::json(classNames).dump()},
                     {"arch", spec.arch},
                     {"particles", std::to_string(spec.particles)},
                     {"input_size", std::to_string(spec.inputSize)},
                     {"normalization_mean", nlohmann::json(mean).dump()},
                     {"normalization_std", nlohmann::json(stdev).dump()}};
    const std::string bytes = graph.serialize(info);
    writeFileAtomically(outFile, bytes);

    OnnxExportSummary summary;
    summary.file = outFile;
    summary.arch = spec.arch;
    summary.particles = spec.particles;
    summary.classes = spec.numClasses;
    summary.channels = spec.inputChannels;
    summary.inputSize = spec.inputSize;
    summary.opset = info.opset;
    summary.nodes = graph.nodeCount();
    summary.bytes = static_cast<int64_t>(bytes.size());
    summary.usage = info.docString;
    return summary;
}

OnnxExportSummary exportRunAsOnnx(const std::string& runDir, const std::string& outFile)
{
    if (outFile.empty()) {
        throw InputError("no output file given for the ONNX model");
    }
    LoadedRun run = loadRun(runDir, torch::kCPU);
    OnnxExportSummary summary = writeParticleModelOnnx(outFile, *run.model, run.manifest.normalization.mean,
                                                       run.manifest.normalization.std, run.manifest.classNames);
    summary.epoch = run.epoch;
    return summary;
}

} // namespace lbd
