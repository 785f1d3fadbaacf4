// IDX files inside a valid gzip stream: the input is compressed first, so the fuzzer explores the
// IDX structure and the decompressed-size budget rather than zlib's checks of its own format.
// The first byte cuts the stream short (0: whole), to reach the truncated-stream paths too.
#include "datasets/common/compressedfile.h"
#include "datasets/common/error.h"
#include "datasets/idx/idxreader.h"
#include "tools/fuzz/fuzzfile.h"

#include <zlib.h>

#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    const size_t cut = data[0];
    // A gzip wrapper (windowBits 16 + ...) around deflate; the smallest window and memory level,
    // since how well it compresses does not matter and allocations cost under ASan.
    z_stream stream{};
    if (deflateInit2(&stream, Z_BEST_SPEED, Z_DEFLATED, 16 + 9, 1, Z_DEFAULT_STRATEGY) != Z_OK) {
        __builtin_trap();
    }
    std::vector<uint8_t> compressed(deflateBound(&stream, static_cast<uLong>(size - 1)));
    stream.next_in = const_cast<uint8_t*>(data + 1);
    stream.avail_in = static_cast<uInt>(size - 1);
    stream.next_out = compressed.data();
    stream.avail_out = static_cast<uInt>(compressed.size());
    if (deflate(&stream, Z_FINISH) != Z_STREAM_END) {
        __builtin_trap();
    }
    compressed.resize(stream.total_out - std::min<size_t>(cut, stream.total_out));
    deflateEnd(&stream);
    const std::string path = lbd::fuzz::writeScratchFile("data-idx3-ubyte.gz", compressed.data(), compressed.size());
    lbd::ReadLimits limits;
    limits.maxInMemoryBytes = 1 << 16;
    try {
        lbd::readIdxFile(path, limits);
    } catch (const lbd::InputError&) {
    }
    try {
        if (lbd::readMaybeGzipFile(path, limits).size() > static_cast<size_t>(limits.maxInMemoryBytes)) {
            __builtin_trap(); // the budget was not kept
        }
    } catch (const lbd::InputError&) {
    }
    return 0;
}
