#include "core/util/machineinfo.h"

#include <ctime>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <vector>

#include <unistd.h>

namespace lbd {
namespace {

std::mutex g_commandLineMutex;
std::string g_commandLine; // empty: not set

// One argument as a POSIX shell reads it back: plain words as they are, others in single quotes.
std::string shellQuoted(const std::string& word)
{
    if (!word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+=/.,:@%")
                             == std::string::npos) {
        return word;
    }
    std::string quoted = "'";
    for (const char c : word) {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

std::string joinQuoted(const std::vector<std::string>& words)
{
    std::string text;
    for (const std::string& word : words) {
        text += (text.empty() ? "" : " ") + shellQuoted(word);
    }
    return text;
}

} // namespace

std::string cpuModelName()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(colon + 2);
        }
    }
    return "unknown CPU";
}

std::string hostName()
{
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    return name;
}

std::string currentDateTimeUtc()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

std::string gpuDriverVersion()
{
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 ..." : the first word with a dot after "Module".
    std::ifstream in("/proc/driver/nvidia/version");
    std::string line;
    if (!std::getline(in, line)) {
        return "none";
    }
    const auto module = line.find("Module");
    std::istringstream words(line.substr(module == std::string::npos ? 0 : module + 6));
    for (std::string word; words >> word;) {
        if (word.find('.') != std::string::npos && word.find_first_not_of("0123456789.") == std::string::npos) {
            return word;
        }
    }
    return line;
}

void setCommandLine(int argc, const char* const* argv)
{
    std::vector<std::string> words(argv, argv + argc);
    setCommandLine(joinQuoted(words));
}

void setCommandLine(const std::string& text)
{
    const std::lock_guard<std::mutex> lock(g_commandLineMutex);
    g_commandLine = text;
}

std::string commandLine()
{
    {
        const std::lock_guard<std::mutex> lock(g_commandLineMutex);
        if (!g_commandLine.empty()) {
            return g_commandLine;
        }
    }
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::string> words;
    std::string word;
    for (const char c : raw) {
        if (c == '\0') {
            words.push_back(word);
            word.clear();
        } else {
            word += c;
        }
    }
    return words.empty() ? std::string("unknown") : joinQuoted(words);
}

} // namespace lbd
