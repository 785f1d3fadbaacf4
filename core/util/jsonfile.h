#pragma once
// Every JSON document LBD Studio reads from a file goes through here: the text size is capped
// (readTextFile, from the file's size before reading), and so are the nesting depth and the number
// of values, both counted in one linear pass over the text before parsing. nlohmann::json copies and
// compares recursively, so a file of 100,000 nested brackets (200 KB) would otherwise overflow
// the stack the first time the parsed value is copied (AddressSanitizer found it; a plain build
// survives that depth by luck of a larger frame budget, not by design).
#include <nlohmann/json.hpp>

#include <string>

namespace lbd {

// Far deeper than any config, report or study (they nest 4-6 levels).
inline constexpr int kMaxJsonDepth = 64;
// Values (numbers, strings, arrays, objects) of one document: a 1000-class report holds about one
// million (its confusion matrix). Parsed, each costs nlohmann some 16-80 bytes, so the limit
// bounds a document's memory at a few hundred MB whatever its text.
inline constexpr int64_t kMaxJsonValues = 4'000'000;

// Throws InputError "SOURCE: not valid JSON (...)", "SOURCE: JSON nested deeper than 64 levels" or
// "SOURCE: JSON with more than N values". Linear in the text.
nlohmann::json parseJsonText(const std::string& text, const std::string& source, int64_t maxValues = kMaxJsonValues);
// readTextFile + parseJsonText, the file's path as the source.
nlohmann::json readJsonFile(const std::string& path, int64_t maxValues = kMaxJsonValues);

} // namespace lbd
