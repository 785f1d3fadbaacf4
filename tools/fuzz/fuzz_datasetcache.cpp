// Dataset caches (core/data/datasetcache.cpp, lbd train --cache): the input is written as a cache
// file (tmpfs, fuzzfile.h), opened with DatasetCache and every image read, at its stored size and
// resized. JPEG images reach the fallback decoder (this build decodes nothing), which refuses them.
//
// The first byte chooses the mode. A cache is checksummed (FNV-1a 64 over the header, index and
// names; CRC-32 per image), so almost every mutation of a valid cache is refused by the checksum
// before the index is looked at. In fix-up mode (first byte odd) the target recomputes the image
// CRCs and the header checksum of the mutated bytes with the format's own functions
// (datasetcacheformat.h, zlib's crc32) before writing the file, as a writer would for a cache that
// is well-formed on the outside and hostile inside: the fuzzer then reaches the bounds, shape and
// names checks behind the checksum. In as-is mode (first byte even) the bytes are written
// unchanged, which tests the checksums themselves.
#include "core/data/datasetcache.h"
#include "core/data/datasetcacheformat.h"
#include "core/util/error.h"
#include "tools/fuzz/fuzzfile.h"

#include <zlib.h>

#include <cstdio>
#include <cstdlib>

#include <vector>

namespace {

using namespace lbd::cacheformat;

// Every field is read from the mutated bytes and used only where it fits them.
void fixChecksums(std::vector<uint8_t>& file)
{
    const uint64_t size = file.size();
    if (size < kHeaderBytes) {
        return;
    }
    uint8_t* base = file.data();
    const auto count = get<uint64_t>(base + kCount);
    const auto indexOffset = get<uint64_t>(base + kIndexOffset);
    if (indexOffset > size || count > (size - indexOffset) / kEntryBytes) {
        return;
    }
    for (uint64_t i = 0; i < count; ++i) {
        uint8_t* entry = base + indexOffset + i * kEntryBytes;
        const auto offset = get<uint64_t>(entry);
        const auto bytes = get<uint64_t>(entry + 8);
        if (offset <= size && bytes <= size - offset) {
            put<uint32_t>(entry + 28, static_cast<uint32_t>(::crc32(0L, base + offset, static_cast<uInt>(bytes))));
        }
    }
    const uint64_t indexBytes = count * kEntryBytes;
    const auto namesOffset = get<uint64_t>(base + kNamesOffset);
    const auto namesBytes = get<uint64_t>(base + kNamesBytes);
    if (namesOffset <= size && namesBytes <= size - namesOffset) {
        put<uint64_t>(base + kChecksum,
                      headerChecksum(base, base + indexOffset, indexBytes, base + namesOffset, namesBytes));
    }
}

void readEverything(const lbd::DatasetCache& cache)
{
    std::vector<uint8_t> out;
    for (int64_t i = 0; i < cache.size() && i < 64; ++i) {
        const lbd::CacheEntry& e = cache.entry(i);
        // At the stored size (a copy) when it is small, and at 5 x 7 (a resize or a decode).
        const uint64_t stored = uint64_t(e.height) * e.width * e.channels;
        for (const bool storedSize : {true, false}) {
            if (storedSize && stored > (uint64_t(1) << 20)) {
                continue;
            }
            const lbd::ImageFormat format{int64_t(e.channels), storedSize ? int64_t(e.height) : 5,
                                          storedSize ? int64_t(e.width) : 7};
            out.assign(size_t(format.bytesPerImage()), 0);
            try {
                cache.readImage(i, format, out.data());
            } catch (const lbd::InputError& error) {
                if (std::getenv("LBD_FUZZ_VERBOSE")) {
                    std::fprintf(stderr, "image refused: %s\n", error.what());
                }
            }
        }
    }
    (void)cache.heapBytes();
    (void)cache.differenceFrom(cache.sourcePaths(), std::vector<lbd::SourceFileStamp>(cache.sourcePaths().size()));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    std::vector<uint8_t> file(data + 1, data + size);
    if (data[0] & 1) {
        fixChecksums(file);
    }
    const std::string path = lbd::fuzz::writeScratchFile("split.lbdcache", file.data(), file.size());
    // LBD_FUZZ_VERBOSE=1 prints each refusal: which checks a corpus reaches (fuzzing.md counts them).
    static const bool verbose = std::getenv("LBD_FUZZ_VERBOSE") != nullptr;
    try {
        const lbd::DatasetCache cache(path);
        if (verbose) {
            std::fprintf(stderr, "opened: %lld images\n", static_cast<long long>(cache.size()));
        }
        readEverything(cache);
    } catch (const lbd::InputError& error) {
        if (verbose) {
            std::fprintf(stderr, "refused: %s\n", error.what());
        }
    }
    return 0;
}
