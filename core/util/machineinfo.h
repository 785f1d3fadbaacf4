#pragma once
// What a benchmark record and a run's provenance need to say where and how it was made.
#include <string>

namespace lbd {

std::string cpuModelName();      // from /proc/cpuinfo
std::string hostName();
std::string currentDateTimeUtc(); // ISO 8601
// The NVIDIA kernel driver's version (/proc/driver/nvidia/version); "none" without one.
std::string gpuDriverVersion();

// The command line recorded in every run this process starts: `lbd` sets its argv (shell-quoted),
// the desktop app "GUI". Unset, it is this process's own (/proc/self/cmdline), e.g. a test's.
void setCommandLine(int argc, const char* const* argv);
void setCommandLine(const std::string& text);
std::string commandLine();

} // namespace lbd
