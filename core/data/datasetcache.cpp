// Reading a dataset cache through a memory map: every check that keeps a damaged file from being
// read as images happens here (datasetcache.h says which).
#include "core/data/datasetcache.h"
#include "core/data/datasetcacheformat.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "datasets/common/imagedecoder.h"
#include "datasets/common/imageresize.h"

#include <zlib.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <thread>

namespace lbd {

using namespace cacheformat;

std::vector<SourceFileStamp> stampSourceFiles(const std::vector<std::string>& paths, int threads)
{
    std::vector<SourceFileStamp> stamps(paths.size());
    const int workers = std::max(1, threads > 0 ? threads : static_cast<int>(std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (int t = 0; t < workers; ++t) {
        pool.emplace_back([&, t] {
            for (size_t i = static_cast<size_t>(t); i < paths.size(); i += static_cast<size_t>(workers)) {
                struct stat info {};
                if (::stat(paths[i].c_str(), &info) == 0) {
                    stamps[i].size = static_cast<int64_t>(info.st_size);
                    stamps[i].mtimeNs = static_cast<int64_t>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec;
                }
            }
        });
    }
    for (auto& thread : pool) {
        thread.join();
    }
    return stamps;
}

uint64_t sourceFingerprint(const std::vector<std::string>& paths, const std::vector<SourceFileStamp>& stamps)
{
    uint64_t hash = fnv1a(nullptr, 0);
    for (size_t i = 0; i < paths.size(); ++i) {
        hash = fnv1a(reinterpret_cast<const uint8_t*>(paths[i].data()), paths[i].size() + 1, hash); // with its NUL
        hash = fnv1a(reinterpret_cast<const uint8_t*>(&stamps[i].size), sizeof(int64_t), hash);
        hash = fnv1a(reinterpret_cast<const uint8_t*>(&stamps[i].mtimeNs), sizeof(int64_t), hash);
    }
    return hash;
}

void cachedImageSize(int64_t height, int64_t width, int64_t maxSide, int64_t& outHeight, int64_t& outWidth)
{
    const int64_t longest = std::max(height, width);
    if (longest <= maxSide) {
        outHeight = height;
        outWidth = width;
        return;
    }
    const double scale = static_cast<double>(maxSide) / static_cast<double>(longest);
    outHeight = height >= width ? maxSide : std::max<int64_t>(1, std::llround(static_cast<double>(height) * scale));
    outWidth = width >= height ? maxSide : std::max<int64_t>(1, std::llround(static_cast<double>(width) * scale));
}

namespace {

// Reads a names-block string at `at`, advancing it; false past `end`.
bool readString(const uint8_t*& at, const uint8_t* end, std::string& out)
{
    if (end - at < 4) {
        return false;
    }
    const auto length = get<uint32_t>(at);
    at += 4;
    if (static_cast<uint64_t>(end - at) < length) {
        return false;
    }
    out.assign(reinterpret_cast<const char*>(at), length);
    at += length;
    return true;
}

CacheEntry parseEntry(const uint8_t* at)
{
    CacheEntry entry;
    entry.offset = get<uint64_t>(at);
    entry.bytes = get<uint64_t>(at + 8);
    entry.height = get<uint32_t>(at + 16);
    entry.width = get<uint32_t>(at + 20);
    entry.channels = get<uint32_t>(at + 24);
    entry.crc = get<uint32_t>(at + 28);
    entry.label = get<int64_t>(at + 32);
    entry.source.size = get<int64_t>(at + 40);
    entry.source.mtimeNs = get<int64_t>(at + 48);
    return entry;
}

} // namespace

DatasetCache::DatasetCache(const std::string& path) : m_path(path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        throw InputError(errno == ENOENT ? path + ": no such cache file" : fileErrorMessage(path, errno));
    }
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        throw InputError(path + ": not a regular file");
    }
    m_mappedBytes = static_cast<size_t>(info.st_size);
    if (m_mappedBytes < kHeaderBytes) {
        ::close(fd);
        throw InputError(path + ": not a dataset cache, or a truncated one (" + std::to_string(m_mappedBytes)
                         + " bytes, shorter than the " + std::to_string(kHeaderBytes) + "-byte header)");
    }
    m_map = ::mmap(nullptr, m_mappedBytes, PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd); // the map keeps the file
    if (m_map == MAP_FAILED) {
        m_map = nullptr;
        throw InputError(fileErrorMessage(path, errno) + " (mapping the dataset cache)");
    }
    try {
        parse();
    } catch (...) {
        ::munmap(m_map, m_mappedBytes);
        m_map = nullptr;
        throw;
    }
}

DatasetCache::~DatasetCache()
{
    if (m_map) {
        ::munmap(m_map, m_mappedBytes);
    }
}

void DatasetCache::parse()
{
    const auto* base = static_cast<const uint8_t*>(m_map);
    const uint64_t fileBytes = m_mappedBytes;
    const auto refuse = [&](const std::string& why) {
        throw InputError(m_path + ": " + why + " (delete it, or run `lbd data cache` again)");
    };
    if (std::memcmp(base, kMagic, sizeof(kMagic)) != 0) {
        refuse("not a dataset cache (no LBDCACHE magic)");
    }
    if (get<uint32_t>(base + kVersion) != kDatasetCacheVersion) {
        refuse("dataset cache version " + std::to_string(get<uint32_t>(base + kVersion)) + ", this build reads "
               + std::to_string(kDatasetCacheVersion));
    }
    const auto count = get<uint64_t>(base + kCount);
    const auto indexOffset = get<uint64_t>(base + kIndexOffset);
    const auto namesOffset = get<uint64_t>(base + kNamesOffset);
    const auto namesBytes = get<uint64_t>(base + kNamesBytes);
    const auto dataOffset = get<uint64_t>(base + kDataOffset);
    if (count > fileBytes / kEntryBytes || indexOffset != kHeaderBytes || namesOffset != indexOffset + count * kEntryBytes
        || namesBytes > fileBytes || namesOffset + namesBytes > fileBytes || dataOffset < namesOffset + namesBytes
        || dataOffset > fileBytes) {
        refuse("truncated or damaged dataset cache (its index does not fit in its " + std::to_string(fileBytes) + " bytes)");
    }
    if (headerChecksum(base, base + indexOffset, count * kEntryBytes, base + namesOffset, namesBytes)
        != get<uint64_t>(base + kChecksum)) {
        refuse("damaged dataset cache (the checksum of its header and index does not match)");
    }
    m_format = static_cast<CacheImageFormat>(get<uint32_t>(base + kFormat));
    m_maxSide = get<uint32_t>(base + kMaxSide);
    m_channels = get<uint32_t>(base + kChannels);
    m_fingerprint = get<uint64_t>(base + kFingerprint);
    if (base[kBackground + 3] == 1) {
        m_background = {base[kBackground], base[kBackground + 1], base[kBackground + 2]};
    } // else 0: written before the background was recorded, on white
    // The builder's range (datasetcachebuilder.cpp): it also keeps height * width * channels far
    // from 2^64, where a 3-channel entry's size would wrap and pass the size check.
    if ((m_format != CacheImageFormat::Raw && m_format != CacheImageFormat::Jpeg) || (m_channels != 1 && m_channels != 3)
        || m_maxSide < 8 || m_maxSide > 8192) {
        refuse("damaged dataset cache (format " + std::to_string(static_cast<int>(m_format)) + ", "
               + std::to_string(m_channels) + " channels, max side " + std::to_string(m_maxSide) + ")");
    }
    m_entries.reserve(count);
    for (uint64_t i = 0; i < count; ++i) {
        const CacheEntry entry = parseEntry(base + indexOffset + i * kEntryBytes);
        const bool shapeOk = entry.channels == m_channels && entry.height >= 1 && entry.width >= 1
                             && entry.height <= m_maxSide && entry.width <= m_maxSide
                             && (m_format != CacheImageFormat::Raw
                                 || entry.bytes == uint64_t(entry.height) * entry.width * entry.channels);
        if (!shapeOk || entry.offset < dataOffset || entry.bytes > fileBytes || entry.offset > fileBytes - entry.bytes) {
            refuse("truncated or damaged dataset cache (image " + std::to_string(i) + " of " + std::to_string(count)
                   + " lies outside its " + std::to_string(fileBytes) + " bytes or has a wrong shape)");
        }
        m_entries.push_back(entry);
    }
    const uint8_t* at = base + namesOffset;
    const uint8_t* end = at + namesBytes;
    if (end - at < 4) {
        refuse("damaged dataset cache (no class names)");
    }
    const auto classes = get<uint32_t>(at);
    at += 4;
    m_classNames.resize(std::min<uint64_t>(classes, namesBytes / 4));
    m_paths.resize(count);
    bool ok = m_classNames.size() == classes;
    for (auto& name : m_classNames) {
        ok = ok && readString(at, end, name);
    }
    for (auto& sourcePath : m_paths) {
        ok = ok && readString(at, end, sourcePath);
    }
    if (!ok) {
        refuse("damaged dataset cache (its names block is cut short)");
    }
}

int64_t DatasetCache::heapBytes() const
{
    int64_t bytes = static_cast<int64_t>(m_entries.capacity() * sizeof(CacheEntry));
    for (const auto& p : m_paths) {
        bytes += static_cast<int64_t>(sizeof(std::string) + p.capacity());
    }
    for (const auto& n : m_classNames) {
        bytes += static_cast<int64_t>(sizeof(std::string) + n.capacity());
    }
    return bytes;
}

const uint8_t* DatasetCache::storedBytes(int64_t i) const
{
    const CacheEntry& e = m_entries.at(static_cast<size_t>(i));
    const auto* data = static_cast<const uint8_t*>(m_map) + e.offset;
    // zlib's crc32 takes at most 4 GiB a call; an image never has that many bytes (maxSide <= 2^16).
    const auto crc = static_cast<uint32_t>(::crc32(0L, data, static_cast<uInt>(e.bytes)));
    if (crc != e.crc) {
        throw InputError(m_path + ": damaged dataset cache (image " + std::to_string(i) + ", from " + m_paths[size_t(i)]
                         + ", fails its CRC-32 check; delete the cache or run `lbd data cache` again)");
    }
    return data;
}

void DatasetCache::readImage(int64_t i, const ImageFormat& format, uint8_t* out) const
{
    const CacheEntry& e = m_entries.at(static_cast<size_t>(i));
    const uint8_t* data = storedBytes(i);
    if (format.channels != static_cast<int64_t>(e.channels)) {
        throw InputError(m_path + ": holds " + std::to_string(e.channels) + "-channel images, the run asks for "
                         + std::to_string(format.channels));
    }
    if (m_format == CacheImageFormat::Jpeg) {
        const std::vector<uint8_t> bytes(data, data + e.bytes);
        decodeImageBytes(bytes, m_path + " image " + std::to_string(i), format, out);
        return;
    }
    const int64_t plane = int64_t(e.height) * e.width;
    if (format.height == e.height && format.width == e.width) {
        std::memcpy(out, data, e.bytes);
        return;
    }
    // Channel-major as stored -> interleaved, as the resize takes it.
    std::vector<uint8_t> interleaved(e.bytes);
    for (int64_t p = 0; p < plane; ++p) {
        for (uint32_t c = 0; c < e.channels; ++c) {
            interleaved[size_t(p * e.channels + c)] = data[c * plane + p];
        }
    }
    resizeToPlanes(interleaved.data(), int(e.height), int(e.width), int(e.channels), int(format.height), int(format.width),
                   out);
}

std::string DatasetCache::differenceFrom(const std::vector<std::string>& paths,
                                         const std::vector<SourceFileStamp>& stamps) const
{
    if (paths.size() != m_paths.size()) {
        return "the source lists " + std::to_string(paths.size()) + " files, the cache " + std::to_string(m_paths.size());
    }
    for (size_t i = 0; i < paths.size(); ++i) {
        if (paths[i] != m_paths[i]) {
            return "file " + std::to_string(i + 1) + " is " + paths[i] + ", the cache has " + m_paths[i];
        }
        const SourceFileStamp& was = m_entries[i].source;
        if (stamps[i].size != was.size || stamps[i].mtimeNs != was.mtimeNs) {
            return paths[i] + (stamps[i].size < 0 ? " is gone" : " changed (size or modification time)");
        }
    }
    return {};
}

} // namespace lbd
