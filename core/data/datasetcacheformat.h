#pragma once
// The byte layout of a dataset cache file (datasetcache.h), shared by its writer and its reader.
// Little-endian fields written with memcpy: the machines that build and read a cache (x86-64,
// aarch64) are little-endian, and a cache is a local file, never shipped between machines.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace lbd::cacheformat {

inline constexpr char kMagic[8] = {'L', 'B', 'D', 'C', 'A', 'C', 'H', 'E'};
inline constexpr size_t kHeaderBytes = 96;
inline constexpr size_t kEntryBytes = 56;
inline constexpr uint64_t kImageAlignment = 64; // each image starts on a cache line

// Header field offsets. kBackground: the colour transparent pixels were composited on, bytes
// R, G, B and a marker 1; caches written before it was recorded hold 0 there and were composited
// on white (the decoders' only background then).
inline constexpr size_t kVersion = 8, kFormat = 12, kMaxSide = 16, kChannels = 20, kBackground = 24, kCount = 32,
                        kIndexOffset = 40, kNamesOffset = 48, kNamesBytes = 56, kDataOffset = 64, kFingerprint = 72,
                        kChecksum = 80;

template <typename T>
void put(uint8_t* at, T value)
{
    std::memcpy(at, &value, sizeof(T));
}

template <typename T>
T get(const uint8_t* at)
{
    T value;
    std::memcpy(&value, at, sizeof(T));
    return value;
}

// FNV-1a 64, continued from `hash`.
inline uint64_t fnv1a(const uint8_t* data, size_t size, uint64_t hash = 1469598103934665603ULL)
{
    for (size_t i = 0; i < size; ++i) {
        hash = (hash ^ data[i]) * 1099511628211ULL;
    }
    return hash;
}

// The checksum stored at kChecksum: over the header with that field zeroed, the index and the names.
inline uint64_t headerChecksum(const uint8_t* header, const uint8_t* index, size_t indexBytes, const uint8_t* names,
                               size_t namesBytes)
{
    uint8_t copy[kHeaderBytes];
    std::memcpy(copy, header, kHeaderBytes);
    put<uint64_t>(copy + kChecksum, 0);
    uint64_t hash = fnv1a(copy, kHeaderBytes);
    hash = fnv1a(index, indexBytes, hash);
    return fnv1a(names, namesBytes, hash);
}

// Names block: u32 class count, then each name (u32 length + bytes), then the same for the paths.
inline void appendString(std::vector<uint8_t>& out, const std::string& text)
{
    const auto length = static_cast<uint32_t>(text.size());
    const size_t at = out.size();
    out.resize(at + 4 + text.size());
    put<uint32_t>(out.data() + at, length);
    std::memcpy(out.data() + at + 4, text.data(), text.size());
}

} // namespace lbd::cacheformat
