#include "core/util/atomicfile.h"

#include "core/util/error.h"

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace lbd {

void writeFileAtomically(const std::string& path, const std::function<void(const std::string&)>& write)
{
    namespace fs = std::filesystem;
    static std::atomic<unsigned> counter{0};
    const fs::path target(path);
    std::error_code ec;
    if (target.has_parent_path()) {
        fs::create_directories(target.parent_path(), ec);
    }
    const std::string temp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    try {
        write(temp);
    } catch (...) {
        fs::remove(temp, ec);
        throw;
    }
    fs::rename(temp, target, ec);
    if (ec) {
        fs::remove(temp, ec);
        throw RunError(path + ": cannot replace file (" + ec.message() + ")");
    }
}

void writeFileAtomically(const std::string& path, const std::string& contents)
{
    writeFileAtomically(path, [&](const std::string& temp) {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
        out.flush();
        if (!out) {
            throw RunError(path + ": cannot write file (disk full or no permission?)");
        }
    });
}

std::string readTextFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw InputError(path + ": file not found or unreadable");
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

} // namespace lbd
