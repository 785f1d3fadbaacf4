#pragma once
// Which process trains a run folder: the trainer holds an exclusive lock on RUN/lock (flock) for
// as long as it runs, with its PID written in the file. The kernel releases the lock when the
// process ends, however it ends (kill -9 included), so a reader can tell a run that is training
// from one whose status.json still says "running" after its process died, and a second trainer
// cannot train the same folder at the same time.
#include <optional>
#include <string>

namespace lbd {

class RunLock {
public:
    // Takes the lock of `runDirectory`; InputError naming the folder and the holder's PID when
    // another process holds it.
    static RunLock acquire(const std::string& runDirectory);
    // The PID of the process that holds the lock, or nothing when no process does.
    static std::optional<long> holder(const std::string& runDirectory);

    RunLock(RunLock&& other) noexcept;
    RunLock& operator=(RunLock&&) = delete;
    RunLock(const RunLock&) = delete;
    ~RunLock(); // releases the lock (the file stays; its content is only informative)

    static const char* kFile;

private:
    explicit RunLock(int fd) : m_fd(fd) {}
    int m_fd = -1;
};

} // namespace lbd
