#pragma once
// A plain Python pickle (protocol 2) of a small value tree: None, bool, int, float, str, list,
// tuple, dict with str keys, and tensors as references to storages kept elsewhere. It writes only
// the opcodes and globals that PyTorch's weights_only unpickler accepts
// (torch._utils._rebuild_tensor_v2, torch.<Type>Storage, collections.OrderedDict), which is what
// makes `torch.load(path)` read our files under PyTorch 2.6+'s default weights_only=True.
// torch::pickle_save cannot: it tags every typed container with
// torch.jit._pickle.restore_type_tag, a global the weights_only unpickler refuses.
//
// No torch here: the tree is plain data and the output plain bytes; torchsavearchive.h puts
// the pickle and the tensors' bytes into the zip layout of Python's torch.save.
//
// PyTorch 1.13's weights_only unpickler has no BINFLOAT opcode: a file meant for
// torch.load(path, weights_only=True) on 1.13 keeps its floating-point numbers in tensors.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace lbd {

// A tensor as torch.save pickles it: a view (offset, sizes, strides, in elements) of storage
// `key`, whose bytes are the archive's record data/<key>.
struct PickledTensor {
    std::string storageType; // Python's storage class in module torch: "FloatStorage", "LongStorage", ...
    std::string key;         // the storage's record name under data/
    int64_t storageElements = 0;
    int64_t offset = 0;
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;
};

class PickleValue {
public:
    enum class Kind { None, Bool, Int, Float, String, List, Tuple, Dict, Tensor };
    using Entries = std::vector<std::pair<std::string, PickleValue>>;

    PickleValue() = default; // None

    // Named constructors only: an implicit PickleValue(bool) would swallow string literals.
    static PickleValue none() { return {}; }
    static PickleValue boolean(bool value);
    static PickleValue integer(int64_t value);
    static PickleValue real(double value);
    static PickleValue string(std::string value);
    static PickleValue list(std::vector<PickleValue> items);
    static PickleValue stringList(const std::vector<std::string>& items);
    static PickleValue tuple(std::vector<PickleValue> items);
    static PickleValue dict(Entries entries); // keys in this order, as Python 3.7+ keeps them
    static PickleValue tensor(PickledTensor tensor);

    Kind kind() const { return m_kind; }
    static const char* kindName(Kind kind); // "int", "dict", ... (Python's names)

    // Reading a tree (picklereader.h): each throws std::invalid_argument naming both kinds when
    // the value is of another kind. asFloat() also reads an int.
    bool asBool() const;
    int64_t asInt() const;
    double asFloat() const;
    const std::string& asString() const;
    const std::vector<PickleValue>& items() const; // list or tuple
    const Entries& entries() const;                // dict, in the file's order
    const PickledTensor& asTensor() const;
    const PickleValue* find(const std::string& key) const; // dict entry, nullptr if absent

    // Appends an entry to a dict (std::logic_error for any other kind).
    void insert(std::string key, PickleValue value);

private:
    friend class PickleWriter;

    Kind m_kind = Kind::None;
    bool m_bool = false;
    int64_t m_int = 0;
    double m_float = 0.0;
    std::string m_string;
    std::vector<PickleValue> m_items;
    Entries m_entries;
    std::shared_ptr<const PickledTensor> m_tensor;
};

// The pickle of `value`: PROTO 2 ... STOP, no memo (nothing is shared, so nothing needs it).
std::string plainPickle(const PickleValue& value);

} // namespace lbd
