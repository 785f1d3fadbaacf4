#pragma once
// Reads a whole file that may be gzip-compressed (detected by content, not by name): how the IDX
// and CIFAR readers take their bytes, so a cap on what a data file may expand to belongs here.
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

// Throws InputError naming `path` if it is missing, unreadable, or a damaged/truncated gzip stream.
std::vector<uint8_t> readMaybeGzipFile(const std::string& path);

} // namespace lbd
