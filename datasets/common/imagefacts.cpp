#include "datasets/common/imagefacts.h"

#include "datasets/common/pngchunks.h"

#include <cstring>

namespace lbd {
namespace {

uint32_t big32(const uint8_t* p)
{
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

uint16_t read16(const uint8_t* p, bool little)
{
    return little ? uint16_t(p[0] | (p[1] << 8)) : uint16_t((p[0] << 8) | p[1]);
}

uint32_t read32(const uint8_t* p, bool little)
{
    return little ? uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24) : big32(p);
}

void readPng(const uint8_t* data, size_t size, ImageFacts& facts)
{
    // Signature (8), IHDR length (4), "IHDR" (4), width (4), height (4), bit depth (1), colour type (1).
    if (size < 26 || std::memcmp(data + 12, "IHDR", 4) != 0) {
        return;
    }
    facts.bitDepth = data[24];
    const int colourType = data[25];
    bool transparency = false;
    for (size_t at = 8; size - at >= 12;) {
        const uint64_t length = big32(data + at);
        if (length > size - at - 12) {
            break;
        }
        const uint8_t* type = data + at + 4;
        if (std::memcmp(type, "tRNS", 4) == 0) {
            transparency = true;
        }
        if (std::memcmp(type, "IDAT", 4) == 0 || std::memcmp(type, "IEND", 4) == 0) {
            break; // tRNS comes before the image data
        }
        at += 12 + length;
    }
    switch (colourType) {
    case 0: facts.kind = transparency ? "grey with a transparent level" : "grey"; break;
    case 2: facts.kind = transparency ? "RGB with a transparent colour" : "RGB"; break;
    case 3: facts.kind = transparency ? "palette with transparency" : "palette"; break;
    case 4: facts.kind = "grey+alpha"; break;
    case 6: facts.kind = "RGBA"; break;
    default: return;
    }
    facts.hasAlpha = transparency || colourType == 4 || colourType == 6;
}

void readJpeg(const uint8_t* data, size_t size, ImageFacts& facts)
{
    size_t at = 2; // after SOI
    while (at + 4 <= size) {
        if (data[at] != 0xFF) {
            return;
        }
        const uint8_t marker = data[at + 1];
        if (marker == 0xFF) {
            ++at; // fill byte
            continue;
        }
        if (marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01) {
            at += 2; // markers without a length
            continue;
        }
        const size_t length = (size_t(data[at + 2]) << 8) | data[at + 3];
        if (length < 2 || at + 2 + length > size) {
            return;
        }
        const uint8_t* payload = data + at + 4;
        const size_t payloadSize = length - 2;
        if (marker == 0xE1 && payloadSize >= 6 && std::memcmp(payload, "Exif\0\0", 6) == 0) {
            facts.orientation = exifOrientation(payload, payloadSize);
        } else if (marker == 0xEE && payloadSize >= 5 && std::memcmp(payload, "Adobe", 5) == 0) {
            facts.adobeMarker = true;
        } else if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            // Start of frame: precision (1), height (2), width (2), components (1).
            if (payloadSize >= 6) {
                facts.bitDepth = payload[0];
                facts.jpegComponents = payload[5];
                facts.kind = payload[5] == 1 ? "grey" : payload[5] == 4 ? "CMYK" : "colour";
            }
        } else if (marker == 0xDA) {
            return; // start of scan: the headers are over
        }
        at += 2 + length;
    }
}

} // namespace

int exifOrientation(const uint8_t* payload, size_t size)
{
    // "Exif\0\0", then a TIFF header: byte order (II / MM), 42, offset of IFD0.
    if (size < 14 || std::memcmp(payload, "Exif\0\0", 6) != 0) {
        return 1;
    }
    const uint8_t* tiff = payload + 6;
    const size_t tiffSize = size - 6;
    const bool little = tiff[0] == 'I' && tiff[1] == 'I';
    if (!little && !(tiff[0] == 'M' && tiff[1] == 'M')) {
        return 1;
    }
    const uint32_t ifd = read32(tiff + 4, little);
    if (ifd > tiffSize || tiffSize - ifd < 2) {
        return 1;
    }
    const size_t entries = read16(tiff + ifd, little);
    for (size_t i = 0; i < entries; ++i) {
        const size_t entry = ifd + 2 + 12 * i;
        if (entry + 12 > tiffSize) {
            return 1;
        }
        if (read16(tiff + entry, little) == 0x0112) { // Orientation, a SHORT held in the entry
            const int value = read16(tiff + entry + 8, little);
            return value >= 1 && value <= 8 ? value : 1;
        }
    }
    return 1;
}

ImageFacts readImageFacts(const uint8_t* data, size_t size)
{
    ImageFacts facts;
    if (isPngData(data, size)) {
        readPng(data, size, facts);
    } else if (size >= 4 && data[0] == 0xFF && data[1] == 0xD8) {
        readJpeg(data, size, facts);
    }
    return facts;
}

} // namespace lbd
