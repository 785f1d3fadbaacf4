#pragma once
// A folder of one's own under a parent (the temporary directory by default), named PREFIX-XXXXXX
// by mkdtemp, removed with everything in it when the object goes: the scratch folders of the
// ranks, of their launcher and of the decode benchmark. Torch-free.
#include <filesystem>
#include <string>

namespace lbd {

class ScratchFolder {
public:
    // RunError naming the parent when the folder cannot be made.
    explicit ScratchFolder(const std::string& prefix, const std::filesystem::path& parent = {});
    ~ScratchFolder();
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;

    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

} // namespace lbd
