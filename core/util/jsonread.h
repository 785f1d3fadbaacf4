#pragma once
// Reading config objects with errors that name the key: "train.epochs must be an integer".
#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>
#include <set>
#include <string>

#include "core/util/error.h"

namespace lbd {

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
