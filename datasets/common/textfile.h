#pragma once
// Small text inputs of the readers (list files, class-name files), read in one place, under
// limits.maxTextFileBytes.
#include <optional>
#include <string>
#include <vector>

#include "datasets/common/readlimits.h"

namespace lbd {

// The lines of a text file, each without its line end ("\n" or "\r\n"); nullopt when the file does
// not exist or cannot be opened. Throws InputError naming the file when it is not a regular file
// (or a pipe) or holds more than limits.maxTextFileBytes: counted while reading too, since a pipe
// or a /proc file reports no size.
std::optional<std::vector<std::string>> readTextLines(const std::string& path, const ReadLimits& limits = {});

// Class names, one per line: trailing spaces dropped, empty lines skipped; nullopt and errors as
// readTextLines.
std::optional<std::vector<std::string>> readNameLines(const std::string& path, const ReadLimits& limits = {});

} // namespace lbd
