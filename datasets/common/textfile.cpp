#include "datasets/common/textfile.h"

#include <fstream>

namespace lbd {

std::optional<std::vector<std::string>> readTextLines(const std::string& path)
{
    std::ifstream in(path);
    if (!in) {
        return std::nullopt;
    }
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

std::optional<std::vector<std::string>> readNameLines(const std::string& path)
{
    auto lines = readTextLines(path);
    if (!lines) {
        return std::nullopt;
    }
    std::vector<std::string> names;
    for (std::string& line : *lines) {
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) {
            line.pop_back();
        }
        if (!line.empty()) {
            names.push_back(std::move(line));
        }
    }
    return names;
}

} // namespace lbd
