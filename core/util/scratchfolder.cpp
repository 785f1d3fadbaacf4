#include "core/util/scratchfolder.h"

#include "core/util/error.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace lbd {

ScratchFolder::ScratchFolder(const std::string& prefix, const std::filesystem::path& parent)
{
    std::error_code ignored;
    const std::filesystem::path root = parent.empty() ? std::filesystem::temp_directory_path(ignored) : parent;
    std::string pattern = (root / (prefix + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) {
        throw RunError("no scratch folder could be made in " + root.string() + ": " + std::strerror(errno));
    }
    m_path = pattern;
}

ScratchFolder::~ScratchFolder()
{
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
}

} // namespace lbd
