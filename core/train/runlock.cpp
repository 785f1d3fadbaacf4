#include "core/train/runlock.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"

#include <cerrno>
#include <filesystem>
#include <string>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace lbd {

const char* RunLock::kFile = "lock";

namespace {

std::string lockPath(const std::string& runDirectory)
{
    return (std::filesystem::path(runDirectory) / RunLock::kFile).string();
}

long pidIn(int fd)
{
    char text[32] = {};
    const ssize_t got = ::pread(fd, text, sizeof text - 1, 0);
    return got > 0 ? std::strtol(text, nullptr, 10) : 0;
}

} // namespace

RunLock RunLock::acquire(const std::string& runDirectory)
{
    const std::string path = lockPath(runDirectory);
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        throw RunError(fileErrorMessage(path, errno));
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const long pid = pidIn(fd);
        ::close(fd);
        throw InputError(runDirectory + ": is being trained by another process" + (pid > 0 ? " (PID " + std::to_string(pid) + ")" : "")
                         + "; wait for it or stop it first");
    }
    const std::string text = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
        const int error = errno;
        ::close(fd);
        throw RunError(fileErrorMessage(path, error));
    }
    return RunLock(fd);
}

std::optional<long> RunLock::holder(const std::string& runDirectory)
{
    const int fd = ::open(lockPath(runDirectory).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return std::nullopt; // never trained here, or the file was removed
    }
    std::optional<long> pid;
    if (::flock(fd, LOCK_SH | LOCK_NB) != 0) {
        pid = pidIn(fd); // held exclusively by a trainer
    } else {
        ::flock(fd, LOCK_UN);
    }
    ::close(fd);
    return pid;
}

RunLock::RunLock(RunLock&& other) noexcept : m_fd(other.m_fd)
{
    other.m_fd = -1;
}

RunLock::~RunLock()
{
    if (m_fd >= 0) {
        ::flock(m_fd, LOCK_UN);
        ::close(m_fd);
    }
}

} // namespace lbd
