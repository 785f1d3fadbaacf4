#pragma once
// Small text inputs of the readers (list files, class-name files), read in one place: a size cap
// on text inputs belongs here.
#include <optional>
#include <string>
#include <vector>

namespace lbd {

// The lines of a text file, each without its line end ("\n" or "\r\n"); nullopt when the file
// cannot be opened.
std::optional<std::vector<std::string>> readTextLines(const std::string& path);

// Class names, one per line: trailing spaces dropped, empty lines skipped; nullopt when the file
// cannot be opened.
std::optional<std::vector<std::string>> readNameLines(const std::string& path);

} // namespace lbd
