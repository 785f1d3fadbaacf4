#include "datasets/common/pngchunks.h"

#include <cstring>

namespace lbd {
namespace {

constexpr uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

uint32_t bigEndian32(const uint8_t* p)
{
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

// Chunks whose type starts with an upper-case letter are critical (PNG spec 5.4); tRNS is the
// one ancillary chunk the decoders turn into pixels (an alpha channel).
bool kept(const uint8_t* type)
{
    const bool critical = (type[0] & 0x20) == 0;
    return critical || std::memcmp(type, "tRNS", 4) == 0;
}

} // namespace

bool isPngData(const uint8_t* data, size_t size)
{
    return size >= sizeof(kSignature) && std::memcmp(data, kSignature, sizeof(kSignature)) == 0;
}

std::vector<uint8_t> withoutAncillaryPngChunks(const uint8_t* data, size_t size)
{
    const std::vector<uint8_t> unchanged(data, data + size);
    if (!isPngData(data, size)) {
        return unchanged;
    }
    std::vector<uint8_t> out(data, data + sizeof(kSignature));
    out.reserve(size);
    size_t at = sizeof(kSignature);
    bool ended = false;
    while (!ended) {
        if (size - at < 12) {
            return unchanged; // a chunk cut short, or no IEND: libpng says which
        }
        const uint64_t length = bigEndian32(data + at);
        const uint8_t* type = data + at + 4;
        const uint64_t whole = 12 + length; // length, type, data, CRC
        if (length > 0x7fffffffu || whole > size - at) {
            return unchanged;
        }
        if (kept(type)) {
            out.insert(out.end(), data + at, data + at + whole);
        }
        ended = std::memcmp(type, "IEND", 4) == 0;
        at += whole;
    }
    return out;
}

} // namespace lbd
