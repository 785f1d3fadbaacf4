#pragma once
// Small text inputs of the readers (list files, class-name files), read in one place, under
// limits.maxTextFileBytes.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datasets/common/readlimits.h"

namespace lbd {

// The lines of a text file, each without its line end ("\n" or "\r\n"); nullopt when the file does
// not exist or cannot be opened. Throws InputError naming the file when it is not a regular file
// (or a pipe) or holds more than limits.maxTextFileBytes: counted while reading too, since a pipe
// or a /proc file reports no size.
std::optional<std::vector<std::string>> readTextLines(const std::string& path, const ReadLimits& limits = {});

// The same lines handed one by one to `take`, without a copy of each: a reader that keeps only
// what it parses from a line (a list file's path and label) holds the text once, not twice.
// False when the file does not exist or cannot be opened; errors as readTextLines.
bool forEachTextLine(const std::string& path, const ReadLimits& limits, const std::function<void(std::string_view)>& take);

// Class names, one per line: trailing spaces dropped, empty lines skipped; nullopt and errors as
// readTextLines.
std::optional<std::vector<std::string>> readNameLines(const std::string& path, const ReadLimits& limits = {});

} // namespace lbd
