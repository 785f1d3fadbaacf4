#pragma once
// Reads a whole file that may be gzip-compressed (detected by content, not by name).
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

// Throws InputError naming `path` if it is missing, unreadable, or a damaged/truncated gzip stream.
std::vector<uint8_t> readMaybeGzipFile(const std::string& path);

} // namespace lbd
