#pragma once
// The readers take paths: each fuzz input is written to a file of this process's own temporary
// folder (the fuzzer's workers run in parallel) and read back from there.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include <unistd.h>

namespace lbd::fuzz {

inline const std::string& scratchFolder()
{
    static const std::string folder = [] {
        std::string name = "/tmp/lbd-fuzz-" + std::to_string(getpid()) + "-XXXXXX";
        if (!mkdtemp(name.data())) {
            std::abort();
        }
        return name;
    }();
    return folder;
}

inline std::string writeScratchFile(const std::string& name, const uint8_t* data, size_t size)
{
    const std::string path = scratchFolder() + "/" + name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) {
        std::abort(); // a full /tmp is not a finding: stop rather than fuzz empty files
    }
    return path;
}

} // namespace lbd::fuzz
