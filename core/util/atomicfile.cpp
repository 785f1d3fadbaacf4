#include "core/util/atomicfile.h"

#include "core/util/error.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lbd {
namespace {

namespace fs = std::filesystem;

// Closes the descriptor and removes the temporary file unless released: every early exit
// (an exception, a failed call) cleans up.
class TempFile {
public:
    TempFile(std::string path, int fd) : m_path(std::move(path)), m_fd(fd) {}
    ~TempFile()
    {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
        if (!m_kept) {
            ::unlink(m_path.c_str());
        }
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    int fd() const { return m_fd; }
    // Closes now so that the close's own error (delayed write failures) is seen.
    int close()
    {
        const int result = ::close(m_fd);
        m_fd = -1;
        return result;
    }
    void keep() { m_kept = true; }

private:
    std::string m_path;
    int m_fd = -1;
    bool m_kept = false;
};

} // namespace

std::string fileErrorMessage(const std::string& path, int error)
{
    const std::string reason = std::strerror(error);
    if (error == ENOSPC || error == EDQUOT) {
        return "disk full: " + path + " (" + reason + ")";
    }
    return path + ": " + reason;
}

void checkOutputFilePath(const std::string& path)
{
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        throw InputError(path + ": is a folder, not a file");
    }
}

void writeFileAtomically(const std::string& path, const std::string& contents)
{
    static std::atomic<unsigned> counter{0};
    const fs::path target(path);
    std::error_code ec;
    checkOutputFilePath(path);
    if (target.has_parent_path()) {
        fs::create_directories(target.parent_path(), ec);
        if (ec) {
            throw RunError(fileErrorMessage(path, ec.value()) + " (creating its folder " + target.parent_path().string() + ")");
        }
    }
    const std::string temp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        throw RunError(fileErrorMessage(path, errno));
    }
    TempFile file(temp, fd);
    const char* data = contents.data();
    size_t left = contents.size();
    while (left > 0) {
        const ssize_t written = ::write(file.fd(), data, left);
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw RunError(fileErrorMessage(path, errno));
        }
        data += written;
        left -= static_cast<size_t>(written);
    }
    // On the disk before the rename makes it the file: a crash must not leave an empty target.
    if (::fsync(file.fd()) != 0 || file.close() != 0) {
        throw RunError(fileErrorMessage(path, errno));
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        throw RunError(fileErrorMessage(path, errno));
    }
    file.keep();
}

std::string readTextFile(const std::string& path, int64_t maxBytes)
{
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        throw InputError(path + ": is a folder, not a file");
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        throw InputError(errno == ENOENT ? path + ": no such file" : fileErrorMessage(path, errno));
    }
    TempFile guard(path, fd); // closes; the file itself is kept
    guard.keep();
    // The file's own size first: a large file is refused before a byte of it is read. (Reading
    // still counts, for files whose size says nothing: /dev/zero, pipes.)
    struct stat info {};
    if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && static_cast<int64_t>(info.st_size) > maxBytes) {
        throw InputError(path + ": " + std::to_string(static_cast<int64_t>(info.st_size) >> 20) + " MiB, larger than "
                         + std::to_string(maxBytes >> 20) + " MiB, the limit for a text input (is it the right file?)");
    }
    std::string contents;
    char buffer[1 << 16];
    while (true) {
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw InputError(fileErrorMessage(path, errno));
        }
        if (got == 0) {
            return contents;
        }
        if (static_cast<int64_t>(contents.size()) + got > maxBytes) {
            throw InputError(path + ": larger than " + std::to_string(maxBytes >> 20)
                             + " MiB, the limit for a text input (is it the right file?)");
        }
        contents.append(buffer, static_cast<size_t>(got));
    }
}

} // namespace lbd
