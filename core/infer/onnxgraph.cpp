#include "core/infer/onnxgraph.h"

#include "core/util/protobufwriter.h"

#include <algorithm>
#include <cstring>

namespace lbd {

namespace {

// Field numbers of onnx.proto (onnx/onnx.proto3, unchanged since IR version 3).
namespace model {
constexpr int kIrVersion = 1, kProducerName = 2, kProducerVersion = 3, kDocString = 6, kGraph = 7, kOpsetImport = 8,
              kMetadataProps = 14;
}
namespace opset {
constexpr int kDomain = 1, kVersion = 2;
}
namespace graph {
constexpr int kNode = 1, kName = 2, kInitializer = 5, kInput = 11, kOutput = 12;
}
namespace node {
constexpr int kInput = 1, kOutput = 2, kName = 3, kOpType = 4, kAttribute = 5;
}
namespace attribute {
constexpr int kName = 1, kF = 2, kI = 3, kInts = 8, kType = 20;
constexpr int kTypeFloat = 1, kTypeInt = 2, kTypeInts = 7;
}
namespace tensor {
constexpr int kDims = 1, kDataType = 2, kName = 8, kRawData = 9;
constexpr int kFloat = 1, kInt64 = 7;
}
namespace valueinfo {
constexpr int kName = 1, kType = 2;
constexpr int kTypeTensor = 1;                 // TypeProto.tensor_type
constexpr int kElemType = 1, kShape = 2;       // TypeProto.Tensor
constexpr int kDim = 1;                        // TensorShapeProto
constexpr int kDimValue = 1, kDimParam = 2;    // TensorShapeProto.Dimension
}
namespace entry {
constexpr int kKey = 1, kValue = 2;
}
constexpr int64_t kIrVersionOfOpset11 = 6;

// Values as little-endian bytes (TensorProto.raw_data), whatever the host's byte order.
template <typename T>
std::string littleEndian(const std::vector<T>& values)
{
    std::string raw(values.size() * sizeof(T), '\0');
    for (size_t i = 0; i < values.size(); ++i) {
        uint64_t bits = 0;
        std::memcpy(&bits, &values[i], sizeof(T));
        for (size_t b = 0; b < sizeof(T); ++b) {
            raw[i * sizeof(T) + b] = static_cast<char>((bits >> (8 * b)) & 0xff);
        }
    }
    return raw;
}

ProtobufWriter valueInfo(const std::string& name, const std::vector<OnnxDim>& dims)
{
    ProtobufWriter shape;
    for (const OnnxDim& dim : dims) {
        ProtobufWriter d;
        if (dim.size >= 0) {
            d.varintField(valueinfo::kDimValue, dim.size);
        } else {
            d.bytesField(valueinfo::kDimParam, dim.name);
        }
        shape.messageField(valueinfo::kDim, d);
    }
    ProtobufWriter tensorType;
    tensorType.varintField(valueinfo::kElemType, tensor::kFloat);
    tensorType.messageField(valueinfo::kShape, shape);
    ProtobufWriter type;
    type.messageField(valueinfo::kTypeTensor, tensorType);
    ProtobufWriter info;
    info.bytesField(valueinfo::kName, name);
    info.messageField(valueinfo::kType, type);
    return info;
}

ProtobufWriter attributeMessage(const OnnxAttribute& a)
{
    ProtobufWriter w;
    w.bytesField(attribute::kName, a.name);
    switch (a.kind) {
    case OnnxAttribute::Kind::Float:
        w.floatField(attribute::kF, a.value);
        w.varintField(attribute::kType, attribute::kTypeFloat);
        break;
    case OnnxAttribute::Kind::Int:
        w.varintField(attribute::kI, a.ints.at(0));
        w.varintField(attribute::kType, attribute::kTypeInt);
        break;
    case OnnxAttribute::Kind::Ints:
        for (int64_t v : a.ints) {
            w.varintField(attribute::kInts, v);
        }
        w.varintField(attribute::kType, attribute::kTypeInts);
        break;
    }
    return w;
}

} // namespace

std::string OnnxGraph::uniqueName(const std::string& wanted)
{
    std::string name = wanted;
    for (int suffix = 1; std::find(m_names.begin(), m_names.end(), name) != m_names.end(); ++suffix) {
        name = wanted + "_" + std::to_string(suffix);
    }
    m_names.push_back(name);
    return name;
}

std::string OnnxGraph::addFloatInitializer(const std::string& name, const std::vector<int64_t>& dims,
                                           const std::vector<float>& data)
{
    Initializer init{uniqueName(name), dims, tensor::kFloat, littleEndian(data)};
    m_initializers.push_back(init);
    return init.name;
}

std::string OnnxGraph::addInt64Initializer(const std::string& name, const std::vector<int64_t>& dims,
                                           const std::vector<int64_t>& data)
{
    Initializer init{uniqueName(name), dims, tensor::kInt64, littleEndian(data)};
    m_initializers.push_back(init);
    return init.name;
}

std::string OnnxGraph::addNode(const std::string& opType, const std::vector<std::string>& inputs, const std::string& output,
                               const std::vector<OnnxAttribute>& attributes)
{
    Node n{opType, "", inputs, uniqueName(output), attributes};
    n.name = n.output; // one output per node: its name names the node too
    m_nodes.push_back(n);
    return m_nodes.back().output;
}

void OnnxGraph::addInput(const std::string& name, const std::vector<OnnxDim>& dims)
{
    m_inputs.push_back({uniqueName(name), dims});
}

void OnnxGraph::addOutput(const std::string& name, const std::vector<OnnxDim>& dims) { m_outputs.push_back({name, dims}); }

std::vector<std::string> OnnxGraph::opTypes() const
{
    std::vector<std::string> types;
    for (const Node& n : m_nodes) {
        types.push_back(n.opType);
    }
    return types;
}

std::string OnnxGraph::serializeGraph(const std::string& graphName) const
{
    ProtobufWriter g;
    for (const Node& n : m_nodes) {
        ProtobufWriter w;
        for (const std::string& input : n.inputs) {
            w.bytesField(node::kInput, input);
        }
        w.bytesField(node::kOutput, n.output);
        w.bytesField(node::kName, n.name);
        w.bytesField(node::kOpType, n.opType);
        for (const OnnxAttribute& a : n.attributes) {
            w.messageField(node::kAttribute, attributeMessage(a));
        }
        g.messageField(graph::kNode, w);
    }
    g.bytesField(graph::kName, graphName);
    for (const Initializer& init : m_initializers) {
        ProtobufWriter t;
        for (int64_t d : init.dims) {
            t.varintField(tensor::kDims, d);
        }
        t.varintField(tensor::kDataType, init.dataType);
        t.bytesField(tensor::kName, init.name);
        t.bytesField(tensor::kRawData, init.raw);
        g.messageField(graph::kInitializer, t);
    }
    for (const ValueInfo& input : m_inputs) {
        g.messageField(graph::kInput, valueInfo(input.name, input.dims));
    }
    for (const ValueInfo& output : m_outputs) {
        g.messageField(graph::kOutput, valueInfo(output.name, output.dims));
    }
    return g.bytes();
}

std::string OnnxGraph::serialize(const OnnxModelInfo& info) const
{
    ProtobufWriter m;
    m.varintField(model::kIrVersion, kIrVersionOfOpset11);
    m.bytesField(model::kProducerName, info.producerName);
    if (!info.producerVersion.empty()) {
        m.bytesField(model::kProducerVersion, info.producerVersion);
    }
    if (!info.docString.empty()) {
        m.bytesField(model::kDocString, info.docString);
    }
    m.bytesField(model::kGraph, serializeGraph(info.graphName));
    ProtobufWriter opsetId;
    opsetId.bytesField(opset::kDomain, "");
    opsetId.varintField(opset::kVersion, info.opset);
    m.messageField(model::kOpsetImport, opsetId);
    for (const auto& [key, value] : info.metadata) {
        ProtobufWriter e;
        e.bytesField(entry::kKey, key);
        e.bytesField(entry::kValue, value);
        m.messageField(model::kMetadataProps, e);
    }
    return m.bytes();
}

} // namespace lbd
