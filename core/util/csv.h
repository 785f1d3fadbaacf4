#pragma once
// Comma-separated values as LBD Studio reads and writes them (utility matrices, the Runs table's
// export): one quoting rule, so a file the app writes is one it reads back.
#include <string>
#include <vector>

namespace lbd {

// Leading and trailing blanks (space, tab, CR, LF) removed.
std::string trimBlanks(const std::string& text);

// One CSV line into cells: double quotes protect commas and line ends, "" inside quotes is a
// literal quote; each cell is trimmed.
std::vector<std::string> splitCsvLine(const std::string& line);

// `text` as one CSV cell: quoted when it holds a comma, quote or line end, or when it has
// leading or trailing blanks (splitCsvLine trims unquoted cells), with quotes doubled.
std::string quoteCsvField(const std::string& text);

} // namespace lbd
