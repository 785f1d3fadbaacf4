#pragma once
// The ONNX graph of a particle model in evaluation mode (`lbd export --onnx`), built by walking
// its modules (smallcnn, resnet32, resnet50). What the graph computes:
//   input  "image"               float [N, C, S, S]: pixels / 255 (0..1), channels as lbd reads
//                                images, centred on S x S as lbd does; the run's normalisation is the graph's
//                                first node (x * (1/std) - mean/std per channel, a depthwise 1x1 Conv);
//   output "probabilities"       float [N, M, K]: every particle's softmax;
//   output "mean_probabilities"  float [N, K]: their mean over the M particles (p-bar).
// Every op is one OpenCV 4.6's DNN module reads and runs at opset 11 (Conv with groups, Relu, Add,
// Mul, MaxPool, GlobalAveragePool, Sqrt, Div, Reshape, Softmax, ReduceMean): batch norm is folded into
// the convolutions, the option-A shortcut (subsample + zero channels) and the tiling of a shared
// trunk are 1x1 convolutions with 0/1 weights, and the cosine classifier's L2 normalisation is
// grouped 1x1 convolutions (dot products with the scaled unit class vectors; sums of squared
// features), a Sqrt and a Div.
#include "core/infer/onnxgraph.h"

#include <string>
#include <vector>

namespace lbd {

class ParticleModelImpl;

inline constexpr const char* kOnnxInputName = "image";
inline constexpr const char* kOnnxProbabilitiesName = "probabilities";
inline constexpr const char* kOnnxMeanName = "mean_probabilities";

// Throws InputError naming the architecture when it is not one that can be exported.
OnnxGraph buildParticleOnnxGraph(ParticleModelImpl& model, const std::vector<float>& mean, const std::vector<float>& stdev);

// The architectures buildParticleOnnxGraph knows.
std::vector<std::string> onnxExportableArchitectures();

} // namespace lbd
