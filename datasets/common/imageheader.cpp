#include "datasets/common/imageheader.h"

#include "datasets/common/error.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <string_view>

namespace lbd {
namespace {

using namespace std::string_view_literals; // "II*\0"sv keeps its NUL

// Bounds-checked reads of the header bytes: every read past the end gives nullopt, so a truncated
// header is "size unknown", never a read out of bounds.
class Bytes {
public:
    Bytes(const uint8_t* data, size_t size) : m_data(data), m_size(size) {}

    size_t size() const { return m_size; }
    bool has(size_t offset, size_t count) const { return offset <= m_size && count <= m_size - offset; }
    bool startsWith(size_t offset, std::string_view text) const
    {
        return has(offset, text.size()) && std::memcmp(m_data + offset, text.data(), text.size()) == 0;
    }
    std::optional<uint8_t> u8(size_t offset) const
    {
        return has(offset, 1) ? std::optional<uint8_t>(m_data[offset]) : std::nullopt;
    }
    // Unsigned little- or big-endian integer of `count` (1..4) bytes.
    std::optional<uint32_t> uint(size_t offset, size_t count, bool bigEndian) const
    {
        if (!has(offset, count)) {
            return std::nullopt;
        }
        uint32_t value = 0;
        for (size_t i = 0; i < count; ++i) {
            const uint32_t byte = m_data[offset + (bigEndian ? i : count - 1 - i)];
            value = (value << 8) | byte;
        }
        return value;
    }

private:
    const uint8_t* m_data;
    size_t m_size;
};

ImageHeader sized(const char* format, std::optional<int64_t> width, std::optional<int64_t> height)
{
    ImageHeader header{format};
    if (width && height) {
        header.width = *width;
        header.height = *height;
    }
    return header;
}

ImageHeader parsePng(const Bytes& b)
{
    // The IHDR chunk comes first: length (13), "IHDR", width, height (big-endian).
    if (!b.startsWith(12, "IHDR")) {
        return sized("PNG", std::nullopt, std::nullopt);
    }
    return sized("PNG", b.uint(16, 4, true), b.uint(20, 4, true));
}

ImageHeader parseJpeg(const Bytes& b)
{
    size_t at = 2; // after SOI
    while (b.has(at, 2)) {
        if (*b.u8(at) != 0xFF) {
            break; // not a marker where one must be: corrupt, OpenCV will say so
        }
        uint8_t marker = *b.u8(at + 1);
        if (marker == 0xFF) { // fill byte before a marker
            ++at;
            continue;
        }
        at += 2;
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
            continue; // stand-alone markers carry no length
        }
        if (marker == 0xD9 || marker == 0xDA) {
            break; // end of image, or scan data before any frame header
        }
        const auto length = b.uint(at, 2, true);
        if (!length || *length < 2) {
            break;
        }
        // SOF0..SOF15 hold the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames.
        if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            const auto height = b.uint(at + 3, 2, true);
            const auto width = b.uint(at + 5, 2, true);
            // A height of 0 is defined later by a DNL marker: unknown here.
            if (height && *height == 0) {
                return sized("JPEG", std::nullopt, std::nullopt);
            }
            return sized("JPEG", width, height);
        }
        at += *length;
    }
    return sized("JPEG", std::nullopt, std::nullopt);
}

ImageHeader parseBmp(const Bytes& b)
{
    const auto infoSize = b.uint(14, 4, false);
    if (infoSize && *infoSize == 12) { // OS/2 BITMAPCOREHEADER: 16-bit sizes
        return sized("BMP", b.uint(18, 2, false), b.uint(20, 2, false));
    }
    const auto width = b.uint(18, 4, false);
    const auto height = b.uint(22, 4, false);
    if (!width || !height) {
        return sized("BMP", std::nullopt, std::nullopt);
    }
    // Signed 32-bit; a negative height means rows stored top-down.
    const auto magnitude = [](uint32_t raw) {
        const int64_t value = raw >= 0x80000000u ? int64_t(raw) - (int64_t(1) << 32) : int64_t(raw);
        return value < 0 ? -value : value;
    };
    return sized("BMP", magnitude(*width), magnitude(*height));
}

ImageHeader parseWebp(const Bytes& b)
{
    if (b.startsWith(12, "VP8 ")) {
        // Lossy: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height.
        const auto width = b.uint(26, 2, false);
        const auto height = b.uint(28, 2, false);
        if (!b.startsWith(23, "\x9d\x01\x2a") || !width || !height) {
            return sized("WebP", std::nullopt, std::nullopt);
        }
        return sized("WebP", *width & 0x3FFF, *height & 0x3FFF);
    }
    if (b.startsWith(12, "VP8L")) {
        // Lossless: signature 0x2f, then width - 1 and height - 1 in 14 bits each.
        const auto bits = b.uint(21, 4, false);
        if (b.u8(20) != std::optional<uint8_t>(0x2F) || !bits) {
            return sized("WebP", std::nullopt, std::nullopt);
        }
        return sized("WebP", int64_t(*bits & 0x3FFF) + 1, int64_t((*bits >> 14) & 0x3FFF) + 1);
    }
    if (b.startsWith(12, "VP8X")) {
        // Extended: flags (4 bytes), then canvas width - 1 and height - 1 in 24 bits each.
        const auto width = b.uint(24, 3, false);
        const auto height = b.uint(27, 3, false);
        if (!width || !height) {
            return sized("WebP", std::nullopt, std::nullopt);
        }
        return sized("WebP", int64_t(*width) + 1, int64_t(*height) + 1);
    }
    return sized("WebP", std::nullopt, std::nullopt);
}

// PNM text header fields: whitespace and '#' comments between decimal numbers. Numbers beyond
// 2^40 saturate there (still far above any pixel limit) rather than overflow.
class PnmScanner {
public:
    PnmScanner(const Bytes& b, size_t at) : m_b(b), m_at(at) {}

    void skipSpaceAndComments()
    {
        while (auto c = m_b.u8(m_at)) {
            if (*c == '#') {
                while (m_b.u8(m_at) && *m_b.u8(m_at) != '\n' && *m_b.u8(m_at) != '\r') {
                    ++m_at;
                }
            } else if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r' || *c == '\v' || *c == '\f') {
                ++m_at;
            } else {
                return;
            }
        }
    }
    std::optional<int64_t> number()
    {
        skipSpaceAndComments();
        std::optional<int64_t> value;
        constexpr int64_t kSaturated = int64_t(1) << 40;
        while (auto c = m_b.u8(m_at)) {
            if (*c < '0' || *c > '9') {
                break;
            }
            value = std::min(kSaturated, value.value_or(0) * 10 + (*c - '0'));
            ++m_at;
        }
        return value;
    }
    // PAM (P7): "WIDTH w" and "HEIGHT h" lines up to ENDHDR.
    std::optional<int64_t> pamField(std::string_view name)
    {
        for (size_t at = m_at; m_b.has(at, 1); ++at) {
            if (m_b.startsWith(at, "ENDHDR")) {
                return std::nullopt;
            }
            const bool lineStart = m_b.u8(at - 1) == std::optional<uint8_t>('\n');
            if (lineStart && m_b.startsWith(at, name)) {
                PnmScanner field(m_b, at + name.size());
                return field.number();
            }
        }
        return std::nullopt;
    }

private:
    const Bytes& m_b;
    size_t m_at;
};

ImageHeader parsePnm(const Bytes& b)
{
    PnmScanner scanner(b, 2);
    if (b.u8(1) == std::optional<uint8_t>('7')) {
        return sized("PNM", scanner.pamField("WIDTH"), scanner.pamField("HEIGHT"));
    }
    const auto width = scanner.number();
    const auto height = scanner.number();
    return sized("PNM", width, height);
}

ImageHeader parseTiff(const Bytes& b)
{
    const bool big = b.u8(0) == std::optional<uint8_t>('M');
    const auto ifd = b.uint(4, 4, big);
    const auto count = ifd ? b.uint(*ifd, 2, big) : std::nullopt;
    if (!count) {
        return sized("TIFF", std::nullopt, std::nullopt);
    }
    std::optional<int64_t> width, height;
    for (size_t i = 0; i < *count; ++i) {
        const size_t entry = size_t(*ifd) + 2 + 12 * i;
        const auto tag = b.uint(entry, 2, big);
        const auto type = b.uint(entry + 2, 2, big);
        if (!tag || !type) {
            break;
        }
        // SHORT (3) values sit in the first two bytes of the value field, LONG (4) fill it.
        const auto value = *type == 3 ? b.uint(entry + 8, 2, big) : *type == 4 ? b.uint(entry + 8, 4, big) : std::nullopt;
        if (*tag == 256 && value) {
            width = *value;
        } else if (*tag == 257 && value) {
            height = *value;
        }
    }
    return sized("TIFF", width, height);
}

} // namespace

std::optional<ImageHeader> parseImageHeader(const uint8_t* data, size_t size)
{
    const Bytes b(data, size);
    if (b.startsWith(0, "\x89PNG\r\n\x1a\n")) {
        return parsePng(b);
    }
    if (b.startsWith(0, "\xFF\xD8\xFF")) {
        return parseJpeg(b);
    }
    if (b.startsWith(0, "BM")) {
        return parseBmp(b);
    }
    if (b.startsWith(0, "RIFF") && b.startsWith(8, "WEBP")) {
        return parseWebp(b);
    }
    if (b.startsWith(0, "P") && b.u8(1) && *b.u8(1) >= '1' && *b.u8(1) <= '7') {
        return parsePnm(b);
    }
    if (b.startsWith(0, "II*\0"sv) || b.startsWith(0, "MM\0*"sv)) {
        return parseTiff(b);
    }
    if (b.startsWith(0, "GIF87a") || b.startsWith(0, "GIF89a")) {
        return sized("GIF", b.uint(6, 2, false), b.uint(8, 2, false));
    }
    return std::nullopt;
}

void checkImageHeader(const uint8_t* data, size_t size, const std::string& label, const ReadLimits& limits)
{
    const std::optional<ImageHeader> header = parseImageHeader(data, size);
    if (!header) {
        return;
    }
    if (header->format == "GIF") {
        throw InputError(label + ": GIF images are not supported (convert to PNG)");
    }
    // Compared by division: two 32-bit sizes multiplied may overflow int64.
    if (header->sizeKnown() && header->width > 0 && header->height > limits.maxImagePixels / header->width) {
        throw ReadLimitError(label + ": " + header->format + " image of " + std::to_string(header->width) + " x "
                         + std::to_string(header->height) + " pixels is over the limit of "
                         + std::to_string(limits.maxImagePixels) + " pixels (maxImagePixels)");
    }
}

std::vector<uint8_t> readFileHead(const std::string& path, size_t count)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw InputError(path + ": cannot open file");
    }
    std::vector<uint8_t> bytes(count);
    in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(count));
    if (in.bad()) {
        throw InputError(path + ": cannot read file");
    }
    bytes.resize(static_cast<size_t>(in.gcount()));
    return bytes;
}

} // namespace lbd
