#include "core/util/jsonread.h"

#include <limits>

namespace lbd {

namespace {

// "a string", "an array", "a number": nlohmann's type names with their article.
std::string foundType(const nlohmann::json& value)
{
    const std::string name = value.is_number() ? "number" : value.type_name();
    return (name == "array" || name == "object" ? "an " : "a ") + name;
}

} // namespace

void throwWrongJsonType(const std::string& source, const std::string& key, const std::string& what,
                        const nlohmann::json& found)
{
    throw InputError(source + ": field " + key + " must be " + what + " (found " + foundType(found) + ")");
}

void throwOutOfRange(const std::string& source, const std::string& key, const std::string& value, const std::string& range,
                     const std::string& why)
{
    throw InputError(source + ": field " + key + " = " + value.substr(0, 40) + " is outside " + range
                     + (why.empty() ? std::string() : " (" + why + ")"));
}

void requireObject(const nlohmann::json& object, const std::string& source)
{
    if (!object.is_object()) {
        throw InputError(source + ": must be a JSON object (found " + foundType(object) + ")");
    }
}

std::string textField(const nlohmann::json& object, const char* key, const std::string& source, std::string fallback)
{
    requireObject(object, source);
    const auto it = object.find(key);
    if (it == object.end()) {
        return fallback;
    }
    if (!it->is_string()) {
        throw InputError(source + ": field " + key + " must be a string (found " + foundType(*it) + ")");
    }
    return it->get<std::string>();
}

int64_t integerField(const nlohmann::json& object, const char* key, const std::string& source, int64_t fallback)
{
    requireObject(object, source);
    const auto it = object.find(key);
    if (it == object.end()) {
        return fallback;
    }
    if (!it->is_number_integer()
        || (it->is_number_unsigned() && it->get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int>::max()))
        || (!it->is_number_unsigned() && (it->get<int64_t>() < std::numeric_limits<int>::min()
                                         || it->get<int64_t>() > std::numeric_limits<int>::max()))) {
        throw InputError(source + ": field " + key + " must be an integer (found " + foundType(*it)
                         + (it->is_number() ? " " + it->dump().substr(0, 24) : std::string()) + ")");
    }
    return it->get<int64_t>();
}

const nlohmann::json& requiredField(const nlohmann::json& object, const std::string& key, const std::string& source)
{
    const nlohmann::json* node = &object;
    size_t begin = 0;
    while (true) {
        requireObject(*node, source);
        const size_t dot = key.find('.', begin);
        const std::string part = key.substr(begin, dot == std::string::npos ? std::string::npos : dot - begin);
        const auto it = node->find(part);
        if (it == node->end()) {
            throw InputError(source + ": field " + key + " is missing");
        }
        node = &*it;
        if (dot == std::string::npos) {
            return *node;
        }
        begin = dot + 1;
    }
}

namespace {

template <typename T, typename Check>
std::vector<T> requiredList(const nlohmann::json& object, const std::string& key, const std::string& source,
                            const char* what, Check isValid)
{
    const nlohmann::json& list = requiredField(object, key, source);
    if (!list.is_array()) {
        throw InputError(source + ": field " + key + " must be a list of " + what + " (found " + foundType(list) + ")");
    }
    std::vector<T> values;
    values.reserve(list.size());
    for (const nlohmann::json& item : list) {
        if (!isValid(item)) {
            throw InputError(source + ": field " + key + " must be a list of " + what + " (found " + foundType(item)
                             + " in it)");
        }
        values.push_back(item.get<T>());
    }
    return values;
}

} // namespace

int64_t requiredInteger(const nlohmann::json& object, const std::string& key, const std::string& source)
{
    const nlohmann::json& value = requiredField(object, key, source);
    if (!value.is_number_integer()
        || (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))) {
        throw InputError(source + ": field " + key + " must be an integer (found " + foundType(value) + ")");
    }
    return value.get<int64_t>();
}

std::vector<std::string> requiredTextList(const nlohmann::json& object, const std::string& key, const std::string& source)
{
    return requiredList<std::string>(object, key, source, "strings", [](const nlohmann::json& v) { return v.is_string(); });
}

std::vector<int64_t> requiredIntegerList(const nlohmann::json& object, const std::string& key, const std::string& source)
{
    return requiredList<int64_t>(object, key, source, "integers", [](const nlohmann::json& v) {
        return v.is_number_integer()
            && !(v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
    });
}

std::vector<double> requiredNumberList(const nlohmann::json& object, const std::string& key, const std::string& source)
{
    return requiredList<double>(object, key, source, "numbers", [](const nlohmann::json& v) { return v.is_number(); });
}

JsonReader::JsonReader(const nlohmann::json& object, std::string context) : m_object(object), m_context(std::move(context))
{
    if (!object.is_object()) {
        throw InputError(m_context + " must be a JSON object");
    }
}

const nlohmann::json& JsonReader::child(const std::string& name)
{
    m_seen.insert(name);
    return m_object.at(name);
}

void JsonReader::read(const std::string& name, std::string& out)
{
    m_seen.insert(name);
    if (!has(name)) {
        return;
    }
    const auto& value = m_object.at(name);
    if (!value.is_string()) {
        throw InputError(key(name) + " must be a string");
    }
    out = value.get<std::string>();
}

void JsonReader::read(const std::string& name, bool& out)
{
    m_seen.insert(name);
    if (!has(name)) {
        return;
    }
    const auto& value = m_object.at(name);
    if (!value.is_boolean()) {
        throw InputError(key(name) + " must be true or false");
    }
    out = value.get<bool>();
}

void JsonReader::read(const std::string& name, double& out)
{
    m_seen.insert(name);
    if (!has(name)) {
        return;
    }
    const auto& value = m_object.at(name);
    if (!value.is_number()) {
        throw InputError(key(name) + " must be a number");
    }
    const double number = value.get<double>();
    if (!std::isfinite(number)) {
        throw InputError(key(name) + " must be finite");
    }
    out = number;
}

void JsonReader::read(const std::string& name, std::optional<double>& out)
{
    m_seen.insert(name);
    if (!has(name)) {
        return;
    }
    if (m_object.at(name).is_null()) {
        out.reset();
        return;
    }
    double number = 0.0;
    read(name, number);
    out = number;
}

void JsonReader::read(const std::string& name, int64_t& out)
{
    m_seen.insert(name);
    if (!has(name)) {
        return;
    }
    const auto& value = m_object.at(name);
    if (!value.is_number_integer()) {
        throw InputError(key(name) + " must be an integer");
    }
    out = value.get<int64_t>();
}

void JsonReader::read(const std::string& name, uint64_t& out)
{
    int64_t signedValue = static_cast<int64_t>(out);
    read(name, signedValue);
    if (signedValue < 0) {
        throw InputError(key(name) + " must not be negative");
    }
    out = static_cast<uint64_t>(signedValue);
}

void JsonReader::read(const std::string& name, int& out)
{
    int64_t wide = out;
    read(name, wide);
    if (wide < std::numeric_limits<int>::min() || wide > std::numeric_limits<int>::max()) {
        throw InputError(key(name) + " is out of range (" + std::to_string(wide) + ")");
    }
    out = static_cast<int>(wide);
}

void JsonReader::read(const std::string& name, std::vector<double>& out)
{
    m_seen.insert(name);
    if (!has(name)) {
        return;
    }
    const auto& value = m_object.at(name);
    if (!value.is_array()) {
        throw InputError(key(name) + " must be an array of numbers");
    }
    std::vector<double> numbers;
    for (const auto& item : value) {
        if (!item.is_number() || !std::isfinite(item.get<double>())) {
            throw InputError(key(name) + " must contain finite numbers only");
        }
        numbers.push_back(item.get<double>());
    }
    out = std::move(numbers);
}

void JsonReader::rejectUnknown() const
{
    for (const auto& item : m_object.items()) {
        if (m_seen.count(item.key()) == 0) {
            throw InputError(key(item.key()) + " is not a known setting");
        }
    }
}

} // namespace lbd
