#pragma once
// Reading config objects with errors that name the key: "train.epochs must be an integer".
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/util/error.h"

namespace lbd {

// A JSON integer within T's range, for fields that hold counts and epochs. A float (even 2e82)
// is refused rather than converted: converting an out-of-range double to an integer is
// undefined behaviour (UBSan, fuzz_runfolder on a metrics.jsonl line). Throws nlohmann's
// type_error, so the readers' catch (json::exception) still names the file.
template <typename T>
T integerValue(const nlohmann::json& value)
{
    if (value.is_number_integer()) {
        const bool isUnsigned = value.is_number_unsigned();
        if (isUnsigned ? value.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<T>::max())
                       : value.get<int64_t>() >= static_cast<int64_t>(std::numeric_limits<T>::min())
                             && value.get<int64_t>() <= static_cast<int64_t>(std::numeric_limits<T>::max())) {
            return isUnsigned ? static_cast<T>(value.get<uint64_t>()) : static_cast<T>(value.get<int64_t>());
        }
    }
    throw nlohmann::json::type_error::create(302, "expected an integer in range, got " + value.dump().substr(0, 40), nullptr);
}

// `object[key]` as integerValue, or `fallback` when the key is absent.
template <typename T>
T integerOr(const nlohmann::json& object, const char* key, T fallback)
{
    return object.is_object() && object.contains(key) ? integerValue<T>(object.at(key)) : fallback;
}

// A JSON array of integers (each as integerValue).
template <typename T>
std::vector<T> integerVector(const nlohmann::json& value)
{
    if (!value.is_array()) {
        throw nlohmann::json::type_error::create(302, "expected an array of integers", nullptr);
    }
    std::vector<T> out;
    out.reserve(value.size());
    for (const nlohmann::json& item : value) {
        out.push_back(integerValue<T>(item));
    }
    return out;
}

// Typed fields of a file's JSON object, for the readers of run files: an absent key gives
// `fallback`; a value of another type is an InputError "SOURCE: field KEY must be a number (found
// a string)", never nlohmann's raw type_error (which `lbd` would report as exit 1 without the file).
std::string textField(const nlohmann::json& object, const char* key, const std::string& source, std::string fallback = {});
int64_t integerField(const nlohmann::json& object, const char* key, const std::string& source, int64_t fallback = 0);
// Throws InputError "SOURCE: field KEY must be WHAT (found a string)": the one wording of the typed
// errors, for readers that walk a file themselves (report.json names paths like per_class[3].total).
[[noreturn]] void throwWrongJsonType(const std::string& source, const std::string& key, const std::string& what,
                                     const nlohmann::json& found);
// Throws InputError "SOURCE: field KEY = VALUE is outside RANGE (WHY)": the one wording of a value of
// the right type that the file's writer cannot have produced (run files, issue 37). `value` is cut
// to 40 characters; `why` (the bound's origin, e.g. "its field epochs") may be empty.
[[noreturn]] void throwOutOfRange(const std::string& source, const std::string& key, const std::string& value,
                                  const std::string& range, const std::string& why = {});
// `object` itself must be a JSON object: InputError "SOURCE: must be a JSON object (found an array)".
void requireObject(const nlohmann::json& object, const std::string& source);
// Required fields, typed the same way ("SOURCE: field image.channels is missing" / "... must be an
// integer (found a string)"); `key` may name a nested field with dots.
const nlohmann::json& requiredField(const nlohmann::json& object, const std::string& key, const std::string& source);
int64_t requiredInteger(const nlohmann::json& object, const std::string& key, const std::string& source);
std::vector<std::string> requiredTextList(const nlohmann::json& object, const std::string& key, const std::string& source);
std::vector<int64_t> requiredIntegerList(const nlohmann::json& object, const std::string& key, const std::string& source);
std::vector<double> requiredNumberList(const nlohmann::json& object, const std::string& key, const std::string& source);

class JsonReader {
public:
    JsonReader(const nlohmann::json& object, std::string context);

    bool has(const std::string& key) const { return m_object.contains(key); }
    std::string key(const std::string& key) const { return m_context + "." + key; }
    const nlohmann::json& child(const std::string& key);

    void read(const std::string& key, std::string& out);
    void read(const std::string& key, bool& out);
    void read(const std::string& key, double& out);   // finite only
    void read(const std::string& key, std::optional<double>& out); // finite, or null for none
    void read(const std::string& key, int64_t& out);
    void read(const std::string& key, uint64_t& out);
    void read(const std::string& key, int& out);      // within the range of int
    void read(const std::string& key, std::vector<double>& out);

    // Throws InputError for keys that no read() or child() asked for.
    void rejectUnknown() const;

private:
    const nlohmann::json& m_object;
    std::string m_context;
    std::set<std::string> m_seen;
};

} // namespace lbd
