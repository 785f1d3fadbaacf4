#pragma once
// Every JSON document LBD Studio reads from a file goes through here: the text size is capped
// (readTextFile) and so is the nesting depth, checked while parsing. nlohmann::json copies and
// compares recursively, so a file of 100,000 nested brackets (200 KB) would otherwise overflow
// the stack the first time the parsed value is copied (AddressSanitizer found it; a plain build
// survives that depth by luck of a larger frame budget, not by design).
#include <nlohmann/json.hpp>

#include <string>

namespace lbd {

// Far deeper than any config, report or study (they nest 4-6 levels).
inline constexpr int kMaxJsonDepth = 64;

// Throws InputError "SOURCE: not valid JSON (...)" or "SOURCE: JSON nested deeper than 64 levels".
nlohmann::json parseJsonText(const std::string& text, const std::string& source);
// readTextFile + parseJsonText, the file's path as the source.
nlohmann::json readJsonFile(const std::string& path);

} // namespace lbd
