#include "core/util/plainpickle.h"

#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace lbd {

PickleValue PickleValue::boolean(bool value)
{
    PickleValue v;
    v.m_kind = Kind::Bool;
    v.m_bool = value;
    return v;
}

PickleValue PickleValue::integer(int64_t value)
{
    PickleValue v;
    v.m_kind = Kind::Int;
    v.m_int = value;
    return v;
}

PickleValue PickleValue::real(double value)
{
    PickleValue v;
    v.m_kind = Kind::Float;
    v.m_float = value;
    return v;
}

PickleValue PickleValue::string(std::string value)
{
    PickleValue v;
    v.m_kind = Kind::String;
    v.m_string = std::move(value);
    return v;
}

PickleValue PickleValue::list(std::vector<PickleValue> items)
{
    PickleValue v;
    v.m_kind = Kind::List;
    v.m_items = std::move(items);
    return v;
}

PickleValue PickleValue::stringList(const std::vector<std::string>& items)
{
    std::vector<PickleValue> values;
    values.reserve(items.size());
    for (const auto& item : items) {
        values.push_back(string(item));
    }
    return list(std::move(values));
}

PickleValue PickleValue::tuple(std::vector<PickleValue> items)
{
    PickleValue v;
    v.m_kind = Kind::Tuple;
    v.m_items = std::move(items);
    return v;
}

PickleValue PickleValue::dict(Entries entries)
{
    PickleValue v;
    v.m_kind = Kind::Dict;
    v.m_entries = std::move(entries);
    return v;
}

PickleValue PickleValue::tensor(PickledTensor tensor)
{
    if (tensor.sizes.size() != tensor.strides.size()) {
        throw std::invalid_argument("PickleValue::tensor: sizes and strides differ in length");
    }
    PickleValue v;
    v.m_kind = Kind::Tensor;
    v.m_tensor = std::make_shared<const PickledTensor>(std::move(tensor));
    return v;
}

void PickleValue::insert(std::string key, PickleValue value)
{
    if (m_kind != Kind::Dict) {
        throw std::logic_error("PickleValue::insert on a value that is not a dict");
    }
    m_entries.emplace_back(std::move(key), std::move(value));
}

const char* PickleValue::kindName(Kind kind)
{
    switch (kind) {
    case Kind::None: return "None";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Float: return "float";
    case Kind::String: return "str";
    case Kind::List: return "list";
    case Kind::Tuple: return "tuple";
    case Kind::Dict: return "dict";
    case Kind::Tensor: return "tensor";
    }
    return "?";
}

namespace {

void expectKind(PickleValue::Kind actual, std::initializer_list<PickleValue::Kind> wanted)
{
    for (const auto kind : wanted) {
        if (kind == actual) {
            return;
        }
    }
    throw std::invalid_argument(std::string("expected ") + PickleValue::kindName(*wanted.begin()) + ", got "
                                + PickleValue::kindName(actual));
}

} // namespace

bool PickleValue::asBool() const
{
    expectKind(m_kind, {Kind::Bool});
    return m_bool;
}

int64_t PickleValue::asInt() const
{
    expectKind(m_kind, {Kind::Int});
    return m_int;
}

double PickleValue::asFloat() const
{
    expectKind(m_kind, {Kind::Float, Kind::Int});
    return m_kind == Kind::Int ? static_cast<double>(m_int) : m_float;
}

const std::string& PickleValue::asString() const
{
    expectKind(m_kind, {Kind::String});
    return m_string;
}

const std::vector<PickleValue>& PickleValue::items() const
{
    expectKind(m_kind, {Kind::List, Kind::Tuple});
    return m_items;
}

const PickleValue::Entries& PickleValue::entries() const
{
    expectKind(m_kind, {Kind::Dict});
    return m_entries;
}

const PickledTensor& PickleValue::asTensor() const
{
    expectKind(m_kind, {Kind::Tensor});
    return *m_tensor;
}

const PickleValue* PickleValue::find(const std::string& key) const
{
    for (const auto& [name, value] : entries()) {
        if (name == key) {
            return &value;
        }
    }
    return nullptr;
}

// ---------------------------------------------------------------------------------------------

// The opcodes of pickle protocol 2 that we write (CPython's Lib/pickle.py names).
namespace op {
constexpr char MARK = '(';
constexpr char STOP = '.';
constexpr char BININT = 'J';
constexpr char BININT1 = 'K';
constexpr char BININT2 = 'M';
constexpr char NONE = 'N';
constexpr char BINPERSID = 'Q';
constexpr char REDUCE = 'R';
constexpr char BINUNICODE = 'X';
constexpr char APPENDS = 'e';
constexpr char GLOBAL = 'c';
constexpr char EMPTY_DICT = '}';
constexpr char EMPTY_LIST = ']';
constexpr char EMPTY_TUPLE = ')';
constexpr char TUPLE = 't';
constexpr char SETITEMS = 'u';
constexpr char BINFLOAT = 'G';
constexpr char PROTO = '\x80';
constexpr char TUPLE1 = '\x85';
constexpr char TUPLE2 = '\x86';
constexpr char TUPLE3 = '\x87';
constexpr char NEWTRUE = '\x88';
constexpr char NEWFALSE = '\x89';
constexpr char LONG1 = '\x8a';
} // namespace op

class PickleWriter {
public:
    std::string take() { return std::move(m_out); }

    void value(const PickleValue& v)
    {
        using Kind = PickleValue::Kind;
        switch (v.m_kind) {
        case Kind::None: m_out += op::NONE; break;
        case Kind::Bool: m_out += v.m_bool ? op::NEWTRUE : op::NEWFALSE; break;
        case Kind::Int: integer(v.m_int); break;
        case Kind::Float: real(v.m_float); break;
        case Kind::String: string(v.m_string); break;
        case Kind::List:
            m_out += op::EMPTY_LIST;
            if (!v.m_items.empty()) {
                m_out += op::MARK;
                for (const auto& item : v.m_items) {
                    value(item);
                }
                m_out += op::APPENDS;
            }
            break;
        case Kind::Tuple: tuple(v.m_items); break;
        case Kind::Dict:
            m_out += op::EMPTY_DICT;
            if (!v.m_entries.empty()) {
                m_out += op::MARK;
                for (const auto& [key, item] : v.m_entries) {
                    string(key);
                    value(item);
                }
                m_out += op::SETITEMS;
            }
            break;
        case Kind::Tensor: tensor(*v.m_tensor); break;
        }
    }

    void proto() { m_out += {op::PROTO, '\x02'}; }
    void stop() { m_out += op::STOP; }

private:
    template <typename T>
    void little(T value)
    {
        // Pickle's binary integers are little-endian whatever the host.
        using U = std::make_unsigned_t<T>;
        auto bits = static_cast<U>(value);
        for (size_t i = 0; i < sizeof(T); ++i) {
            m_out += static_cast<char>(bits & 0xff);
            bits = static_cast<U>(bits >> 8);
        }
    }

    void integer(int64_t v)
    {
        // The shortest form CPython's pickler would choose, except that ints beyond 32 bits are
        // always 8-byte LONG1: LibTorch's unpickler reads no other LONG1 length.
        if (v >= 0 && v <= 0xff) {
            m_out += op::BININT1;
            m_out += static_cast<char>(v);
        } else if (v >= 0 && v <= 0xffff) {
            m_out += op::BININT2;
            little(static_cast<uint16_t>(v));
        } else if (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()) {
            m_out += op::BININT;
            little(static_cast<int32_t>(v));
        } else {
            m_out += {op::LONG1, '\x08'};
            little(v);
        }
    }

    void real(double v)
    {
        // BINFLOAT is the one big-endian number in a pickle.
        uint64_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        m_out += op::BINFLOAT;
        for (int shift = 56; shift >= 0; shift -= 8) {
            m_out += static_cast<char>((bits >> shift) & 0xff);
        }
    }

    void string(const std::string& s)
    {
        if (s.size() > std::numeric_limits<uint32_t>::max()) {
            throw std::length_error("plainPickle: string longer than 4 GiB");
        }
        m_out += op::BINUNICODE;
        little(static_cast<uint32_t>(s.size()));
        m_out += s;
    }

    void global(const char* module, const std::string& name)
    {
        m_out += op::GLOBAL;
        m_out += module;
        m_out += '\n';
        m_out += name;
        m_out += '\n';
    }

    void tuple(const std::vector<PickleValue>& items)
    {
        static constexpr char kShort[] = {op::EMPTY_TUPLE, op::TUPLE1, op::TUPLE2, op::TUPLE3};
        if (items.size() > 3) {
            m_out += op::MARK;
        }
        for (const auto& item : items) {
            value(item);
        }
        m_out += items.size() <= 3 ? kShort[items.size()] : op::TUPLE;
    }

    void intTuple(const std::vector<int64_t>& values)
    {
        std::vector<PickleValue> items;
        for (const int64_t v : values) {
            items.push_back(PickleValue::integer(v));
        }
        tuple(items);
    }

    // torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks), the
    // storage a persistent id ('storage', torch.<Type>Storage, key, 'cpu', elements): exactly
    // what Python's torch.save writes for a CPU tensor.
    void tensor(const PickledTensor& t)
    {
        global("torch._utils", "_rebuild_tensor_v2");
        m_out += op::MARK;
        m_out += op::MARK;
        string("storage");
        global("torch", t.storageType);
        string(t.key);
        string("cpu");
        integer(t.storageElements);
        m_out += op::TUPLE;
        m_out += op::BINPERSID;
        integer(t.offset);
        intTuple(t.sizes);
        intTuple(t.strides);
        m_out += op::NEWFALSE;
        global("collections", "OrderedDict");
        m_out += op::EMPTY_TUPLE;
        m_out += op::REDUCE;
        m_out += op::TUPLE;
        m_out += op::REDUCE;
    }

    std::string m_out;
};

std::string plainPickle(const PickleValue& value)
{
    PickleWriter writer;
    writer.proto();
    writer.value(value);
    writer.stop();
    return writer.take();
}

} // namespace lbd
