#pragma once
// RUN/log.txt: the engine's messages (TrainingCallbacks::onMessage) with the local time, so a run
// trained headless on a server keeps what it said, and the GUI can show it when following the run.
// Append-only: each line is one write() on a file opened with O_APPEND, so a reader never sees a
// line torn by the next one, a resumed run adds to the same file, and a crash loses at most the
// line being written. Messages sent before the run folder exists (loading the data of a new run)
// are kept and written with the first line that can be; a run that is refused before its folder
// is made leaves no log behind.
#include <string>
#include <vector>

namespace lbd {

class RunLog {
public:
    explicit RunLog(std::string runDirectory);

    // Never throws: a log that cannot be written must not fail a run.
    void append(const std::string& message);

    static const char* kFile;

private:
    bool writeLine(const std::string& line) const;

    std::string m_path;
    std::vector<std::string> m_pending;
};

} // namespace lbd
