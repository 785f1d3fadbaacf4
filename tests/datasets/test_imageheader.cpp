// Image headers (datasets/common/imageheader): the size each format claims, read from files that
// OpenCV wrote and from hand-made headers of the variants it does not write; and the decoder
// refusing an image from its header (too many pixels, GIF) before OpenCV allocates for it.
#include "datasets/common/imagedecoder.h"
#include "datasets/common/imageheader.h"
#include "tests/support/expect.h"

#include <QTemporaryDir>

#include <zlib.h>

#include <fstream>
#include <limits>

using namespace lbd;
using test::throwsInputError;

namespace {

using Bytes = std::vector<uint8_t>;

Bytes text(const std::string& s)
{
    return Bytes(s.begin(), s.end());
}

void append(Bytes& bytes, const Bytes& more)
{
    bytes.insert(bytes.end(), more.begin(), more.end());
}

void appendBig32(Bytes& bytes, uint32_t value)
{
    for (int shift = 24; shift >= 0; shift -= 8) {
        bytes.push_back(static_cast<uint8_t>(value >> shift));
    }
}

void appendChunk(Bytes& bytes, const std::string& type, const Bytes& body)
{
    appendBig32(bytes, static_cast<uint32_t>(body.size()));
    Bytes chunk = text(type);
    append(chunk, body);
    append(bytes, chunk);
    appendBig32(bytes, static_cast<uint32_t>(crc32(0, chunk.data(), static_cast<uInt>(chunk.size()))));
}

// A PNG signature and an IHDR chunk with a valid CRC, so libpng accepts the header as it is;
// `withData` adds a (far too short) IDAT and IEND, so that libpng's header read gets as far as
// the first IDAT and OpenCV goes on to its own size check.
Bytes pngHeader(uint32_t width, uint32_t height, bool withData = false)
{
    Bytes bytes = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    Bytes ihdr;
    appendBig32(ihdr, width);
    appendBig32(ihdr, height);
    append(ihdr, {8, 2, 0, 0, 0}); // 8-bit RGB
    appendChunk(bytes, "IHDR", ihdr);
    if (withData) {
        appendChunk(bytes, "IDAT", {0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01});
        appendChunk(bytes, "IEND", {});
    }
    return bytes;
}

std::optional<ImageHeader> parse(const Bytes& bytes)
{
    return parseImageHeader(bytes.data(), bytes.size());
}

bool hasSize(const Bytes& bytes, const std::string& format, int64_t width, int64_t height)
{
    const auto header = parse(bytes);
    if (!header) {
        qWarning("%s: not recognised", format.c_str());
        return false;
    }
    if (header->format != format || header->width != width || header->height != height) {
        qWarning("expected %s %lld x %lld, parsed %s %lld x %lld", format.c_str(), (long long)width, (long long)height,
                 header->format.c_str(), (long long)header->width, (long long)header->height);
        return false;
    }
    return true;
}

Bytes readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void writeAll(const std::string& path, const Bytes& bytes)
{
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

} // namespace

class TestImageHeader : public QObject {
    Q_OBJECT
private slots:
    void filesWrittenByOpenCvGiveTheirSize()
    {
        if (!imageDecodingAvailable()) {
            QSKIP("built without OpenCV");
        }
        QTemporaryDir dir;
        const ImageFormat format{3, 20, 24}; // 24 wide, 20 high: width and height cannot be swapped unnoticed
        const std::vector<uint8_t> pixels(static_cast<size_t>(format.bytesPerImage()), 77);
        const std::vector<std::pair<std::string, std::string>> files = {
            {"a.png", "PNG"}, {"a.jpg", "JPEG"}, {"a.bmp", "BMP"}, {"a.tiff", "TIFF"}, {"a.webp", "WebP"}, {"a.ppm", "PNM"}};
        for (const auto& [name, formatName] : files) {
            const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
            writeImageFile(path, pixels.data(), format);
            QVERIFY2(hasSize(readAll(path), formatName, 24, 20), name.c_str());
        }
    }

    void handMadeHeadersGiveTheirSize()
    {
        // JPEG: an APP1 and a DHT segment (C4, inside the SOF range but not a frame) before SOF2.
        Bytes jpeg = {0xFF, 0xD8, 0xFF, 0xE1, 0, 4, 1, 2, 0xFF, 0xFF, 0xC4, 0, 7, 8, 0x11, 0x22, 0x33, 0x44};
        append(jpeg, {0xFF, 0xC2, 0, 11, 8, 0x01, 0x2C, 0x02, 0x58, 3});
        QVERIFY(hasSize(jpeg, "JPEG", 600, 300));
        // BMP with a negative height (rows stored top-down).
        Bytes bmp = text("BM");
        bmp.resize(14, 0);
        append(bmp, {40, 0, 0, 0, 0x10, 0x27, 0, 0, 0xF0, 0xD8, 0xFF, 0xFF}); // 10000 x -10000
        QVERIFY(hasSize(bmp, "BMP", 10000, 10000));
        // TIFF, big-endian, with a LONG width and a SHORT height.
        Bytes tiff = {'M', 'M', 0, 42, 0, 0, 0, 8, 0, 2};
        append(tiff, {1, 0, 0, 4, 0, 0, 0, 1, 0, 1, 0x86, 0xA0}); // 256 ImageWidth LONG 100000
        append(tiff, {1, 1, 0, 3, 0, 0, 0, 1, 0x03, 0xE8, 0, 0}); // 257 ImageLength SHORT 1000
        QVERIFY(hasSize(tiff, "TIFF", 100000, 1000));
        // WebP lossless (VP8L: 14-bit width - 1 and height - 1) and extended (VP8X: 24-bit each).
        Bytes vp8l = text(std::string("RIFF\0\0\0\0WEBPVP8L\0\0\0\0", 20)); // sizes of RIFF and chunk unread
        append(vp8l, {0x2F, 0x63, 0xC0, 0xF3, 0x01}); // width 100, height 2000
        QVERIFY(hasSize(vp8l, "WebP", 100, 2000));
        Bytes vp8x = text(std::string("RIFF\0\0\0\0WEBPVP8X\0\0\0\0", 20));
        append(vp8x, {0, 0, 0, 0, 0x9F, 0x86, 0x01, 0xFF, 0xFF, 0xFF}); // width 100000, height 2^24
        QVERIFY(hasSize(vp8x, "WebP", 100000, 1 << 24));
        // PNM with a comment between the sizes, and PAM.
        QVERIFY(hasSize(text("P5\n# made by hand\n640 # width\n 480\n255\n"), "PNM", 640, 480));
        QVERIFY(hasSize(text("P7\nWIDTH 30\nHEIGHT 40\nDEPTH 3\nMAXVAL 255\nENDHDR\n"), "PNM", 30, 40));
        QVERIFY(hasSize(text(std::string("GIF89a\x40\x01\xF0\x00", 10)), "GIF", 320, 240));
    }

    void truncatedOrUnknownHeaders()
    {
        const Bytes png = pngHeader(7, 9);
        QVERIFY(hasSize(png, "PNG", 7, 9));
        for (size_t length = 8; length < 24; ++length) {
            const auto header = parseImageHeader(png.data(), length);
            QVERIFY(header && header->format == "PNG" && !header->sizeKnown());
        }
        QVERIFY(!parse(text("just some text")));
        QVERIFY(!parse({}));
        const Bytes jpegWithoutFrame = {0xFF, 0xD8, 0xFF, 0xDA, 0, 2};
        QVERIFY(!parse(jpegWithoutFrame)->sizeKnown());
    }

    void hugeImageIsRefusedFromItsHeader()
    {
        if (!imageDecodingAvailable()) {
            QSKIP("built without OpenCV");
        }
        QTemporaryDir dir;
        const std::string path = dir.filePath("huge.png").toStdString();
        writeAll(path, pngHeader(100000, 100000));
        std::vector<uint8_t> out(3 * 8 * 8);
        const std::vector<std::string> expected = {path, "100000 x 100000", "67108864 pixels", "maxImagePixels"};
        QVERIFY(throwsInputError([&] { decodeImageFile(path, {3, 8, 8}, out.data()); }, expected));
        QVERIFY(throwsInputError([&] { decodeImageBytes(pngHeader(100000, 100000), "pasted", {3, 8, 8}, out.data()); },
                                 {"pasted", "maxImagePixels"}));
        // 8192 x 8192 is at the limit, not over it: OpenCV is asked, and fails on the missing data.
        writeAll(path, pngHeader(8192, 8192));
        QVERIFY(throwsInputError([&] { decodeImageFile(path, {3, 8, 8}, out.data()); }, {path, "cannot decode"}));
    }

    void openCvExceptionsBecomeInputErrors()
    {
        if (!imageDecodingAvailable()) {
            QSKIP("built without OpenCV");
        }
        // With the header check lifted, OpenCV's own size check (2^30 pixels) throws cv::Exception.
        QTemporaryDir dir;
        const std::string path = dir.filePath("huge.png").toStdString();
        writeAll(path, pngHeader(100000, 100000, true));
        ReadLimits limits;
        limits.maxImagePixels = std::numeric_limits<int64_t>::max();
        std::vector<uint8_t> out(3 * 8 * 8);
        QVERIFY(throwsInputError([&] { decodeImageFile(path, {3, 8, 8}, out.data(), limits); }, {path, "OpenCV"}));
    }

    void gifIsRefusedByName()
    {
        if (!imageDecodingAvailable()) {
            QSKIP("built without OpenCV");
        }
        QTemporaryDir dir;
        const std::string path = dir.filePath("anim.gif").toStdString();
        writeAll(path, text(std::string("GIF89a\x02\x00\x02\x00\x00\x00\x00;", 14)));
        std::vector<uint8_t> out(3 * 8 * 8);
        QVERIFY(throwsInputError([&] { decodeImageFile(path, {3, 8, 8}, out.data()); },
                                 {path, "GIF images are not supported (convert to PNG)"}));
    }

    void fileSizeAndKindAreChecked()
    {
        if (!imageDecodingAvailable()) {
            QSKIP("built without OpenCV");
        }
        QTemporaryDir dir;
        const std::string path = dir.filePath("small.png").toStdString();
        const std::vector<uint8_t> pixels(3 * 4 * 4, 9);
        writeImageFile(path, pixels.data(), {3, 4, 4});
        ReadLimits limits;
        limits.maxImageFileBytes = 10;
        std::vector<uint8_t> out(3 * 4 * 4);
        QVERIFY(throwsInputError([&] { decodeImageFile(path, {3, 4, 4}, out.data(), limits); },
                                 {path, "over the limit of 10 bytes", "maxImageFileBytes"}));
        decodeImageFile(path, {3, 4, 4}, out.data()); // the default limit passes it
        QCOMPARE(out, pixels);
        const std::string folder = dir.path().toStdString();
        QVERIFY(throwsInputError([&] { decodeImageFile(folder, {3, 4, 4}, out.data()); }, {folder, "not a regular file"}));
    }
};

QTEST_APPLESS_MAIN(TestImageHeader)
#include "test_imageheader.moc"
