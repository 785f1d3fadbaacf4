#pragma once
// `lbd export RUN --onnx FILE`: a run's ensemble as an ONNX model (onnxparticlegraph.h says what
// the graph computes; opset 11, read by OpenCV 4.6's DNN module and checked by onnx.checker in
// tests/core/test_onnxexport.cpp). Plain std types only.
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

class ParticleModelImpl;

struct OnnxExportSummary {
    std::string file;
    int epoch = 0; // of the checkpoint exported
    std::string arch;
    int64_t particles = 0;
    int64_t classes = 0;
    int64_t channels = 0;
    int64_t inputSize = 0;
    int64_t opset = 0;
    int64_t nodes = 0;
    int64_t bytes = 0;
    std::string usage; // how to feed the model, also the model's doc_string
};

// Loads the run's last checkpoint on the CPU and writes `outFile` atomically. Throws InputError
// naming the run or the file, or the architecture when it cannot be exported.
OnnxExportSummary exportRunAsOnnx(const std::string& runDir, const std::string& outFile);

// The same for a model held in memory (evaluation-mode weights), with the run's normalisation
// (per channel, in 0..1 pixel units) and class names.
OnnxExportSummary writeParticleModelOnnx(const std::string& outFile, ParticleModelImpl& model, const std::vector<float>& mean,
                                         const std::vector<float>& stdev, const std::vector<std::string>& classNames);

} // namespace lbd
