#pragma once
// An ONNX model held as plain values and serialised to the ModelProto bytes of onnx.proto (field
// numbers from onnx/onnx.proto3, written with core/util/protobufwriter.h): float and int64
// initialisers (raw little-endian data), nodes with int, ints and float attributes, and float
// graph inputs and outputs whose dimensions are fixed or named (a named one, "N", is the batch).
// Only what `lbd export --onnx` needs (onnxparticlegraph.h builds the graph); no torch here.
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

struct OnnxAttribute {
    enum class Kind { Int, Ints, Float };
    std::string name;
    Kind kind = Kind::Int;
    std::vector<int64_t> ints; // one value for Int
    float value = 0;           // for Float

    static OnnxAttribute integer(std::string name, int64_t value) { return {std::move(name), Kind::Int, {value}, 0}; }
    static OnnxAttribute integers(std::string name, std::vector<int64_t> values)
    {
        return {std::move(name), Kind::Ints, std::move(values), 0};
    }
    static OnnxAttribute real(std::string name, float value) { return {std::move(name), Kind::Float, {}, value}; }
};

// A dimension of a graph input or output: a size, or (size < 0) the symbolic name.
struct OnnxDim {
    int64_t size = -1;
    std::string name;
};

struct OnnxModelInfo {
    int64_t opset = 11;
    std::string producerName = "lbd";
    std::string producerVersion;
    std::string graphName = "lbd";
    std::string docString;
    std::vector<std::pair<std::string, std::string>> metadata; // ModelProto.metadata_props
};

class OnnxGraph {
public:
    // Returns the name of the new value (the given name, made unique if it is taken).
    std::string addFloatInitializer(const std::string& name, const std::vector<int64_t>& dims, const std::vector<float>& data);
    std::string addInt64Initializer(const std::string& name, const std::vector<int64_t>& dims, const std::vector<int64_t>& data);
    // Adds a node with one output and returns the output's name (`output`, made unique).
    std::string addNode(const std::string& opType, const std::vector<std::string>& inputs, const std::string& output,
                        const std::vector<OnnxAttribute>& attributes = {});
    void addInput(const std::string& name, const std::vector<OnnxDim>& dims);
    void addOutput(const std::string& name, const std::vector<OnnxDim>& dims);

    int64_t nodeCount() const { return static_cast<int64_t>(m_nodes.size()); }
    std::vector<std::string> opTypes() const; // in node order, with repeats

    // The ModelProto bytes (IR version 6, which opset 11 belongs to).
    std::string serialize(const OnnxModelInfo& info) const;

private:
    struct Node {
        std::string opType;
        std::string name;
        std::vector<std::string> inputs;
        std::string output;
        std::vector<OnnxAttribute> attributes;
    };
    struct Initializer {
        std::string name;
        std::vector<int64_t> dims;
        int dataType = 1; // TensorProto.DataType: FLOAT = 1, INT64 = 7
        std::string raw;  // little-endian values
    };
    struct ValueInfo {
        std::string name;
        std::vector<OnnxDim> dims;
    };

    std::string uniqueName(const std::string& wanted);
    std::string serializeGraph(const std::string& graphName) const;

    std::vector<Node> m_nodes;
    std::vector<Initializer> m_initializers;
    std::vector<ValueInfo> m_inputs;
    std::vector<ValueInfo> m_outputs;
    std::vector<std::string> m_names; // every value name used so far
};

} // namespace lbd
