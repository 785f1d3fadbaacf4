#pragma once
// What a benchmark record needs to say where it was measured.
#include <string>

namespace lbd {

std::string cpuModelName();      // from /proc/cpuinfo
std::string hostName();
std::string currentDateTimeUtc(); // ISO 8601

} // namespace lbd
