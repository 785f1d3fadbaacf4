// Writing a dataset cache (datasetcache.h): the images are decoded in blocks on a thread pool and
// appended in order to a temporary file, whose header and index are written last; the rename makes
// it the cache only once it is complete and on the disk.
#include "core/data/datasetcache.h"
#include "core/data/datasetcacheformat.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "datasets/common/imagedecoder.h"
#include "datasets/common/imageheader.h"
#include "datasets/common/workerthreads.h"

#include <zlib.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <thread>

namespace lbd {

using namespace cacheformat;

namespace {

struct EncodedImage {
    std::vector<uint8_t> bytes;
    uint32_t height = 0;
    uint32_t width = 0;
};

// Decodes `path` at its cached size; JPEG caches re-encode it in memory at settings.jpegQuality.
EncodedImage encodeImage(const std::string& path, const CacheSettings& settings)
{
    const std::vector<uint8_t> head = readFileHead(path, static_cast<size_t>(kImageHeaderBytes));
    const auto header = parseImageHeader(head.data(), head.size());
    int64_t height = settings.maxSide;
    int64_t width = settings.maxSide;
    if (header && header->sizeKnown() && header->height > 0 && header->width > 0) {
        cachedImageSize(header->height, header->width, settings.maxSide, height, width);
    } // else a format whose size its header does not say: stored square at maxSide
    const ImageFormat format{settings.channels, height, width, settings.background};
    EncodedImage image;
    image.height = static_cast<uint32_t>(height);
    image.width = static_cast<uint32_t>(width);
    image.bytes.resize(static_cast<size_t>(format.bytesPerImage()));
    decodeImageFile(path, format, image.bytes.data());
    if (settings.format == CacheImageFormat::Jpeg) {
        image.bytes = encodeJpeg(image.bytes.data(), format, settings.jpegQuality, path);
    }
    return image;
}

// Decodes images [first, first + count) of `paths` into `out` on `threads` threads.
void encodeBlock(const std::vector<std::string>& paths, int64_t first, int64_t count, const CacheSettings& settings,
                 int threads, std::vector<EncodedImage>& out)
{
    std::atomic<int64_t> next{0};
    std::exception_ptr error;
    std::mutex errorMutex;
    const auto work = [&] {
        for (int64_t i = next++; i < count; i = next++) {
            try {
                out[size_t(i)] = encodeImage(paths[size_t(first + i)], settings);
            } catch (...) {
                std::lock_guard<std::mutex> lock(errorMutex);
                if (!error) {
                    error = std::current_exception();
                }
                next = count;
            }
        }
    };
    runOnWorkerThreads(threads, work);
    if (error) {
        std::rethrow_exception(error);
    }
}

std::vector<uint8_t> namesBlock(const std::vector<std::string>& classNames, const std::vector<std::string>& paths)
{
    std::vector<uint8_t> block(4);
    put<uint32_t>(block.data(), static_cast<uint32_t>(classNames.size()));
    for (const auto& name : classNames) {
        appendString(block, name);
    }
    for (const auto& path : paths) {
        appendString(block, path);
    }
    return block;
}

// A file written front to back, then patched at the start; every failure a RunError naming it.
class CacheWriter {
public:
    explicit CacheWriter(std::string path) : m_path(std::move(path))
    {
        m_file = std::fopen(m_path.c_str(), "wb");
        if (!m_file) {
            throw RunError(fileErrorMessage(m_path, errno));
        }
    }
    ~CacheWriter()
    {
        if (m_file) {
            std::fclose(m_file);
        }
    }
    CacheWriter(const CacheWriter&) = delete;
    CacheWriter& operator=(const CacheWriter&) = delete;

    uint64_t position() const { return m_position; }
    void write(const void* data, size_t size)
    {
        if (size > 0 && std::fwrite(data, 1, size, m_file) != size) {
            throw RunError(fileErrorMessage(m_path, errno));
        }
        m_position += size;
    }
    void padTo(uint64_t position)
    {
        const std::vector<uint8_t> zeros(static_cast<size_t>(position - m_position), 0);
        write(zeros.data(), zeros.size());
    }
    void writeAtStart(const std::vector<uint8_t>& bytes)
    {
        if (std::fseek(m_file, 0, SEEK_SET) != 0 || std::fwrite(bytes.data(), 1, bytes.size(), m_file) != bytes.size()
            || std::fflush(m_file) != 0 || ::fsync(::fileno(m_file)) != 0) {
            throw RunError(fileErrorMessage(m_path, errno));
        }
        const int closed = std::fclose(m_file);
        m_file = nullptr;
        if (closed != 0) {
            throw RunError(fileErrorMessage(m_path, errno));
        }
    }

private:
    std::string m_path;
    std::FILE* m_file = nullptr;
    uint64_t m_position = 0;
};

std::string temporaryPath(const std::string& cachePath)
{
    std::random_device entropy;
    return cachePath + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(entropy());
}

// Writes the images and returns their index; the file then holds everything but the header and index.
std::vector<uint8_t> writeImages(CacheWriter& writer, const std::vector<std::string>& paths,
                                 const std::vector<int64_t>& labels, const std::vector<SourceFileStamp>& stamps,
                                 const CacheSettings& settings, const CacheProgress& progress, const std::atomic_bool* cancel)
{
    const auto count = static_cast<int64_t>(paths.size());
    const int threads = settings.threads > 0 ? settings.threads : std::max(1, int(std::thread::hardware_concurrency()));
    const int64_t blockSize = int64_t(threads) * 16;
    std::vector<uint8_t> index(static_cast<size_t>(count) * kEntryBytes);
    std::vector<EncodedImage> block(static_cast<size_t>(blockSize));
    for (int64_t first = 0; first < count; first += blockSize) {
        if (cancel && cancel->load()) {
            throw RunError("building the dataset cache was stopped");
        }
        const int64_t n = std::min(blockSize, count - first);
        encodeBlock(paths, first, n, settings, threads, block);
        for (int64_t k = 0; k < n; ++k) {
            EncodedImage& image = block[size_t(k)];
            writer.padTo((writer.position() + kImageAlignment - 1) / kImageAlignment * kImageAlignment);
            uint8_t* entry = index.data() + size_t(first + k) * kEntryBytes;
            put<uint64_t>(entry, writer.position());
            put<uint64_t>(entry + 8, image.bytes.size());
            put<uint32_t>(entry + 16, image.height);
            put<uint32_t>(entry + 20, image.width);
            put<uint32_t>(entry + 24, static_cast<uint32_t>(settings.channels));
            put<uint32_t>(entry + 28, static_cast<uint32_t>(::crc32(0L, image.bytes.data(), uInt(image.bytes.size()))));
            put<int64_t>(entry + 32, labels[size_t(first + k)]);
            put<int64_t>(entry + 40, stamps[size_t(first + k)].size);
            put<int64_t>(entry + 48, stamps[size_t(first + k)].mtimeNs);
            writer.write(image.bytes.data(), image.bytes.size());
            image.bytes = {};
        }
        if (progress) {
            progress(first + n, count);
        }
    }
    return index;
}

} // namespace

void buildDatasetCache(const std::string& cachePath, const std::vector<std::string>& paths,
                       const std::vector<int64_t>& labels, const std::vector<std::string>& classNames,
                       const CacheSettings& settings, const CacheProgress& progress, const std::atomic_bool* cancel)
{
    if (settings.maxSide < 8 || settings.maxSide > 8192) {
        throw InputError("max side " + std::to_string(settings.maxSide) + ": use 8..8192 pixels");
    }
    if (settings.jpegQuality < 1 || settings.jpegQuality > 100) {
        throw InputError("JPEG quality " + std::to_string(settings.jpegQuality) + ": use 1..100");
    }
    if (settings.channels != 1 && settings.channels != 3) {
        throw InputError(std::to_string(settings.channels) + " channels: a dataset cache holds 1 or 3");
    }
    if (labels.size() != paths.size()) {
        throw RunError("dataset cache: " + std::to_string(labels.size()) + " labels for " + std::to_string(paths.size())
                       + " files");
    }
    std::error_code ec;
    const auto folder = std::filesystem::path(cachePath).parent_path();
    if (!folder.empty()) {
        std::filesystem::create_directories(folder, ec);
    }
    const std::vector<SourceFileStamp> stamps = stampSourceFiles(paths, settings.threads);
    const std::vector<uint8_t> names = namesBlock(classNames, paths);
    const uint64_t indexBytes = paths.size() * kEntryBytes;
    const uint64_t dataOffset = (kHeaderBytes + indexBytes + names.size() + kImageAlignment - 1) / kImageAlignment * kImageAlignment;
    const std::string temp = temporaryPath(cachePath);
    try {
        CacheWriter writer(temp);
        writer.padTo(kHeaderBytes + indexBytes);
        writer.write(names.data(), names.size());
        writer.padTo(dataOffset);
        const std::vector<uint8_t> index =
            writeImages(writer, paths, labels, stamps, settings, progress, cancel);
        std::vector<uint8_t> front(kHeaderBytes + indexBytes, 0);
        uint8_t* header = front.data();
        std::memcpy(header, kMagic, sizeof(kMagic));
        put<uint32_t>(header + kVersion, kDatasetCacheVersion);
        put<uint32_t>(header + kFormat, static_cast<uint32_t>(settings.format));
        put<uint32_t>(header + kMaxSide, static_cast<uint32_t>(settings.maxSide));
        put<uint32_t>(header + kChannels, static_cast<uint32_t>(settings.channels));
        const uint8_t background[4] = {settings.background[0], settings.background[1], settings.background[2], 1};
        std::memcpy(header + kBackground, background, sizeof(background));
        put<uint64_t>(header + kCount, paths.size());
        put<uint64_t>(header + kIndexOffset, kHeaderBytes);
        put<uint64_t>(header + kNamesOffset, kHeaderBytes + indexBytes);
        put<uint64_t>(header + kNamesBytes, names.size());
        put<uint64_t>(header + kDataOffset, dataOffset);
        put<uint64_t>(header + kFingerprint, sourceFingerprint(paths, stamps));
        std::copy(index.begin(), index.end(), front.begin() + kHeaderBytes);
        put<uint64_t>(header + kChecksum, headerChecksum(header, index.data(), index.size(), names.data(), names.size()));
        writer.writeAtStart(front);
        if (::rename(temp.c_str(), cachePath.c_str()) != 0) {
            throw RunError(fileErrorMessage(cachePath, errno));
        }
    } catch (...) {
        std::filesystem::remove(temp, ec);
        throw;
    }
}

} // namespace lbd
