#pragma once
// Files written atomically (a temporary file in the same folder, flushed to disk, then renamed
// over the target), so that a crash, a kill or a full disk never leaves a half-written run file or
// checkpoint where a reader would find it: the target is either the old file or the new one.
// Every failure is a RunError that names the file and the system's reason ("disk full: ..." for
// ENOSPC), and the temporary file is removed.
#include <cstdint>
#include <functional>
#include <string>

namespace lbd {

void writeFileAtomically(const std::string& path, const std::string& contents);

// For writers that stream (torch's zip writer): `write` fills the temporary file, which is then
// flushed to disk and renamed over `path`, as above.
void writeFileAtomically(const std::string& path, const std::function<void(const std::string& tempPath)>& write);

// The largest text input read whole (configs, utility matrices, list files, run files): far
// above any real one, small enough that /dev/zero or a huge file is refused at once.
inline constexpr int64_t kMaxTextFileBytes = int64_t(64) << 20;

// Throws InputError naming the file when it is missing, unreadable, a folder, or larger than
// `maxBytes` (checked while reading, so a device or a growing file cannot exhaust memory).
std::string readTextFile(const std::string& path, int64_t maxBytes = kMaxTextFileBytes);

// The message for a failed system call on `path` with `error` (errno): "disk full: PATH (No
// space left on device)" for ENOSPC, "PATH: REASON" otherwise.
std::string fileErrorMessage(const std::string& path, int error);

} // namespace lbd
