#pragma once
// Reads a whole file that may be gzip-compressed (detected by content, not by name): how the IDX
// and CIFAR readers take their bytes, so the cap on what a data file may expand to lives here.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "datasets/common/readlimits.h"

namespace lbd {

// Throws InputError naming `path` if it is missing, not a regular file, unreadable, or a
// damaged/truncated gzip stream, and as soon as its (decompressed) data grows past what is left of
// limits.maxInMemoryBytes after `alreadyRead` bytes of earlier files: a gzip bomb stops there.
std::vector<uint8_t> readMaybeGzipFile(const std::string& path, const ReadLimits& limits, int64_t alreadyRead = 0);

// The first `count` (decompressed) bytes of `path`, fewer when it is shorter: lets a reader check
// what its header claims before reading the rest. Throws as readMaybeGzipFile does.
std::vector<uint8_t> readMaybeGzipPrefix(const std::string& path, size_t count);

} // namespace lbd
