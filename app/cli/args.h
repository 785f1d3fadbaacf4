#pragma once
// Command-line options of one verb: `--key value`, `--flag`, and positional arguments.
// Every option a verb does not read is reported as unknown (exit 2), so typos never pass silently.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lbd::cli {

class Args {
public:
    Args(int argc, char** argv);

    bool flag(const std::string& name);                       // --name
    std::optional<std::string> value(const std::string& name); // --name VALUE
    std::string value(const std::string& name, const std::string& fallback);
    double number(const std::string& name, double fallback);   // finite, else InputError naming --name
    int64_t integer(const std::string& name, int64_t fallback);
    std::vector<std::string> values(const std::string& name);  // repeated --name VALUE
    const std::vector<std::string>& positional() const { return m_positional; }

    // Throws InputError for any option that no call above asked for.
    void rejectUnknown() const;

private:
    std::multimap<std::string, std::optional<std::string>> m_options;
    std::vector<std::string> m_positional;
    mutable std::set<std::string> m_used;
};

} // namespace lbd::cli
