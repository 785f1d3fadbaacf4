// Image decoding with libjpeg-turbo, for builds without OpenCV (the headless GPU build): JPEG only.
// It decodes at the smallest DCT scale (1/8, 1/4, 1/2) that still covers the requested size, lets
// libjpeg convert to RGB or grey, and resizes in plain C++ (datasets/common/imageresize.h), as the
// OpenCV decoder does with cv::resize. libjpeg reports errors through a callback that must not
// return: it longjmps back to the step that started it (libjpeg::Reader in libjpegerrors.h, JpegWriter below), whose
// frames hold nothing with a destructor; everything that does is owned by their callers.
#include "datasets/common/imagedecoder.h"

#include "datasets/common/error.h"
#include "datasets/common/imagedecoderchecks.h"
#include "datasets/common/decoderules.h"
#include "datasets/common/imagefacts.h"
#include "datasets/common/imageheader.h"
#include "datasets/common/imageresize.h"

#include <algorithm>
#include <cctype>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <jpeglib.h>
#include <jerror.h>

#include "datasets/common/libjpegerrors.h"

namespace lbd {
namespace {

#define LBD_JPEG_STRING2(x) #x
#define LBD_JPEG_STRING(x) LBD_JPEG_STRING2(x)

[[noreturn]] void notJpeg(const std::string& label, const std::string& what)
{
    throw InputError(label + ": " + what + "; this build of LBD Studio decodes JPEG only (libjpeg-turbo, built without OpenCV)");
}

// The checks made before decoding: size on disk, the format and the pixel count its header claims.
void checkBytes(const std::vector<uint8_t>& bytes, const std::string& label, const ImageFormat& format, const ReadLimits& limits)
{
    if (bytes.empty()) {
        throw InputError(label + ": empty file");
    }
    checkImageFileSize(static_cast<int64_t>(bytes.size()), label, limits);
    const size_t headSize = std::min(bytes.size(), static_cast<size_t>(kImageHeaderBytes));
    const auto header = parseImageHeader(bytes.data(), headSize);
    if (header && header->format != "JPEG") {
        notJpeg(label, "a " + header->format + " image");
    }
    if (!header) {
        notJpeg(label, "not a JPEG file");
    }
    checkImageHeader(bytes.data(), headSize, label, limits);
    if (format.channels != 1 && format.channels != 3) {
        throw InputError(label + ": " + std::to_string(format.channels) + " channels requested (use 1 or 3)");
    }
    if (format.height < 1 || format.width < 1) {
        throw InputError(label + ": cannot resize to " + std::to_string(format.height) + " x " + std::to_string(format.width));
    }
}

// What libjpeg should give for `channels`: grey and colour conversions it does itself; CMYK is
// converted here (libjpeg has no CMYK -> RGB).
J_COLOR_SPACE outputSpace(J_COLOR_SPACE stored, int64_t channels, const std::string& label)
{
    switch (stored) {
    case JCS_GRAYSCALE:
        return JCS_GRAYSCALE;
    case JCS_YCbCr:
    case JCS_RGB:
        return channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    case JCS_CMYK:
    case JCS_YCCK:
        return JCS_CMYK;
    default:
        throw InputError(label + ": JPEG in an unsupported colour space (" + std::to_string(int(stored)) + ")");
    }
}

// The largest DCT down-scaling (1/8, 1/4, 1/2) whose output still covers the target in both axes.
unsigned dctDenominator(unsigned width, unsigned height, const ImageFormat& format)
{
    for (const unsigned denominator : {8u, 4u, 2u}) {
        if (int64_t((width + denominator - 1) / denominator) >= format.width
            && int64_t((height + denominator - 1) / denominator) >= format.height) {
            return denominator;
        }
    }
    return 1;
}

void decodeJpeg(const std::vector<uint8_t>& bytes, const std::string& label, const ImageFormat& format, uint8_t* out,
                const ReadLimits& limits, DecodedImageInfo* infoOut)
{
    checkBytes(bytes, label, format, limits);
    const ImageFacts facts = readImageFacts(bytes.data(), bytes.size());
    libjpeg::Reader reader(bytes.data(), bytes.size());
    const auto failed = [&] { return InputError(label + ": cannot decode JPEG (libjpeg: " + reader.message() + ")"); };
    if (!reader.readHeader()) {
        throw failed();
    }
    const auto& info = reader.info();
    // The header's size again, as libjpeg read it: its frame header may lie past the bytes checked above.
    if (int64_t(info.image_height) > limits.maxImagePixels / std::max<int64_t>(1, info.image_width)) {
        throw ReadLimitError(label + ": JPEG image of " + std::to_string(info.image_width) + " x " + std::to_string(info.image_height)
                         + " pixels is over the limit of " + std::to_string(limits.maxImagePixels) + " pixels (maxImagePixels)");
    }
    const J_COLOR_SPACE output = outputSpace(info.jpeg_color_space, format.channels, label);
    // Turned a quarter (EXIF orientation 5..8): the stored width becomes the target's height.
    ImageFormat stored = format;
    if (facts.orientation >= 5) {
        std::swap(stored.height, stored.width);
    }
    if (!reader.start(output, dctDenominator(info.image_width, info.image_height, stored))) {
        throw failed();
    }
    const size_t pixels = static_cast<size_t>(info.output_width) * info.output_height;
    std::vector<uint8_t> decoded(pixels * static_cast<size_t>(info.output_components));
    if (!reader.readRows(decoded.data())) {
        throw failed();
    }
    int components = info.output_components;
    int rows = static_cast<int>(info.output_height);
    int columns = static_cast<int>(info.output_width);
    // The picture spans image / denominator output pixels; the last row and column may be partial.
    const double denominator = static_cast<double>(info.scale_denom) / info.scale_num;
    double usedRows = info.image_height / denominator;
    double usedColumns = info.image_width / denominator;
    AppliedRules applied;
    if (output == JCS_CMYK || facts.orientation != 1) {
        // The rules of decoderules.h: CMYK (inverted where Adobe's marker says so) and EXIF orientation.
        StoredPixels stored;
        stored.data = decoded.data();
        stored.rowBytes = static_cast<size_t>(columns) * components;
        stored.height = rows;
        stored.width = columns;
        stored.channels = components;
        stored.cmyk = output != JCS_CMYK ? CmykStorage::None : info.saw_Adobe_marker ? CmykStorage::AdobeInverted : CmykStorage::Plain;
        UprightPixels upright = applyDecodeRules(stored, facts.orientation, format.background);
        convertChannels(upright, components == 1 ? 1 : static_cast<int>(format.channels));
        applied = upright.applied;
        if (upright.applied.orientation >= 5) {
            std::swap(usedRows, usedColumns);
        }
        rows = upright.height;
        columns = upright.width;
        components = upright.channels;
        decoded = std::move(upright.pixels);
    }
    if (infoOut) {
        infoOut->format = "JPEG";
        infoOut->facts = facts;
        infoOut->width = info.image_width;
        infoOut->height = info.image_height;
        infoOut->applied = applied;
    }
    const int height = static_cast<int>(format.height);
    const int width = static_cast<int>(format.width);
    resizeToPlanes(decoded.data(), rows, columns, components, usedRows, usedColumns, height, width, out);
    if (components == 1 && format.channels == 3) {
        const size_t plane = static_cast<size_t>(height) * width;
        std::memcpy(out + plane, out, plane);
        std::memcpy(out + 2 * plane, out, plane);
    }
}

std::vector<uint8_t> readWholeFile(const std::string& path, int64_t size)
{
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    std::ifstream in(path, std::ios::binary);
    if (!in || !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size))) {
        throw InputError(path + ": cannot read file");
    }
    return bytes;
}

// One JPEG being encoded into memory (libjpeg allocates the buffer with malloc).
class JpegWriter {
public:
    JpegWriter()
    {
        m_info.err = jpeg_std_error(&m_errors.manager);
        m_errors.manager.error_exit = libjpeg::jumpOnError;
    }
    ~JpegWriter()
    {
        if (m_created) {
            jpeg_destroy_compress(&m_info);
        }
        std::free(m_buffer);
    }
    JpegWriter(const JpegWriter&) = delete;
    JpegWriter& operator=(const JpegWriter&) = delete;

    // `rows`: height x width x channels bytes, interleaved.
    bool encode(const uint8_t* rows, int height, int width, int channels, int quality)
    {
        if (setjmp(m_errors.jump)) {
            return false;
        }
        m_created = true;
        jpeg_create_compress(&m_info);
        jpeg_mem_dest(&m_info, &m_buffer, &m_size);
        m_info.image_width = static_cast<JDIMENSION>(width);
        m_info.image_height = static_cast<JDIMENSION>(height);
        m_info.input_components = channels;
        m_info.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
        jpeg_set_defaults(&m_info);
        jpeg_set_quality(&m_info, quality, TRUE);
        jpeg_start_compress(&m_info, TRUE);
        while (m_info.next_scanline < m_info.image_height) {
            JSAMPROW row = const_cast<uint8_t*>(rows) + static_cast<size_t>(m_info.next_scanline) * width * channels;
            jpeg_write_scanlines(&m_info, &row, 1);
        }
        jpeg_finish_compress(&m_info);
        return true;
    }

    const uint8_t* data() const { return m_buffer; }
    size_t size() const { return m_size; }
    const char* message() const { return m_errors.message; }

private:
    libjpeg::Errors m_errors;
    jpeg_compress_struct m_info{};
    unsigned char* m_buffer = nullptr;
    unsigned long m_size = 0;
    bool m_created = false;
};

bool hasJpegExtension(const std::string& path)
{
    const auto dot = path.find_last_of('.');
    std::string extension = dot == std::string::npos ? std::string() : path.substr(dot);
    std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return std::tolower(c); });
    return extension == ".jpg" || extension == ".jpeg";
}

} // namespace

bool imageDecodingAvailable()
{
    return false; // not every format: JPEG only
}

bool jpegDecodingAvailable()
{
    return true;
}

std::string imageDecoderName()
{
#ifdef LIBJPEG_TURBO_VERSION
    return "libjpeg-turbo " LBD_JPEG_STRING(LIBJPEG_TURBO_VERSION) " (JPEG only)";
#else
    return "libjpeg " LBD_JPEG_STRING(JPEG_LIB_VERSION) " (JPEG only)";
#endif
}

void decodeImageFile(const std::string& path, const ImageFormat& format, uint8_t* out, const ReadLimits& limits,
                     DecodedImageInfo* info)
{
    const int64_t size = checkImageFile(path, limits);
    decodeJpeg(readWholeFile(path, size), path, format, out, limits, info);
}

void decodeImageBytes(const std::vector<uint8_t>& bytes, const std::string& label, const ImageFormat& format, uint8_t* out,
                      const ReadLimits& limits, DecodedImageInfo* info)
{
    decodeJpeg(bytes, label, format, out, limits, info);
}

std::vector<uint8_t> encodeJpeg(const uint8_t* pixels, const ImageFormat& format, int quality, const std::string& label)
{
    const int channels = static_cast<int>(format.channels);
    const int height = static_cast<int>(format.height);
    const int width = static_cast<int>(format.width);
    if (channels != 1 && channels != 3) {
        throw InputError(label + ": cannot write an image of " + std::to_string(channels) + " channels (use 1 or 3)");
    }
    if (quality < 1 || quality > 100) {
        throw InputError(label + ": JPEG quality " + std::to_string(quality) + " is not in 1..100");
    }
    // CHW planes -> HWC interleaved rows.
    std::vector<uint8_t> rows(static_cast<size_t>(channels) * height * width);
    const size_t plane = static_cast<size_t>(height) * width;
    for (size_t i = 0; i < plane; ++i) {
        for (int c = 0; c < channels; ++c) {
            rows[i * channels + c] = pixels[c * plane + i];
        }
    }
    JpegWriter writer;
    if (!writer.encode(rows.data(), height, width, channels, quality)) {
        throw InputError(label + ": cannot encode as JPEG (libjpeg: " + writer.message() + ")");
    }
    return std::vector<uint8_t>(writer.data(), writer.data() + writer.size());
}

void writeImageFile(const std::string& path, const uint8_t* pixels, const ImageFormat& format)
{
    if (!hasJpegExtension(path)) {
        throw InputError(path + ": this build of LBD Studio writes JPEG only (libjpeg-turbo, built without OpenCV): "
                                "name the file .jpg or .jpeg");
    }
    const std::vector<uint8_t> bytes = encodeJpeg(pixels, format, 95, path); // 95: OpenCV's imwrite default
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file || !file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()))) {
        throw InputError(path + ": cannot write image");
    }
}

} // namespace lbd
