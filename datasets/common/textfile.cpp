#include "datasets/common/textfile.h"

#include "datasets/common/error.h"

#include <filesystem>
#include <fstream>

namespace lbd {
namespace {

[[noreturn]] void tooLarge(const std::string& path, const ReadLimits& limits)
{
    throw InputError(path + ": text file larger than the limit of " + std::to_string(limits.maxTextFileBytes)
                     + " bytes (maxTextFileBytes)");
}

// Whole contents, at most limits.maxTextFileBytes; nullopt when missing or not openable.
std::optional<std::string> readCapped(const std::string& path, const ReadLimits& limits)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec); // follows symlinks: a link to /dev/zero is a device
    if (!fs::exists(status)) {
        return std::nullopt;
    }
    // Pipes stay allowed (a list from `<(zcat list.gz)`): the count while reading bounds them.
    if (!fs::is_regular_file(status) && !fs::is_fifo(status)) {
        throw InputError(path + ": not a regular file" + (fs::is_directory(status) ? " (a folder)" : ""));
    }
    if (fs::is_regular_file(status)) {
        const auto size = fs::file_size(path, ec);
        if (!ec && size > static_cast<uintmax_t>(limits.maxTextFileBytes)) {
            tooLarge(path, limits);
        }
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    std::string text;
    std::string chunk(1 << 16, '\0');
    while (in) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        const auto read = static_cast<size_t>(in.gcount());
        if (static_cast<int64_t>(text.size() + read) > limits.maxTextFileBytes) {
            tooLarge(path, limits);
        }
        text.append(chunk, 0, read);
    }
    if (in.bad()) {
        throw InputError(path + ": cannot read file");
    }
    return text;
}

} // namespace

bool forEachTextLine(const std::string& path, const ReadLimits& limits, const std::function<void(std::string_view)>& take)
{
    const std::optional<std::string> text = readCapped(path, limits);
    if (!text) {
        return false;
    }
    const std::string_view all(*text);
    size_t start = 0;
    while (start < all.size()) {
        size_t end = all.find('\n', start);
        const size_t next = end == std::string_view::npos ? all.size() : end + 1;
        end = end == std::string_view::npos ? all.size() : end;
        std::string_view line = all.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        take(line);
        start = next;
    }
    return true;
}

std::optional<std::vector<std::string>> readTextLines(const std::string& path, const ReadLimits& limits)
{
    std::vector<std::string> lines;
    if (!forEachTextLine(path, limits, [&](std::string_view line) { lines.emplace_back(line); })) {
        return std::nullopt;
    }
    return lines;
}

std::optional<std::vector<std::string>> readNameLines(const std::string& path, const ReadLimits& limits)
{
    auto lines = readTextLines(path, limits);
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
