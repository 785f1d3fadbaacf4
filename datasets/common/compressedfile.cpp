#include "datasets/common/compressedfile.h"

#include "datasets/common/error.h"

#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <memory>

namespace lbd {
namespace {

using GzFile = std::unique_ptr<gzFile_s, int (*)(gzFile)>;

GzFile openMaybeGzip(const std::string& path)
{
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!std::filesystem::exists(status)) {
        throw InputError(path + ": file not found");
    }
    if (!std::filesystem::is_regular_file(status)) {
        throw InputError(path + ": not a regular file");
    }
    // gzopen reads plain files transparently, so raw IDX files take the same path.
    GzFile file(gzopen(path.c_str(), "rb"), &gzclose);
    if (!file) {
        throw InputError(path + ": cannot open file");
    }
    // zlib's default buffer is 8 KiB; 64 KiB reads large files at full speed without the cost of
    // a bigger buffer for every small file (zlib allocates three times this size per open).
    gzbuffer(file.get(), 1 << 16);
    return file;
}

// gzread into `out`, at most `count` bytes; 0 at the end of the data.
size_t readChunk(gzFile file, const std::string& path, uint8_t* out, size_t count)
{
    const int read = gzread(file, out, static_cast<unsigned>(count));
    if (read < 0) {
        int code = 0;
        const char* message = gzerror(file, &code);
        throw InputError(path + ": corrupt compressed data (" + std::string(message ? message : "zlib error") + ")");
    }
    return static_cast<size_t>(read);
}

void checkEndOfStream(gzFile file, const std::string& path)
{
    int code = 0;
    const char* message = gzerror(file, &code);
    // Z_BUF_ERROR at the end means the gzip stream stopped before its trailer: a truncated file.
    if (code != Z_OK && code != Z_STREAM_END) {
        throw InputError(path + ": truncated or corrupt compressed data (" + std::string(message ? message : "zlib error") + ")");
    }
}

[[noreturn]] void overBudget(const std::string& path, const ReadLimits& limits, int64_t alreadyRead)
{
    const int64_t left = std::max<int64_t>(0, limits.maxInMemoryBytes - alreadyRead);
    std::string message = path + ": data of more than " + std::to_string(left) + " bytes is over ";
    if (alreadyRead > 0) {
        message += "what is left, after the files read before it, of ";
    }
    throw InputError(message + "the in-memory data budget of " + std::to_string(limits.maxInMemoryBytes)
                     + " bytes (maxInMemoryBytes)");
}

} // namespace

std::vector<uint8_t> readMaybeGzipFile(const std::string& path, const ReadLimits& limits, int64_t alreadyRead)
{
    const GzFile file = openMaybeGzip(path);
    const auto left = static_cast<size_t>(std::max<int64_t>(0, limits.maxInMemoryBytes - alreadyRead));
    std::vector<uint8_t> bytes;
    std::vector<uint8_t> chunk(1 << 16);
    while (const size_t read = readChunk(file.get(), path, chunk.data(), chunk.size())) {
        // Checked before the bytes are kept: memory stays within the budget plus one chunk.
        if (read > left - bytes.size()) {
            overBudget(path, limits, alreadyRead);
        }
        bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(read));
    }
    checkEndOfStream(file.get(), path);
    return bytes;
}

std::vector<uint8_t> readMaybeGzipPrefix(const std::string& path, size_t count)
{
    const GzFile file = openMaybeGzip(path);
    std::vector<uint8_t> bytes(count);
    size_t filled = 0;
    while (filled < count) {
        const size_t read = readChunk(file.get(), path, bytes.data() + filled, count - filled);
        if (read == 0) {
            break;
        }
        filled += read;
    }
    bytes.resize(filled);
    return bytes;
}

} // namespace lbd
