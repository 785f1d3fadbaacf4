// The dataset cache (core/data/datasetcache*, runcaches): cached pixels are the decoded pixels,
// a changed source is rebuilt, a damaged cache is refused by name, a cache over the memory budget
// is read through its map, and training from it sees exactly the batches of the files.
#include "core/data/augmentation.h"
#include "core/data/batchsource.h"
#include "core/data/datasetcache.h"
#include "core/data/datasetcacheformat.h"
#include "core/data/datacaches.h"
#include "core/data/datasetcachestore.h"
#include "core/data/imagedecoder.h"
#include "core/data/runcaches.h"
#include "core/data/syntheticdataset.h"
#include "core/train/trainer.h"
#include "core/util/error.h"
#include "tests/support/expect.h"
#include "tests/support/tinyconfig.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

using namespace lbd;

namespace {

// A smooth colour image of height x width (channel-major), different for each `seed`.
torch::Tensor pattern(int64_t height, int64_t width, int seed)
{
    auto y = torch::arange(height, torch::kFloat32).view({1, height, 1});
    auto x = torch::arange(width, torch::kFloat32).view({1, 1, width});
    auto c = torch::arange(3, torch::kFloat32).view({3, 1, 1});
    return ((x * (3 + seed) + y * (5 + c) + c * 40 + seed * 17).remainder(256)).to(torch::kUInt8);
}

std::vector<std::string> writeImages(const QString& dir, const std::vector<std::pair<int64_t, int64_t>>& sizes,
                                     const std::string& extension, int seed = 0)
{
    std::vector<std::string> paths;
    for (size_t i = 0; i < sizes.size(); ++i) {
        const std::string path = (dir + QString("/img%1").arg(i)).toStdString() + extension;
        writeImageFile(path, pattern(sizes[i].first, sizes[i].second, int(i) + seed));
        paths.push_back(path);
    }
    return paths;
}

// An 8-bit RGBA PNG of `width` x `height` from interleaved R, G, B, A bytes (no Qt GUI in core
// tests, and writeImageFile writes no alpha): signature, IHDR, one IDAT, IEND.
void writeRgbaPng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba)
{
    std::vector<uint8_t> rows;
    for (int y = 0; y < height; ++y) {
        rows.push_back(0); // filter: none
        rows.insert(rows.end(), rgba.begin() + y * width * 4, rgba.begin() + (y + 1) * width * 4);
    }
    std::vector<uint8_t> packed(compressBound(uLong(rows.size())));
    uLongf packedBytes = uLongf(packed.size());
    compress(packed.data(), &packedBytes, rows.data(), uLong(rows.size()));
    packed.resize(packedBytes);
    std::ofstream out(path, std::ios::binary);
    const auto be32 = [&](uint32_t v) {
        const char b[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
        out.write(b, 4);
    };
    const auto chunk = [&](const char* type, const std::vector<uint8_t>& data) {
        be32(uint32_t(data.size()));
        std::vector<uint8_t> typed(type, type + 4);
        typed.insert(typed.end(), data.begin(), data.end());
        out.write(reinterpret_cast<const char*>(typed.data()), std::streamsize(typed.size()));
        be32(uint32_t(crc32(0L, typed.data(), uInt(typed.size()))));
    };
    out.write("\x89PNG\r\n\x1a\n", 8);
    chunk("IHDR", {0, 0, 0, uint8_t(width), 0, 0, 0, uint8_t(height), 8, 6, 0, 0, 0}); // 8-bit RGBA, sides < 256
    chunk("IDAT", packed);
    chunk("IEND", {});
}

void flipByte(const std::string& path, int64_t offset)
{
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(offset);
    char byte = 0;
    file.read(&byte, 1);
    byte ^= 0x10;
    file.seekp(offset);
    file.write(&byte, 1);
}

CacheSettings settings(int64_t maxSide)
{
    CacheSettings s;
    s.maxSide = maxSide;
    s.channels = 3;
    s.threads = 2;
    return s;
}

CacheSource sourceOf(const std::vector<std::string>& paths)
{
    CacheSource source;
    source.paths = paths;
    source.labels.assign(paths.size(), 0);
    for (size_t i = 0; i < paths.size(); ++i) {
        source.labels[i] = static_cast<int64_t>(i % 2);
    }
    source.classNames = {"a", "b"};
    return source;
}

} // namespace

class TestDatasetCache : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        if (!imageDecodingAvailable()) {
            QSKIP("built without OpenCV");
        }
    }

    void cachedPixelsAreTheDecodedPixels_data()
    {
        QTest::addColumn<QString>("extension");
        QTest::newRow("png") << ".png";
        QTest::newRow("jpeg") << ".jpg";
    }

    // Landscape, portrait, square and smaller-than-max-side sources: each is stored at its longest
    // side scaled to 24 (never enlarged), pixel for pixel what the decoder gives at that size.
    void cachedPixelsAreTheDecodedPixels()
    {
        QFETCH(QString, extension);
        QTemporaryDir dir;
        const auto paths = writeImages(dir.path(), {{30, 40}, {50, 30}, {32, 32}, {10, 20}}, extension.toStdString());
        const std::string cachePath = (dir.path() + "/c.lbdcache").toStdString();
        buildDatasetCache(cachePath, paths, {0, 1, 0, 1}, {"a", "b"}, settings(24));
        const DatasetCache cache(cachePath);
        QCOMPARE(cache.size(), int64_t(4));
        const std::vector<std::pair<uint32_t, uint32_t>> expected = {{18, 24}, {24, 14}, {24, 24}, {10, 20}};
        for (int64_t i = 0; i < cache.size(); ++i) {
            const CacheEntry& e = cache.entry(i);
            QCOMPARE(e.height, expected[size_t(i)].first);
            QCOMPARE(e.width, expected[size_t(i)].second);
            QCOMPARE(e.label, i % 2);
            const ImageFormat format{3, e.height, e.width};
            std::vector<uint8_t> decoded(size_t(format.bytesPerImage())), cached(decoded.size());
            decodeImageFile(paths[size_t(i)], format, decoded.data());
            cache.readImage(i, format, cached.data());
            QVERIFY2(decoded == cached, qPrintable(QString("image %1").arg(i)));
        }
        QCOMPARE(cache.classNames(), (std::vector<std::string>{"a", "b"}));
        QCOMPARE(cache.sourcePaths(), paths);
    }

    void aChangedSourceIsRebuilt()
    {
        QTemporaryDir dir;
        auto paths = writeImages(dir.path(), {{16, 16}, {16, 16}, {16, 16}}, ".png");
        const std::string cachePath = (dir.path() + "/c.lbdcache").toStdString();
        std::vector<std::string> log;
        const auto logger = [&](const std::string& line) { log.push_back(line); };
        openOrBuildDatasetCache(cachePath, sourceOf(paths), settings(16), logger);
        QVERIFY(QString::fromStdString(log.back()).contains("built in"));
        log.clear();
        openOrBuildDatasetCache(cachePath, sourceOf(paths), settings(16), logger);
        QCOMPARE(log.size(), size_t(1));
        QVERIFY(QString::fromStdString(log.back()).contains("read through a memory map")); // reused as it is

        // A file rewritten (new pixels, new size and time): rebuilt, and the cache holds the new pixels.
        writeImageFile(paths[1], pattern(16, 16, 99));
        std::filesystem::last_write_time(paths[1], std::filesystem::last_write_time(paths[1]) + std::chrono::seconds(5));
        log.clear();
        auto cache = openOrBuildDatasetCache(cachePath, sourceOf(paths), settings(16), logger);
        QVERIFY2(QString::fromStdString(log.front()).contains("out of date (" + QString::fromStdString(paths[1]) + " changed"),
                 log.front().c_str());
        std::vector<uint8_t> cached(16 * 16 * 3), decoded(cached.size());
        cache->readImage(1, {3, 16, 16}, cached.data());
        decodeImageFile(paths[1], {3, 16, 16}, decoded.data());
        QVERIFY(cached == decoded);
        QCOMPARE(datasetCacheStatus(cachePath, sourceOf(paths)).current, true);

        // Only the modification time changed: still a change.
        std::filesystem::last_write_time(paths[0], std::filesystem::last_write_time(paths[0]) + std::chrono::seconds(7));
        QCOMPARE(datasetCacheStatus(cachePath, sourceOf(paths)).current, false);
        openOrBuildDatasetCache(cachePath, sourceOf(paths), settings(16), logger);

        // A file added to the list: rebuilt too.
        paths.push_back(writeImages(dir.path(), {{16, 16}}, "-new.png", 5).front());
        log.clear();
        cache = openOrBuildDatasetCache(cachePath, sourceOf(paths), settings(16), logger);
        QVERIFY2(QString::fromStdString(log.front()).contains("lists 4 files, the cache 3"), log.front().c_str());
        QCOMPARE(cache->size(), int64_t(4));
    }

    void aDamagedCacheIsRefusedByName()
    {
        QTemporaryDir dir;
        const auto paths = writeImages(dir.path(), {{20, 20}, {20, 20}}, ".png");
        const std::string cachePath = (dir.path() + "/c.lbdcache").toStdString();
        buildDatasetCache(cachePath, paths, {0, 1}, {"a", "b"}, settings(20));
        const auto bytes = static_cast<int64_t>(std::filesystem::file_size(cachePath));
        const auto refused = [&](const std::string& path) {
            try {
                const DatasetCache cache(path);
                std::vector<uint8_t> out(20 * 20 * 3);
                for (int64_t i = 0; i < cache.size(); ++i) {
                    cache.readImage(i, {3, 20, 20}, out.data());
                }
            } catch (const InputError& error) {
                return QString(error.what()).contains(QString::fromStdString(path));
            }
            return false;
        };
        QVERIFY(!refused(cachePath)); // intact

        const std::string truncated = (dir.path() + "/truncated.lbdcache").toStdString();
        std::filesystem::copy_file(cachePath, truncated);
        std::filesystem::resize_file(truncated, uintmax_t(bytes - 100)); // the last image cut short
        QVERIFY(refused(truncated));
        std::filesystem::resize_file(truncated, 40); // not even a header
        QVERIFY(refused(truncated));

        const std::string flippedIndex = (dir.path() + "/index.lbdcache").toStdString();
        std::filesystem::copy_file(cachePath, flippedIndex);
        flipByte(flippedIndex, 96 + 20); // the first entry's width
        QVERIFY(refused(flippedIndex));

        const std::string flippedPixel = (dir.path() + "/pixel.lbdcache").toStdString();
        std::filesystem::copy_file(cachePath, flippedPixel);
        flipByte(flippedPixel, bytes - 7); // a pixel of the last image: its CRC-32 fails when read
        QVERIFY(refused(flippedPixel));
        try {
            const DatasetCache cache(flippedPixel); // the index is intact: it opens
            std::vector<uint8_t> out(20 * 20 * 3);
            cache.readImage(0, {3, 20, 20}, out.data()); // the first image is intact
            cache.readImage(1, {3, 20, 20}, out.data());
            QFAIL("a flipped pixel was read");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).contains("image 1"), error.what());
        }

        // A max side outside the builder's 8..8192 under a valid checksum (a hostile writer): refused
        // when opened, since height x width x 3 of its entries could wrap 64 bits and pass the size check.
        const std::string hugeSide = (dir.path() + "/side.lbdcache").toStdString();
        std::vector<uint8_t> file(static_cast<size_t>(bytes));
        std::ifstream(cachePath, std::ios::binary).read(reinterpret_cast<char*>(file.data()), bytes);
        cacheformat::put<uint32_t>(file.data() + cacheformat::kMaxSide, uint32_t(1) << 31);
        const auto count = cacheformat::get<uint64_t>(file.data() + cacheformat::kCount);
        const auto names = cacheformat::get<uint64_t>(file.data() + cacheformat::kNamesOffset);
        cacheformat::put<uint64_t>(file.data() + cacheformat::kChecksum,
                                   cacheformat::headerChecksum(file.data(), file.data() + cacheformat::kHeaderBytes,
                                                               count * cacheformat::kEntryBytes, file.data() + names,
                                                               cacheformat::get<uint64_t>(file.data() + cacheformat::kNamesBytes)));
        std::ofstream(hugeSide, std::ios::binary).write(reinterpret_cast<const char*>(file.data()), bytes);
        QVERIFY(refused(hugeSide));
    }

    // data.alpha_background reaches the cache: an icon's transparent pixels are stored composited
    // on the run's background, not on white; another background is another file, and a cache of
    // another background found at a run's path is rebuilt, the log saying why. Hand-computed:
    // round((c a + b (255 - a)) / 255) for a red pixel at alpha 128 is (128, 0, 0) on black and
    // (255, 127, 127) on white; a transparent pixel is the background.
    void aCacheIsCompositedOnTheRunsBackground()
    {
        QTemporaryDir dir;
        std::vector<uint8_t> icon(8 * 8 * 4, 0); // transparent black, the right half red at alpha 128
        for (int y = 0; y < 8; ++y) {
            for (int x = 4; x < 8; ++x) {
                icon[size_t((y * 8 + x) * 4)] = 255;
                icon[size_t((y * 8 + x) * 4 + 3)] = 128;
            }
        }
        std::vector<std::string> paths;
        for (int i = 0; i < 2; ++i) {
            paths.push_back((dir.path() + QString("/icon%1.png").arg(i)).toStdString());
            writeRgbaPng(paths.back(), 8, 8, icon);
        }
        const AlphaBackground black{0, 0, 0};
        CacheSettings onWhite = settings(8);
        CacheSettings onBlack = settings(8);
        onBlack.background = black;
        const std::string cacheDir = (dir.path() + "/cache").toStdString();
        const std::string whitePath = datasetCachePath(cacheDir, "folder:/icons", "train", onWhite);
        const std::string blackPath = datasetCachePath(cacheDir, "folder:/icons", "train", onBlack);
        QVERIFY(whitePath != blackPath);
        QVERIFY2(whitePath.find("-on-") == std::string::npos, whitePath.c_str()); // white keeps the old name
        QVERIFY2(blackPath.find("train-8-raw-on-black-") != std::string::npos, blackPath.c_str());
        onBlack.background = {16, 32, 48};
        QVERIFY(datasetCachePath(cacheDir, "folder:/icons", "train", onBlack).find("-on-102030-") != std::string::npos);
        onBlack.background = black;

        // Pixel (row 0, column c) of image 0 as the cache gives it, R, G, B.
        const auto pixel = [](const DatasetCache& cache, int column) {
            std::vector<uint8_t> out(8 * 8 * 3);
            cache.readImage(0, {3, 8, 8}, out.data());
            return std::vector<int>{out[size_t(column)], out[size_t(64 + column)], out[size_t(128 + column)]};
        };
        std::vector<std::string> log;
        const auto logger = [&](const std::string& line) { log.push_back(line); };
        auto black8 = openOrBuildDatasetCache(blackPath, sourceOf(paths), onBlack, logger);
        QVERIFY(black8->background() == black);
        QCOMPARE(pixel(*black8, 0), (std::vector<int>{0, 0, 0}));
        QCOMPARE(pixel(*black8, 5), (std::vector<int>{128, 0, 0}));
        QVERIFY2(QString::fromStdString(log.front()).contains("composited on black"), log.front().c_str());
        std::vector<uint8_t> decoded(8 * 8 * 3), cached(decoded.size());
        decodeImageFile(paths[1], {3, 8, 8, black}, decoded.data());
        black8->readImage(1, {3, 8, 8}, cached.data());
        QVERIFY(decoded == cached);

        auto white8 = openOrBuildDatasetCache(whitePath, sourceOf(paths), onWhite, logger);
        QCOMPARE(pixel(*white8, 0), (std::vector<int>{255, 255, 255}));
        QCOMPARE(pixel(*white8, 5), (std::vector<int>{255, 127, 127}));
        log.clear();
        QVERIFY(openOrBuildDatasetCache(blackPath, sourceOf(paths), onBlack, logger)->background() == black);
        QVERIFY2(QString::fromStdString(log.back()).contains("read through a memory map"), log.back().c_str());

        // The white cache's file asked for on black (a cache from before the background was part of
        // the key, or copied over): rebuilt on black, and the log says why.
        log.clear();
        white8 = openOrBuildDatasetCache(whitePath, sourceOf(paths), onBlack, logger);
        QVERIFY2(QString::fromStdString(log.front())
                     .contains("out of date (its images were composited on white, the run's data.alpha_background is "
                               "black): rebuilding it"),
                 log.front().c_str());
        QCOMPARE(pixel(*white8, 0), (std::vector<int>{0, 0, 0}));

        // A cache written before the background was recorded (0 in its place) reads as white.
        std::vector<uint8_t> file(static_cast<size_t>(std::filesystem::file_size(whitePath)));
        std::ifstream(whitePath, std::ios::binary).read(reinterpret_cast<char*>(file.data()), std::streamsize(file.size()));
        cacheformat::put<uint32_t>(file.data() + cacheformat::kBackground, 0);
        const auto count = cacheformat::get<uint64_t>(file.data() + cacheformat::kCount);
        cacheformat::put<uint64_t>(file.data() + cacheformat::kChecksum,
                                   cacheformat::headerChecksum(file.data(), file.data() + cacheformat::kHeaderBytes,
                                                               count * cacheformat::kEntryBytes,
                                                               file.data() + cacheformat::get<uint64_t>(file.data() + cacheformat::kNamesOffset),
                                                               cacheformat::get<uint64_t>(file.data() + cacheformat::kNamesBytes)));
        const std::string older = (dir.path() + "/older.lbdcache").toStdString();
        std::ofstream(older, std::ios::binary).write(reinterpret_cast<const char*>(file.data()), std::streamsize(file.size()));
        QVERIFY(DatasetCache(older).background() == kWhiteBackground);

        // The run's settings and `lbd data cache` take the data set's background.
        Dataset dataset;
        dataset.format.background = black;
        QVERIFY(runCacheSettings(dataset, 1).background == black);
        QFile list(dir.path() + "/train.txt");
        QVERIFY(list.open(QIODevice::WriteOnly));
        list.write("icon0.png 0\nicon1.png 1\n");
        list.close();
        DataSpec spec;
        spec.dataset = "list";
        spec.directory = dir.path().toStdString();
        spec.trainList = "train.txt";
        spec.testList = "train.txt";
        spec.channels = 3;
        spec.imageSize = 8;
        spec.limits.maxInMemoryBytes = 10; // streamed, so cached
        spec.alphaBackground = black;
        const std::string listCaches = (dir.path() + "/list-cache").toStdString();
        buildDataCaches(spec, listCaches, {}, nullptr, [](const std::string&) {});
        const QStringList built = QDir(QString::fromStdString(listCaches)).entryList({"*.lbdcache"});
        QCOMPARE(built.size(), 2);
        for (const QString& name : built) {
            QVERIFY2(name.contains("-on-black-"), qPrintable(name));
            const DatasetCache cache((QString::fromStdString(listCaches) + "/" + name).toStdString());
            QCOMPARE(pixel(cache, 5), (std::vector<int>{128, 0, 0}));
        }
    }

    // The runs of a study started together: one builds the cache, the others wait on its lock and
    // read what it built.
    void concurrentRunsBuildTheCacheOnce()
    {
        QTemporaryDir dir;
        const auto paths = writeImages(dir.path(), std::vector<std::pair<int64_t, int64_t>>(12, {24, 24}), ".jpg");
        const std::string cachePath = (dir.path() + "/c.lbdcache").toStdString();
        std::mutex mutex;
        std::vector<std::string> log;
        std::vector<std::thread> runs;
        for (int run = 0; run < 4; ++run) {
            runs.emplace_back([&] {
                openOrBuildDatasetCache(cachePath, sourceOf(paths), settings(24), [&](const std::string& line) {
                    const std::lock_guard<std::mutex> lock(mutex);
                    log.push_back(line);
                });
            });
        }
        for (auto& run : runs) {
            run.join();
        }
        const auto count = [&](const char* text) {
            return std::count_if(log.begin(), log.end(), [&](const std::string& l) { return l.find(text) != std::string::npos; });
        };
        QCOMPARE(count("built in"), 1);
        QCOMPARE(count("read through a memory map"), 3);
    }

    // JPEG caches: smaller, and decoded again when read (close to the raw pixels, not equal).
    void aJpegCacheIsSmallerAndClose()
    {
        QTemporaryDir dir;
        const auto paths = writeImages(dir.path(), {{48, 64}, {64, 48}}, ".png");
        const std::string raw = (dir.path() + "/raw.lbdcache").toStdString();
        const std::string jpeg = (dir.path() + "/jpeg.lbdcache").toStdString();
        CacheSettings jpegSettings = settings(64);
        jpegSettings.format = CacheImageFormat::Jpeg;
        buildDatasetCache(raw, paths, {0, 1}, {"a", "b"}, settings(64));
        buildDatasetCache(jpeg, paths, {0, 1}, {"a", "b"}, jpegSettings);
        const DatasetCache a(raw), b(jpeg);
        QCOMPARE(b.format(), CacheImageFormat::Jpeg);
        QVERIFY(b.fileBytes() < a.fileBytes() / 2);
        for (int64_t i = 0; i < 2; ++i) {
            const ImageFormat format{3, 32, 32}; // read at the run's size: resized on the way
            std::vector<uint8_t> x(size_t(format.bytesPerImage())), y(x.size());
            a.readImage(i, format, x.data());
            b.readImage(i, format, y.data());
            double difference = 0;
            for (size_t p = 0; p < x.size(); ++p) {
                difference += std::abs(int(x[p]) - int(y[p]));
            }
            // The test pattern's saw teeth are JPEG's worst case (chroma subsampled at quality 95:
            // 5.2 levels on average here); swapped channels or a shifted image differ by tens.
            QVERIFY2(difference / double(x.size()) < 8.0, qPrintable(QString::number(difference / double(x.size()))));
        }
        // --quality: a lower quality is a smaller file (the quality reaches the encoder), and 0 or
        // 101 is refused before anything is written.
        const std::string low = (dir.path() + "/jpeg30.lbdcache").toStdString();
        jpegSettings.jpegQuality = 30;
        buildDatasetCache(low, paths, {0, 1}, {"a", "b"}, jpegSettings);
        QVERIFY2(DatasetCache(low).fileBytes() < b.fileBytes(),
                 qPrintable(QStringLiteral("quality 30: %1 bytes, 95: %2").arg(DatasetCache(low).fileBytes()).arg(b.fileBytes())));
        for (int quality : {0, 101}) {
            jpegSettings.jpegQuality = quality;
            const std::string refused = (dir.path() + "/refused.lbdcache").toStdString();
            QVERIFY(lbd::test::throwsInputError([&] { buildDatasetCache(refused, paths, {0, 1}, {"a", "b"}, jpegSettings); },
                                                {"JPEG quality"}));
            QVERIFY(!QFileInfo::exists(QString::fromStdString(refused)));
        }
    }

    // A split over the memory budget is streamed; with a cache, from the map: the cache object
    // holds only its index, and the batches are those of the files, bit for bit, epoch after epoch.
    void aCacheOverTheBudgetStreamsAndGivesTheSameBatches()
    {
        QTemporaryDir dir;
        std::vector<std::pair<int64_t, int64_t>> sizes(40, {32, 32});
        const auto paths = writeImages(dir.path(), sizes, ".jpg");
        const std::string cachePath = (dir.path() + "/c.lbdcache").toStdString();
        const int64_t budget = 64 * 1024;
        buildDatasetCache(cachePath, paths, sourceOf(paths).labels, {"a", "b"}, settings(32));
        auto cache = std::make_shared<const DatasetCache>(cachePath);
        QVERIFY(cache->fileBytes() > budget);
        QVERIFY(cache->heapBytes() < budget / 4);

        DataSplit split;
        split.files = paths;
        split.labels = torch::tensor(sourceOf(paths).labels, torch::kInt64);
        const ImageFormat format{3, 32, 32};
        AugmentSpec augment;
        augment.outputSize = 32;
        augment.padding = 4;
        const Normalization n{{0.5f, 0.5f, 0.5f}, {0.25f, 0.25f, 0.25f}};
        BatchOptions files;
        files.batchSize = 6;
        files.seed = 3;
        files.decodeThreads = 2;
        BatchOptions cached = files;
        cached.caches = {cache};
        auto a = makeBatchSource(split, format, torch::kCPU, augment, n, files);
        auto b = makeBatchSource(split, format, torch::kCPU, augment, n, cached);
        for (int epoch = 1; epoch <= 2; ++epoch) {
            a->startEpoch(epoch);
            b->startEpoch(epoch);
            Batch x, y;
            while (a->next(x)) {
                QVERIFY(b->next(y));
                QVERIFY(torch::equal(x.labels, y.labels));
                QVERIFY(torch::equal(x.images, y.images));
            }
            QVERIFY(!b->next(y));
            QVERIFY(b->inputTimings().fromCache);
            QCOMPARE(b->inputTimings().batches, int64_t(7));
            QVERIFY(!a->inputTimings().fromCache);
        }
    }

    // Two epochs of a tiny list-data run, streamed from the files and from the cache, same seed:
    // the same losses and the same test accuracy (the CPU is deterministic).
    void aRunFromTheCacheTrainsAsFromTheFiles()
    {
        QTemporaryDir dir;
        SyntheticSpec synthetic;
        synthetic.classes = 4;
        synthetic.trainPerClass = 24;
        synthetic.testPerClass = 6;
        synthetic.channels = 1;
        synthetic.size = 16;
        const Dataset source = makeSyntheticDataset(synthetic);
        const auto writeList = [&](const DataSplit& split, const QString& name) {
            QFile list(dir.path() + "/" + name + ".txt");
            QVERIFY(list.open(QIODevice::WriteOnly));
            for (int64_t i = 0; i < split.size(); ++i) {
                const QString file = QString("%1-%2.png").arg(name).arg(i);
                writeImageFile((dir.path() + "/" + file).toStdString(), split.images[i]);
                list.write(QString("%1 %2\n").arg(file).arg(split.labels[i].item<int64_t>()).toUtf8());
            }
        };
        writeList(source.train, "train");
        writeList(source.test, "test");
        TrainConfig config = test::tinyConfig(2);
        config.data = DataSpec{};
        config.data.dataset = "list";
        config.data.directory = dir.path().toStdString();
        config.data.trainList = "train.txt";
        config.data.testList = "test.txt";
        config.data.channels = 1;
        config.data.imageSize = 16;
        config.data.limits.maxInMemoryBytes = 1000; // streamed
        config.data.longTail.imbalanceRatio = 4;
        config.data.longTail.profile = test::tinyConfig().data.longTail.profile;
        std::vector<std::string> cacheLog;
        const auto run = [&](const std::string& cache, const QString& name) {
            TrainConfig c = config;
            c.data.cache = cache;
            c.data.cacheDirectory = (dir.path() + "/cache").toStdString();
            std::vector<double> losses;
            TrainingCallbacks callbacks;
            callbacks.onEpoch = [&](const EpochMetrics& m) { losses.push_back(m.objective.total); };
            callbacks.onMessage = [&](const std::string& line) {
                if (line.find("dataset cache") != std::string::npos || line.find("input:") != std::string::npos) {
                    cacheLog.push_back(line);
                }
            };
            const TrainingResult result = Trainer(c, (dir.path() + "/" + name).toStdString()).run(callbacks);
            losses.push_back(result.finalReport->overall.accuracy);
            return losses;
        };
        const auto fromFiles = run("off", "files");
        const auto fromCache = run("auto", "cached");
        QCOMPARE(fromFiles.size(), size_t(3));
        QCOMPARE(fromCache, fromFiles);
        const auto built = std::count_if(cacheLog.begin(), cacheLog.end(),
                                         [](const std::string& l) { return l.find("built in") != std::string::npos; });
        QCOMPARE(built, 2); // train and test
        QVERIFY(std::any_of(cacheLog.begin(), cacheLog.end(),
                            [](const std::string& l) { return l.find("input: cache read") != std::string::npos; }));
        QVERIFY(std::any_of(cacheLog.begin(), cacheLog.end(),
                            [](const std::string& l) { return l.find("input: decode") != std::string::npos; }));
    }
};

QTEST_APPLESS_MAIN(TestDatasetCache)
#include "test_datasetcache.moc"
