#include "core/train/runlog.h"

#include <cerrno>
#include <ctime>
#include <filesystem>

#include <fcntl.h>
#include <unistd.h>

namespace lbd {

const char* RunLog::kFile = "log.txt";

namespace {

std::string timestamp()
{
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char text[32] = {};
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &local);
    return text;
}

} // namespace

RunLog::RunLog(std::string runDirectory) : m_path((std::filesystem::path(std::move(runDirectory)) / kFile).string()) {}

void RunLog::append(const std::string& message)
{
    std::string text = message;
    for (char& c : text) {
        c = (c == '\n' || c == '\r') ? ' ' : c; // one message, one line: readers split on newlines
    }
    m_pending.push_back(timestamp() + "  " + text + "\n");
    size_t written = 0;
    while (written < m_pending.size() && writeLine(m_pending[written])) {
        ++written;
    }
    m_pending.erase(m_pending.begin(), m_pending.begin() + static_cast<std::ptrdiff_t>(written));
    if (m_pending.size() > 1000) {
        m_pending.erase(m_pending.begin()); // a folder that never appears must not grow memory
    }
}

bool RunLog::writeLine(const std::string& line) const
{
    const int fd = ::open(m_path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        return false; // the folder does not exist yet (or cannot be written): keep the line
    }
    ssize_t done = 0;
    do {
        done = ::write(fd, line.data(), line.size());
    } while (done < 0 && errno == EINTR);
    ::close(fd);
    return done == static_cast<ssize_t>(line.size());
}

} // namespace lbd
