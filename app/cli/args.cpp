#include "app/cli/args.h"

#include "core/util/error.h"

#include <cmath>

namespace lbd::cli {

Args::Args(int argc, char** argv)
{
    for (int i = 0; i < argc; ++i) {
        const std::string word = argv[i];
        if (word.rfind("--", 0) == 0 && word.size() > 2) {
            std::string name = word.substr(2);
            std::optional<std::string> value;
            if (const auto equals = name.find('='); equals != std::string::npos) {
                value = name.substr(equals + 1);
                name = name.substr(0, equals);
            } else if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
                value = argv[++i];
            }
            m_options.emplace(name, value);
        } else {
            m_positional.push_back(word);
        }
    }
}

bool Args::flag(const std::string& name)
{
    m_used.insert(name);
    const auto found = m_options.find(name);
    if (found == m_options.end()) {
        return false;
    }
    if (found->second) {
        // "--json file" would swallow a positional argument: give it back.
        m_positional.push_back(*found->second);
        found->second.reset();
    }
    return true;
}

std::optional<std::string> Args::value(const std::string& name)
{
    m_used.insert(name);
    const auto found = m_options.find(name);
    if (found == m_options.end()) {
        return std::nullopt;
    }
    if (!found->second) {
        throw InputError("--" + name + " needs a value");
    }
    return found->second;
}

std::string Args::value(const std::string& name, const std::string& fallback)
{
    return value(name).value_or(fallback);
}

double Args::number(const std::string& name, double fallback)
{
    const auto text = value(name);
    if (!text) {
        return fallback;
    }
    size_t used = 0;
    double result = 0;
    try {
        result = std::stod(*text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text->size() || !std::isfinite(result)) {
        throw InputError("--" + name + " must be a finite number, got '" + *text + "'");
    }
    return result;
}

int64_t Args::integer(const std::string& name, int64_t fallback)
{
    const auto text = value(name);
    if (!text) {
        return fallback;
    }
    size_t used = 0;
    long long result = 0;
    try {
        result = std::stoll(*text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text->size()) {
        throw InputError("--" + name + " must be an integer, got '" + *text + "'");
    }
    return result;
}

std::vector<std::string> Args::values(const std::string& name)
{
    m_used.insert(name);
    std::vector<std::string> result;
    const auto [begin, end] = m_options.equal_range(name);
    for (auto it = begin; it != end; ++it) {
        if (!it->second) {
            throw InputError("--" + name + " needs a value");
        }
        result.push_back(*it->second);
    }
    return result;
}

void Args::rejectUnknown() const
{
    for (const auto& [name, value] : m_options) {
        if (m_used.count(name) == 0) {
            throw InputError("unknown option --" + name + " (see lbd --help)");
        }
    }
}

} // namespace lbd::cli
