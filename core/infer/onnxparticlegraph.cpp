#include "core/infer/onnxparticlegraph.h"

#include "core/model/cosineclassifier.h"
#include "core/model/particleblocks.h"
#include "core/model/particlemodel.h"
#include "core/util/error.h"

#include <algorithm>

namespace lbd {

namespace {

using torch::nn::Module;

std::vector<float> floatsOf(const torch::Tensor& t)
{
    const auto c = t.detach().to(torch::kCPU, torch::kFloat).contiguous();
    return {c.data_ptr<float>(), c.data_ptr<float>() + c.numel()};
}

std::shared_ptr<Module> childNamed(Module& module, const std::string& name)
{
    for (const auto& item : module.named_children()) {
        if (item.key() == name) {
            return item.value();
        }
    }
    return nullptr;
}

// A submodule the walk relies on; a model of another shape is refused rather than written wrong.
template <typename T>
T& childAs(Module& module, const std::string& name, const std::string& where)
{
    const auto child = childNamed(module, name);
    T* typed = child ? child->as<T>() : nullptr;
    if (typed == nullptr) {
        throw InputError("ONNX export: " + where + "." + name + " is not the module the exporter expects");
    }
    return *typed;
}

class Exporter {
public:
    explicit Exporter(OnnxGraph& graph) : m_graph(graph) {}

    // conv followed by batch norm (running statistics), folded into one Conv in float64.
    std::string convBn(const std::string& x, torch::nn::Conv2dImpl& conv, torch::nn::BatchNorm2dImpl& bn,
                       const std::string& name)
    {
        torch::NoGradGuard noGrad;
        const auto w = conv.weight.detach().to(torch::kCPU, torch::kDouble);
        const int64_t out = w.size(0);
        const auto ones = torch::ones({out}, torch::kDouble);
        const auto gamma = bn.weight.defined() ? bn.weight.detach().to(torch::kCPU, torch::kDouble) : ones;
        const auto beta = bn.bias.defined() ? bn.bias.detach().to(torch::kCPU, torch::kDouble) : ones * 0;
        const auto scale = gamma / (bn.running_var.detach().to(torch::kCPU, torch::kDouble) + bn.options.eps()).sqrt();
        auto bias = beta - bn.running_mean.detach().to(torch::kCPU, torch::kDouble) * scale;
        if (conv.bias.defined()) {
            bias = bias + conv.bias.detach().to(torch::kCPU, torch::kDouble) * scale;
        }
        const int64_t stride = (*conv.options.stride())[0];
        return this->conv(x, w * scale.view({-1, 1, 1, 1}), bias, stride, conv.options.groups(), name);
    }

    // A Conv node with padding kernel / 2 (every convolution of the particle models has it).
    std::string conv(const std::string& x, const torch::Tensor& weight, const torch::Tensor& bias, int64_t stride,
                     int64_t groups, const std::string& name)
    {
        const int64_t k = weight.size(2), pad = k / 2;
        std::vector<std::string> inputs = {x, m_graph.addFloatInitializer(name + ".weight", weight.sizes().vec(), floatsOf(weight))};
        if (bias.defined()) {
            inputs.push_back(m_graph.addFloatInitializer(name + ".bias", {bias.size(0)}, floatsOf(bias)));
        }
        return m_graph.addNode("Conv", inputs, name,
                               {OnnxAttribute::integers("kernel_shape", {k, k}), OnnxAttribute::integers("strides", {stride, stride}),
                                OnnxAttribute::integers("pads", {pad, pad, pad, pad}),
                                OnnxAttribute::integers("dilations", {1, 1}), OnnxAttribute::integer("group", groups)});
    }

    std::string particleConvBn(const std::string& x, Module& module, const std::string& name)
    {
        return convBn(x, childAs<torch::nn::Conv2dImpl>(module, "conv", name), childAs<torch::nn::BatchNorm2dImpl>(module, "bn", name),
                      name);
    }

    std::string relu(const std::string& x) { return m_graph.addNode("Relu", {x}, x + ".relu"); }
    std::string add(const std::string& a, const std::string& b, const std::string& name) { return m_graph.addNode("Add", {a, b}, name); }

    std::string maxPool(const std::string& x, int64_t kernel, int64_t stride, int64_t pad)
    {
        return m_graph.addNode("MaxPool", {x}, x + ".pool",
                               {OnnxAttribute::integers("kernel_shape", {kernel, kernel}),
                                OnnxAttribute::integers("strides", {stride, stride}),
                                OnnxAttribute::integers("pads", {pad, pad, pad, pad})});
    }

    // The option-A shortcut (stride-s subsampling, `pad` zero channels on both sides of every
    // particle's block) and the tiling of a shared input (inputs of `in` channels seen by each of
    // the M particles): a 1x1 convolution with 0/1 weights, exact in floating point.
    std::string selection(const std::string& x, int64_t particles, int64_t in, int64_t stride, int64_t pad, bool shared,
                          const std::string& name)
    {
        if (!shared && stride == 1 && pad == 0) {
            return x;
        }
        const int64_t out = in + 2 * pad;
        auto weight = torch::zeros({particles * out, in, 1, 1}, torch::kDouble);
        for (int64_t j = 0; j < particles; ++j) {
            for (int64_t i = 0; i < in; ++i) {
                weight[j * out + pad + i][i][0][0] = 1.0;
            }
        }
        return conv(x, weight, torch::Tensor(), stride, shared ? 1 : particles, name);
    }

    std::string basicBlock(const std::string& x, Module& block, const std::string& name)
    {
        auto& conv1 = childAs<ParticleConvBnImpl>(block, "conv1", name);
        auto& conv2 = childAs<ParticleConvBnImpl>(block, "conv2", name);
        const ParticleConvOptions& o = conv1.options();
        const auto h = relu(particleConvBn(x, conv1, name + ".conv1"));
        const auto y = particleConvBn(h, conv2, name + ".conv2");
        const auto shortcut = selection(x, o.particles, o.inChannels, o.stride, (o.outChannels - o.inChannels) / 2,
                                        o.sharedInput, name + ".shortcut");
        return relu(add(y, shortcut, name + ".add"));
    }

    std::string bottleneck(const std::string& x, Module& block, const std::string& name)
    {
        auto& conv1 = childAs<ParticleConvBnImpl>(block, "conv1", name);
        const ParticleConvOptions& o = conv1.options();
        auto h = relu(particleConvBn(x, conv1, name + ".conv1"));
        h = relu(particleConvBn(h, childAs<ParticleConvBnImpl>(block, "conv2", name), name + ".conv2"));
        h = particleConvBn(h, childAs<ParticleConvBnImpl>(block, "conv3", name), name + ".conv3");
        const auto shortcut = childNamed(block, "downsample")
            ? particleConvBn(x, childAs<ParticleConvBnImpl>(block, "downsample", name), name + ".downsample")
            : selection(x, o.particles, o.inChannels, 1, 0, o.sharedInput, name + ".shortcut");
        return relu(add(h, shortcut, name + ".add"));
    }

    // Pooled features [N, M*D, 1, 1] -> both outputs. logits_jk = s <f_j, w_jk/|w_jk|> / |f_j|:
    // the numerator and |f_j|^2 (one copy per class, so that Div sees equal shapes) are grouped
    // 1x1 convolutions; |f_j| is floored like F::normalize's max(|f|, 1e-12) by adding 1e-24.
    void head(const std::string& features, CosineClassifierImpl& classifier)
    {
        torch::NoGradGuard noGrad;
        const auto w = classifier.weight().detach().to(torch::kCPU, torch::kDouble);
        const int64_t m = w.size(0), classes = w.size(1), dim = w.size(2);
        const auto unit = w / w.norm(2, {-1}, true).clamp_min(1e-12);
        const auto numerator = conv(features, (unit * classifier.scale()).reshape({m * classes, dim, 1, 1}), torch::Tensor(), 1, m,
                                    "head.dot");
        const auto squared = m_graph.addNode("Mul", {features, features}, "head.squared");
        const auto sumSquares = conv(squared, torch::ones({m * classes, dim, 1, 1}, torch::kDouble),
                                     torch::full({m * classes}, 1e-24, torch::kDouble), 1, m, "head.sumsq");
        const auto norm = m_graph.addNode("Sqrt", {sumSquares}, "head.norm");
        const auto logits = m_graph.addNode("Div", {numerator, norm}, "head.logits");
        const auto shape = m_graph.addInt64Initializer("head.shape", {3}, {-1, m, classes});
        const auto perParticle = m_graph.addNode("Reshape", {logits, shape}, "head.particle_logits");
        m_graph.addNode("Softmax", {perParticle}, kOnnxProbabilitiesName, {OnnxAttribute::integer("axis", 2)});
        m_graph.addNode("ReduceMean", {kOnnxProbabilitiesName}, kOnnxMeanName,
                        {OnnxAttribute::integers("axes", {1}), OnnxAttribute::integer("keepdims", 0)});
    }

    OnnxGraph& m_graph;
};

// x * (1/std) - mean/std per channel as a depthwise 1x1 convolution: OpenCV 4.6 fails at run time
// on an Add of a [1, C, 1, 1] constant with C = 3 (shape_utils.hpp "total" assertion), measured here.
std::string normalise(Exporter& exporter, const std::vector<float>& mean, const std::vector<float>& stdev)
{
    const int64_t c = static_cast<int64_t>(mean.size());
    auto scale = torch::empty({c, 1, 1, 1}, torch::kDouble);
    auto shift = torch::empty({c}, torch::kDouble);
    for (int64_t i = 0; i < c; ++i) {
        scale[i][0][0][0] = 1.0 / static_cast<double>(stdev[i]);
        shift[i] = -static_cast<double>(mean[i]) / static_cast<double>(stdev[i]);
    }
    return exporter.conv(kOnnxInputName, scale, shift, 1, c, "normalised");
}

std::string smallCnnFeatures(Exporter& e, Module& model, const std::string& x)
{
    auto h = e.maxPool(e.relu(e.convBn(x, childAs<torch::nn::Conv2dImpl>(model, "conv1", "model"),
                                       childAs<torch::nn::BatchNorm2dImpl>(model, "bn1", "model"), "conv1")),
                       2, 2, 0);
    for (const char* name : {"conv2", "conv3", "conv4"}) {
        h = e.relu(e.particleConvBn(h, childAs<ParticleConvBnImpl>(model, name, "model"), name));
        if (std::string(name) != "conv4") {
            h = e.maxPool(h, 2, 2, 0);
        }
    }
    return h;
}

std::string resNetFeatures(Exporter& e, Module& model, const std::string& x, bool imageNetStem)
{
    auto h = e.relu(e.convBn(x, childAs<torch::nn::Conv2dImpl>(model, "conv1", "model"),
                             childAs<torch::nn::BatchNorm2dImpl>(model, "bn1", "model"), "conv1"));
    if (imageNetStem) {
        h = e.maxPool(h, 3, 2, 1);
    }
    for (int stage = 1; childNamed(model, "layer" + std::to_string(stage)); ++stage) {
        const std::string layer = "layer" + std::to_string(stage);
        int index = 0;
        for (const auto& block : childNamed(model, layer)->children()) {
            const std::string name = layer + "." + std::to_string(index++);
            if (block->as<ParticleBasicBlockImpl>() != nullptr) {
                h = e.basicBlock(h, *block, name);
            } else if (block->as<ParticleBottleneckImpl>() != nullptr) {
                h = e.bottleneck(h, *block, name);
            } else {
                throw InputError("ONNX export: " + name + " is not a block the exporter knows");
            }
        }
    }
    return h;
}

} // namespace

std::vector<std::string> onnxExportableArchitectures() { return {"smallcnn", "resnet32", "resnet50"}; }

OnnxGraph buildParticleOnnxGraph(ParticleModelImpl& model, const std::vector<float>& mean, const std::vector<float>& stdev)
{
    const ModelSpec& spec = model.spec();
    const auto known = onnxExportableArchitectures();
    if (std::find(known.begin(), known.end(), spec.arch) == known.end()) {
        throw InputError("ONNX export: model.arch \"" + spec.arch + "\" cannot be exported (lbd exports smallcnn, resnet32 and resnet50)");
    }
    if (static_cast<int64_t>(mean.size()) != spec.inputChannels || mean.size() != stdev.size()) {
        throw InputError("ONNX export: the normalisation has " + std::to_string(mean.size()) + " channels, the model "
                         + std::to_string(spec.inputChannels));
    }
    OnnxGraph graph;
    graph.addInput(kOnnxInputName, {{-1, "N"}, {spec.inputChannels, ""}, {spec.inputSize, ""}, {spec.inputSize, ""}});
    Exporter exporter(graph);
    const std::string x = normalise(exporter, mean, stdev);
    const std::string features = spec.arch == "smallcnn" ? smallCnnFeatures(exporter, model, x)
                                                         : resNetFeatures(exporter, model, x, spec.arch == "resnet50");
    const auto pooled = graph.addNode("GlobalAveragePool", {features}, "features");
    exporter.head(pooled, childAs<CosineClassifierImpl>(model, "head", "model"));
    graph.addOutput(kOnnxProbabilitiesName, {{-1, "N"}, {spec.particles, ""}, {spec.numClasses, ""}});
    graph.addOutput(kOnnxMeanName, {{-1, "N"}, {spec.numClasses, ""}});
    return graph;
}

} // namespace lbd
