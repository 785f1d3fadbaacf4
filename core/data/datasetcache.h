#pragma once
// A pre-decoded dataset cache: one file per split holding every image of a list of image files
// decoded once and resized so that its longest side is at most `maxSide` (FFCV's max_resolution),
// stored raw (uint8, channel-major) or re-encoded as JPEG, read back through a memory map. Training
// from it skips the per-epoch decode of the source files; the random crop, flip and jitter stay on
// the device as without it. No torch here (bytes in, bytes out): the format is tested on its own.
//
// Layout (little-endian): a 96-byte header (magic "LBDCACHE", version, format, max side, channels,
// the alpha background, count, the offsets of the index, the names block and the pixel data, the source's
// fingerprint, a checksum), the index (one 56-byte entry per image: offset, bytes, height, width,
// channels, CRC-32 of its bytes, label, source size, source mtime), then the names block (class
// names, source paths), then the images. The checksum (FNV-1a 64) covers the header, the index and
// the names block, so a truncated or altered index is refused when the file is opened; each image's
// CRC-32 is checked when it is read, so a flipped pixel is refused rather than trained on.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "datasets/common/rawdataset.h"

namespace lbd {

enum class CacheImageFormat { Raw = 0, Jpeg = 1 };

struct CacheSettings {
    int64_t maxSide = 256;   // longest side of a stored image (smaller images are kept as they are)
    int64_t channels = 3;    // 1 or 3: the split's channels
    CacheImageFormat format = CacheImageFormat::Raw;
    int jpegQuality = 95;    // JPEG caches: the re-encoding's quality, 1..100 (95: OpenCV's imwrite default)
    int threads = 0;         // decoding threads while building (0: every core)
    // What transparent pixels are composited on (data.alpha_background): the stored pixels depend
    // on it, so another background is another cache file (datasetcachestore.h).
    AlphaBackground background = kWhiteBackground;
};

// One source file as the fingerprint sees it.
struct SourceFileStamp {
    int64_t size = -1;
    int64_t mtimeNs = -1;
};

// The size and modification time of every file (missing files: -1), read on `threads` threads.
std::vector<SourceFileStamp> stampSourceFiles(const std::vector<std::string>& paths, int threads = 0);
// FNV-1a 64 over the paths, sizes and modification times, in order.
uint64_t sourceFingerprint(const std::vector<std::string>& paths, const std::vector<SourceFileStamp>& stamps);

struct CacheEntry {
    uint64_t offset = 0; // from the start of the file
    uint64_t bytes = 0;
    uint32_t height = 0;
    uint32_t width = 0;
    uint32_t channels = 0;
    uint32_t crc = 0; // CRC-32 of the stored bytes
    int64_t label = 0;
    SourceFileStamp source;
};

// Builds the cache of `paths` (with `labels`, `classNames`) at `cachePath`: decoded on
// settings.threads threads, written to a temporary file in the same folder and renamed over
// `cachePath` when complete (so a reader, or a second builder, never sees half a cache: two
// builders each write their own temporary file and the last rename wins, both complete).
// `progress(done, total)` is called from the writing thread; `cancel` stops the build (RunError).
using CacheProgress = std::function<void(int64_t done, int64_t total)>;
void buildDatasetCache(const std::string& cachePath, const std::vector<std::string>& paths,
                       const std::vector<int64_t>& labels, const std::vector<std::string>& classNames,
                       const CacheSettings& settings, const CacheProgress& progress = {},
                       const std::atomic_bool* cancel = nullptr);

// The stored size of an image of height x width under `maxSide`: the longest side scaled to
// maxSide (rounded, at least 1), the aspect ratio kept; never enlarged.
void cachedImageSize(int64_t height, int64_t width, int64_t maxSide, int64_t& outHeight, int64_t& outWidth);

class DatasetCache {
public:
    // Maps `path` and checks the header, the index checksum and every entry's bounds: InputError
    // naming the file when it is not a cache, truncated, altered, or of another version.
    explicit DatasetCache(const std::string& path);
    ~DatasetCache();
    DatasetCache(const DatasetCache&) = delete;
    DatasetCache& operator=(const DatasetCache&) = delete;

    const std::string& path() const { return m_path; }
    int64_t size() const { return static_cast<int64_t>(m_entries.size()); }
    const CacheEntry& entry(int64_t i) const { return m_entries[static_cast<size_t>(i)]; }
    const std::vector<std::string>& sourcePaths() const { return m_paths; }
    const std::vector<std::string>& classNames() const { return m_classNames; }
    uint64_t fingerprint() const { return m_fingerprint; }
    CacheImageFormat format() const { return m_format; }
    int64_t maxSide() const { return m_maxSide; }
    int64_t channels() const { return m_channels; }
    const AlphaBackground& background() const { return m_background; }
    int64_t fileBytes() const { return static_cast<int64_t>(m_mappedBytes); }
    // Heap bytes this object holds (the index and the names): the pixels stay in the map, so a
    // cache larger than the memory budget is streamed by the page cache, not loaded.
    int64_t heapBytes() const;

    // Image `i` at `format` (channel-major), written to `out`: raw pixels of the stored size are
    // copied as they are; another size is resized from the stored pixels (imageresize.h: area
    // average when shrinking, bilinear when enlarging); JPEG is decoded and resized by the decoder.
    // InputError naming the file and the image when its CRC does not match.
    void readImage(int64_t i, const ImageFormat& format, uint8_t* out) const;
    // The stored bytes of image `i` (raw pixels or JPEG), after the CRC check.
    const uint8_t* storedBytes(int64_t i) const;

    // The first source file whose stamp differs from the stored one, or why the lists differ;
    // empty when `paths`/`stamps` are exactly what the cache was built from.
    std::string differenceFrom(const std::vector<std::string>& paths, const std::vector<SourceFileStamp>& stamps) const;

private:
    void parse();

    std::string m_path;
    void* m_map = nullptr;
    size_t m_mappedBytes = 0;
    std::vector<CacheEntry> m_entries;
    std::vector<std::string> m_paths;
    std::vector<std::string> m_classNames;
    uint64_t m_fingerprint = 0;
    CacheImageFormat m_format = CacheImageFormat::Raw;
    int64_t m_maxSide = 0;
    int64_t m_channels = 0;
    AlphaBackground m_background = kWhiteBackground;
};

inline constexpr uint32_t kDatasetCacheVersion = 1;

} // namespace lbd
