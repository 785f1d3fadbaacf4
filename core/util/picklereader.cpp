#include "core/util/picklereader.h"

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <unordered_map>

namespace lbd {
namespace {

// Objects live in one arena and refer to each other by index: the memo (BINPUT / BINGET) shares
// them as Python does, a container filled after it was memoised is seen filled, a cycle is only
// a loop of indices (caught by the depth limit when converting), and nothing is destroyed
// recursively.
enum class Tag { None, Bool, Int, Float, String, List, Tuple, Dict, Global, Storage, Tensor };

struct Node {
    Tag tag = Tag::None;
    bool b = false;
    int64_t i = 0;
    double f = 0.0;
    std::string s; // String text, Global "module.name"
    std::vector<size_t> items;
    std::vector<std::pair<size_t, size_t>> entries;
    PickledTensor tensor; // Storage: type, key, elements; Tensor: the view as well
};

// State dicts nest two or three levels; this only stops cycles and hostile depth.
constexpr int kMaxDepth = 64;
// A ResNet-50 state dict's pickle makes about 5,000 objects and converts to as many values. The
// limits stop a small hostile pickle from costing gigabytes: a million objects of ~250 bytes, and
// a conversion budget, since a memoised tuple referenced twice at each of 60 levels would
// otherwise expand into 2^60 values (or a long string into copies of itself).
constexpr size_t kMaxObjects = size_t(1) << 20;
constexpr size_t kMaxConvertedBytes = size_t(256) << 20;

class Reader {
public:
    explicit Reader(const std::string& bytes) : m_bytes(bytes) {}

    PickleValue run()
    {
        for (;;) {
            const size_t at = m_pos;
            const auto op = static_cast<unsigned char>(byte());
            if (op == '.') {
                if (m_stack.size() != 1 || !m_marks.empty()) {
                    fail(at, "STOP with " + std::to_string(m_stack.size()) + " values on the stack");
                }
                return convert(m_stack.back(), 0);
            }
            step(op, at);
        }
    }

private:
    [[noreturn]] void fail(size_t at, const std::string& what) const
    {
        throw std::runtime_error("pickle byte " + std::to_string(at) + ": " + what);
    }

    char byte()
    {
        if (m_pos >= m_bytes.size()) {
            fail(m_pos, "ends before STOP");
        }
        return m_bytes[m_pos++];
    }

    uint64_t little(size_t count)
    {
        if (m_bytes.size() - m_pos < count) {
            fail(m_pos, "ends inside a number");
        }
        uint64_t value = 0;
        for (size_t k = 0; k < count; ++k) {
            value |= uint64_t(static_cast<unsigned char>(m_bytes[m_pos + k])) << (8 * k);
        }
        m_pos += count;
        return value;
    }

    std::string text(uint64_t length)
    {
        if (length > m_bytes.size() - m_pos) {
            fail(m_pos, "a string of " + std::to_string(length) + " bytes runs past the end");
        }
        std::string s = m_bytes.substr(m_pos, length);
        m_pos += length;
        return s;
    }

    std::string line()
    {
        const size_t end = m_bytes.find('\n', m_pos);
        if (end == std::string::npos) {
            fail(m_pos, "a GLOBAL's name has no end");
        }
        std::string s = m_bytes.substr(m_pos, end - m_pos);
        m_pos = end + 1;
        return s;
    }

    size_t make(Node node)
    {
        if (m_nodes.size() >= kMaxObjects) {
            fail(m_pos, "more than " + std::to_string(kMaxObjects) + " objects (not a state dict)");
        }
        m_nodes.push_back(std::move(node));
        return m_nodes.size() - 1;
    }

    size_t make(Tag tag)
    {
        Node node;
        node.tag = tag;
        return make(std::move(node));
    }

    void push(size_t node) { m_stack.push_back(node); }

    size_t pop(size_t at)
    {
        const size_t floor = m_marks.empty() ? 0 : m_marks.back();
        if (m_stack.size() <= floor) {
            fail(at, "the stack is empty");
        }
        const size_t node = m_stack.back();
        m_stack.pop_back();
        return node;
    }

    size_t& top(size_t at)
    {
        if (m_stack.empty()) {
            fail(at, "the stack is empty");
        }
        return m_stack.back();
    }

    // The values since the last MARK, which is removed.
    std::vector<size_t> popMark(size_t at)
    {
        if (m_marks.empty()) {
            fail(at, "no MARK");
        }
        const size_t mark = m_marks.back();
        m_marks.pop_back();
        std::vector<size_t> items(m_stack.begin() + static_cast<std::ptrdiff_t>(mark), m_stack.end());
        m_stack.resize(mark);
        return items;
    }

    Node& container(size_t node, Tag tag, size_t at)
    {
        if (m_nodes[node].tag != tag) {
            fail(at, "appending to something that is not a " + std::string(tag == Tag::Dict ? "dict" : "list"));
        }
        return m_nodes[node];
    }

    size_t tuple(std::vector<size_t> items)
    {
        Node node;
        node.tag = Tag::Tuple;
        node.items = std::move(items);
        return make(std::move(node));
    }

    void step(unsigned char op, size_t at)
    {
        if (stepValue(op, at) || stepContainer(op, at) || stepObject(op, at)) {
            return;
        }
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", op);
        fail(at, std::string("unsupported opcode ") + hex + " (not a state dict of tensors?)");
    }

    // Scalars, strings, framing and the memo.
    bool stepValue(unsigned char op, size_t at)
    {
        Node node;
        switch (op) {
        case 0x80: byte(); return true;          // PROTO n
        case 0x95: little(8); return true;       // FRAME (protocol 4): a length hint
        case 'N': push(make(Tag::None)); return true;
        case 0x88: case 0x89: node.tag = Tag::Bool; node.b = op == 0x88; break;
        case 'K': node.tag = Tag::Int; node.i = static_cast<int64_t>(little(1)); break;
        case 'M': node.tag = Tag::Int; node.i = static_cast<int64_t>(little(2)); break;
        case 'J': node.tag = Tag::Int; node.i = static_cast<int32_t>(little(4)); break;
        case 0x8a: { // LONG1: little-endian two's complement of n bytes
            const auto n = static_cast<unsigned char>(byte());
            if (n > 8) {
                fail(at, "an integer of " + std::to_string(n) + " bytes");
            }
            uint64_t value = little(n);
            if (n > 0 && n < 8 && (value >> (8 * n - 1)) & 1) {
                value |= ~uint64_t(0) << (8 * n); // sign-extend
            }
            node.tag = Tag::Int;
            node.i = static_cast<int64_t>(value);
            break;
        }
        case 'G': { // BINFLOAT, big-endian
            uint64_t bits = 0;
            for (int k = 0; k < 8; ++k) {
                bits = (bits << 8) | static_cast<unsigned char>(byte());
            }
            node.tag = Tag::Float;
            std::memcpy(&node.f, &bits, sizeof bits);
            break;
        }
        case 'X': node.tag = Tag::String; node.s = text(little(4)); break;
        case 0x8c: node.tag = Tag::String; node.s = text(little(1)); break; // SHORT_BINUNICODE
        case 0x8d: node.tag = Tag::String; node.s = text(little(8)); break; // BINUNICODE8
        case 'q': m_memo[little(1)] = top(at); return true;                 // BINPUT
        case 'r': m_memo[little(4)] = top(at); return true;                 // LONG_BINPUT
        case 0x94: m_memo[m_memo.size()] = top(at); return true;            // MEMOIZE
        case 'h': case 'j': {                                               // BINGET, LONG_BINGET
            const auto it = m_memo.find(little(op == 'h' ? 1 : 4));
            if (it == m_memo.end()) {
                fail(at, "reads a memo entry that was never stored");
            }
            push(it->second);
            return true;
        }
        default: return false;
        }
        push(make(std::move(node)));
        return true;
    }

    // Tuples, lists and dicts.
    bool stepContainer(unsigned char op, size_t at)
    {
        switch (op) {
        case '(': m_marks.push_back(m_stack.size()); return true;
        case ')': push(tuple({})); return true;
        case 't': push(tuple(popMark(at))); return true;
        case 0x85: case 0x86: case 0x87: {
            std::vector<size_t> items(static_cast<size_t>(op - 0x84));
            for (size_t k = items.size(); k-- > 0;) {
                items[k] = pop(at);
            }
            push(tuple(std::move(items)));
            return true;
        }
        case ']': push(make(Tag::List)); return true;
        case 'l': { Node n; n.tag = Tag::List; n.items = popMark(at); push(make(std::move(n))); return true; }
        case 'a': { const size_t v = pop(at); container(top(at), Tag::List, at).items.push_back(v); return true; }
        case 'e': {
            auto values = popMark(at);
            auto& list = container(top(at), Tag::List, at).items;
            list.insert(list.end(), values.begin(), values.end());
            return true;
        }
        case '}': push(make(Tag::Dict)); return true;
        case 'd': case 'u': {
            const auto values = popMark(at);
            if (values.size() % 2 != 0) {
                fail(at, "a dict's items are not key-value pairs");
            }
            std::vector<std::pair<size_t, size_t>> pairs;
            for (size_t k = 0; k < values.size(); k += 2) {
                pairs.emplace_back(values[k], values[k + 1]);
            }
            if (op == 'd') {
                Node n;
                n.tag = Tag::Dict;
                n.entries = std::move(pairs);
                push(make(std::move(n)));
            } else {
                auto& dict = container(top(at), Tag::Dict, at).entries;
                dict.insert(dict.end(), pairs.begin(), pairs.end());
            }
            return true;
        }
        case 's': {
            const size_t value = pop(at);
            const size_t key = pop(at);
            container(top(at), Tag::Dict, at).entries.emplace_back(key, value);
            return true;
        }
        default: return false;
        }
    }

    // Globals, calls, persistent ids: only what a state dict needs.
    bool stepObject(unsigned char op, size_t at)
    {
        switch (op) {
        case 'c': {
            Node n;
            n.tag = Tag::Global;
            const std::string module = line();
            n.s = module + "." + line();
            push(make(std::move(n)));
            return true;
        }
        case 0x93: { // STACK_GLOBAL
            const size_t name = pop(at);
            const size_t module = pop(at);
            if (m_nodes[name].tag != Tag::String || m_nodes[module].tag != Tag::String) {
                fail(at, "STACK_GLOBAL of something other than two strings");
            }
            Node n;
            n.tag = Tag::Global;
            n.s = m_nodes[module].s + "." + m_nodes[name].s;
            push(make(std::move(n)));
            return true;
        }
        case 'R': {
            const size_t args = pop(at);
            const size_t callable = pop(at);
            push(reduce(callable, args, at));
            return true;
        }
        case 'b': pop(at); top(at); return true; // BUILD: an OrderedDict's _metadata, dropped
        case 'Q': push(storage(pop(at), at)); return true;
        default: return false;
        }
    }

    const Node& item(const Node& tuple, size_t k, Tag tag, size_t at) const
    {
        if (k >= tuple.items.size() || m_nodes[tuple.items[k]].tag != tag) {
            fail(at, "unexpected arguments");
        }
        return m_nodes[tuple.items[k]];
    }

    std::vector<int64_t> ints(const Node& tuple, size_t at) const
    {
        std::vector<int64_t> values;
        for (const size_t k : tuple.items) {
            if (m_nodes[k].tag != Tag::Int) {
                fail(at, "a tensor's size or stride is not an integer");
            }
            values.push_back(m_nodes[k].i);
        }
        return values;
    }

    // ('storage', torch.<Type>Storage, key, location, elements): the location (cpu, cuda:0) does
    // not matter, everything is read onto the CPU.
    size_t storage(size_t pid, size_t at)
    {
        const Node& id = m_nodes[pid];
        if (id.tag != Tag::Tuple || item(id, 0, Tag::String, at).s != "storage") {
            fail(at, "a persistent id that is not a storage");
        }
        const std::string& type = item(id, 1, Tag::Global, at).s;
        if (type.rfind("torch.", 0) != 0) {
            fail(at, "storage of type " + type);
        }
        Node n;
        n.tag = Tag::Storage;
        n.tensor.storageType = type.substr(6);
        n.tensor.key = item(id, 2, Tag::String, at).s;
        item(id, 3, Tag::String, at);
        n.tensor.storageElements = item(id, 4, Tag::Int, at).i;
        return make(std::move(n));
    }

    size_t reduce(size_t callable, size_t argsNode, size_t at)
    {
        const Node& function = m_nodes[callable];
        const Node& args = m_nodes[argsNode];
        if (function.tag != Tag::Global || args.tag != Tag::Tuple) {
            fail(at, "REDUCE of something other than a global");
        }
        if (function.s == "collections.OrderedDict") {
            return make(Tag::Dict); // called with () (or with a hooks dict's contents: none in a state dict)
        }
        if (function.s == "torch._utils._rebuild_parameter") {
            item(args, 0, Tag::Tensor, at);
            return args.items[0];
        }
        if (function.s == "torch._utils._rebuild_tensor_v2") {
            Node n;
            n.tag = Tag::Tensor;
            n.tensor = item(args, 0, Tag::Storage, at).tensor;
            n.tensor.offset = item(args, 1, Tag::Int, at).i;
            n.tensor.sizes = ints(item(args, 2, Tag::Tuple, at), at);
            n.tensor.strides = ints(item(args, 3, Tag::Tuple, at), at);
            if (n.tensor.sizes.size() != n.tensor.strides.size()) {
                fail(at, "a tensor's sizes and strides differ in length");
            }
            return make(std::move(n));
        }
        fail(at, "refused to call " + function.s + " (only tensors, dicts and lists are read)");
    }

    PickleValue convert(size_t index, int depth)
    {
        if (depth > kMaxDepth) {
            throw std::runtime_error("pickle: nested deeper than " + std::to_string(kMaxDepth) + " levels (or a cycle)");
        }
        const Node& n = m_nodes[index];
        m_converted += sizeof(PickleValue) + n.s.size() + n.tensor.sizes.size() * 16;
        if (m_converted > kMaxConvertedBytes) {
            throw std::runtime_error("pickle: expands to more than " + std::to_string(kMaxConvertedBytes >> 20)
                                     + " MiB of values (objects shared many times over)");
        }
        std::vector<PickleValue> items;
        for (const size_t k : n.items) {
            items.push_back(convert(k, depth + 1));
        }
        switch (n.tag) {
        case Tag::None: return PickleValue::none();
        case Tag::Bool: return PickleValue::boolean(n.b);
        case Tag::Int: return PickleValue::integer(n.i);
        case Tag::Float: return PickleValue::real(n.f);
        case Tag::String: return PickleValue::string(n.s);
        case Tag::List: return PickleValue::list(std::move(items));
        case Tag::Tuple: return PickleValue::tuple(std::move(items));
        case Tag::Tensor: return PickleValue::tensor(n.tensor);
        case Tag::Dict: {
            PickleValue dict = PickleValue::dict({});
            for (const auto& [key, value] : n.entries) {
                if (m_nodes[key].tag != Tag::String) {
                    throw std::runtime_error("pickle: a dict key that is not a string");
                }
                dict.insert(m_nodes[key].s, convert(value, depth + 1));
            }
            return dict;
        }
        case Tag::Global: throw std::runtime_error("pickle: holds the class " + n.s + " as a value");
        case Tag::Storage: throw std::runtime_error("pickle: holds a bare storage, not a tensor");
        }
        throw std::logic_error("picklereader: unknown tag");
    }

    const std::string& m_bytes;
    size_t m_pos = 0;
    std::vector<Node> m_nodes;
    std::vector<size_t> m_stack;
    std::vector<size_t> m_marks;
    std::unordered_map<uint64_t, size_t> m_memo;
    size_t m_converted = 0; // bytes of values made by convert()
};

} // namespace

PickleValue readPickle(const std::string& bytes)
{
    return Reader(bytes).run();
}

} // namespace lbd
