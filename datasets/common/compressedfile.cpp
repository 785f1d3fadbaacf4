#include "datasets/common/compressedfile.h"

#include "datasets/common/error.h"

#include <zlib.h>

#include <filesystem>
#include <memory>

namespace lbd {

std::vector<uint8_t> readMaybeGzipFile(const std::string& path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        throw InputError(path + ": file not found");
    }
    // gzopen reads plain files transparently, so raw IDX files take the same path.
    std::unique_ptr<gzFile_s, int (*)(gzFile)> file(gzopen(path.c_str(), "rb"), &gzclose);
    if (!file) {
        throw InputError(path + ": cannot open file");
    }
    gzbuffer(file.get(), 1 << 20);
    std::vector<uint8_t> bytes;
    std::vector<uint8_t> chunk(1 << 20);
    for (;;) {
        const int read = gzread(file.get(), chunk.data(), static_cast<unsigned>(chunk.size()));
        if (read < 0) {
            int code = 0;
            const char* message = gzerror(file.get(), &code);
            throw InputError(path + ": corrupt compressed data (" + std::string(message ? message : "zlib error") + ")");
        }
        if (read == 0) {
            break;
        }
        bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + read);
    }
    int code = 0;
    const char* message = gzerror(file.get(), &code);
    // Z_BUF_ERROR at the end means the gzip stream stopped before its trailer: a truncated file.
    if (code != Z_OK && code != Z_STREAM_END) {
        throw InputError(path + ": truncated or corrupt compressed data (" + std::string(message ? message : "zlib error") + ")");
    }
    return bytes;
}

} // namespace lbd
