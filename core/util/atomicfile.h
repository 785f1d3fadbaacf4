#pragma once
// Writes files atomically (temp file in the same folder + rename), so a crash or a failed run
// never leaves a half-written run file or checkpoint behind.
#include <functional>
#include <ostream>
#include <string>

namespace lbd {

void writeFileAtomically(const std::string& path, const std::string& contents);

// For writers that stream: `write` fills the temporary file, which then replaces `path`.
void writeFileAtomically(const std::string& path, const std::function<void(const std::string& tempPath)>& write);

std::string readTextFile(const std::string& path); // throws InputError naming the file

} // namespace lbd
