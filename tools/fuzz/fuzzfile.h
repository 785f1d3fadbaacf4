#pragma once
// The readers take paths: each fuzz input is written to a file of this process's own temporary
// folder (the fuzzer's workers run in parallel) and read back from there, through the same
// path-taking functions the app calls.
//
// The folder is on tmpfs (/dev/shm) when the machine has one: on a disk file system every
// rewrite of a file truncates it, and ext4 waits for the block layer (perf on fuzz_cifar: most
// of the time in ext4_setattr and the I/O it starts, about 1,000 executions a second). tmpfs
// gives the readers the same files through the same system calls, without the disk.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace lbd::fuzz {

inline std::string scratchParent()
{
    if (const char* chosen = std::getenv("LBD_FUZZ_SCRATCH")) {
        return chosen;
    }
    std::error_code ec;
    return std::filesystem::is_directory("/dev/shm", ec) && access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
}

inline const std::string& scratchFolder()
{
    // Never destroyed: the exit handler below runs after static destructors registered later.
    static const std::string& folder = *[] {
        auto* name = new std::string(scratchParent() + "/lbd-fuzz-" + std::to_string(getpid()) + "-XXXXXX");
        if (!mkdtemp(name->data())) {
            std::abort();
        }
        // tmpfs is memory: the folder goes when the fuzzer exits normally (-runs or
        // -max_total_time reached); after a crash it stays, with the input that caused it.
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(scratchFolder(), ec);
        });
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
        std::abort(); // a full scratch folder is not a finding: stop rather than fuzz empty files
    }
    return path;
}

} // namespace lbd::fuzz
