#include "datasets/common/imagedecoder.h"

#include "datasets/common/cmykjpeg.h"
#include "datasets/common/error.h"
#include "datasets/common/imagedecoderchecks.h"
#include "datasets/common/decoderules.h"
#include "datasets/common/imagefacts.h"
#include "datasets/common/imageheader.h"
#include "datasets/common/pngchunks.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstring>

namespace lbd {
namespace {

// OpenCV's decode (IMREAD_UNCHANGED: every channel and bit as stored) through the rules of
// decoderules.h, then to format.channels and format's size. `cmyk`: `decoded` holds a CMYK JPEG's
// C, M, Y, K samples as stored (cmykjpeg.h), not OpenCV's B, G, R[, A].
void convertInto(const cv::Mat& decoded, const std::string& label, const ImageFormat& format, uint8_t* out,
                 const ImageFacts& facts, DecodedImageInfo* info, CmykStorage cmyk = CmykStorage::None)
{
    if (decoded.empty()) {
        throw InputError(label + ": cannot decode image (not an image file, or a corrupt one)");
    }
    if (format.channels != 1 && format.channels != 3) {
        throw InputError(label + ": " + std::to_string(format.channels) + " channels requested (use 1 or 3)");
    }
    cv::Mat image = decoded;
    if (image.depth() != CV_8U && image.depth() != CV_16U) {
        image.convertTo(image, CV_8U, 255.0); // floating-point TIFF in 0..1
    }
    if (image.channels() < 1 || image.channels() > 4) {
        throw InputError(label + ": cannot decode image of " + std::to_string(image.channels()) + " channels");
    }
    if (!image.isContinuous()) {
        image = image.clone();
    }
    cv::Mat converted;
    const bool plain = cmyk == CmykStorage::None && image.depth() == CV_8U && (image.channels() == 1 || image.channels() == 3)
                       && facts.orientation == 1;
    if (plain) {
        // Nothing for the rules to do (8-bit grey or colour, upright): OpenCV's own conversion, as
        // fast as before on a stream of photographs.
        if (format.channels == 1) {
            converted = image.channels() == 1 ? image : cv::Mat();
            if (image.channels() == 3) {
                cv::cvtColor(image, converted, cv::COLOR_BGR2GRAY);
            }
        } else {
            cv::cvtColor(image, converted, image.channels() == 1 ? cv::COLOR_GRAY2RGB : cv::COLOR_BGR2RGB);
        }
        if (info) {
            info->width = image.cols;
            info->height = image.rows;
            info->applied.cmykConverted = facts.jpegComponents == 4;
        }
    } else {
        StoredPixels stored;
        stored.data = image.ptr<uint8_t>(0);
        stored.rowBytes = image.step[0];
        stored.height = image.rows;
        stored.width = image.cols;
        stored.channels = image.channels();
        stored.sixteenBit = image.depth() == CV_16U;
        // OpenCV's own decode is B, G, R[, A] (a CMYK JPEG converted by OpenCV as Adobe's inverted
        // form, where libjpeg was not there to read its samples).
        stored.bgrOrder = cmyk == CmykStorage::None;
        stored.cmyk = cmyk;
        UprightPixels upright = applyDecodeRules(stored, facts.orientation, format.background);
        convertChannels(upright, static_cast<int>(format.channels));
        if (info) {
            info->width = image.cols;
            info->height = image.rows;
            info->applied = upright.applied;
            info->applied.cmykConverted = facts.jpegComponents == 4;
        }
        converted = cv::Mat(upright.height, upright.width, upright.channels == 1 ? CV_8UC1 : CV_8UC3, upright.pixels.data()).clone();
    }
    const cv::Size size(static_cast<int>(format.width), static_cast<int>(format.height));
    cv::Mat resized;
    if (converted.size() == size) {
        resized = converted;
    } else {
        const bool shrinking = converted.cols > size.width || converted.rows > size.height;
        cv::resize(converted, resized, size, 0, 0, shrinking ? cv::INTER_AREA : cv::INTER_LINEAR);
    }
    // HWC interleaved -> CHW planes.
    const int64_t planeSize = format.height * format.width;
    if (format.channels == 1) {
        for (int64_t y = 0; y < format.height; ++y) {
            std::memcpy(out + y * format.width, resized.ptr<uint8_t>(static_cast<int>(y)), static_cast<size_t>(format.width));
        }
        return;
    }
    for (int64_t y = 0; y < format.height; ++y) {
        const uint8_t* row = resized.ptr<uint8_t>(static_cast<int>(y));
        for (int64_t x = 0; x < format.width; ++x) {
            for (int64_t c = 0; c < 3; ++c) {
                out[c * planeSize + y * format.width + x] = row[x * 3 + c];
            }
        }
    }
}

// A CMYK JPEG (4 components: its frame header within the bytes read) whose samples this build
// reads through libjpeg rather than OpenCV (cmykjpeg.h says why).
bool readsCmykSamples(const ImageFacts& facts)
{
    return facts.jpegComponents == 4 && cmykJpegSamplesAvailable();
}

// Runs an OpenCV decode and the conversion, turning OpenCV's exceptions (its own size checks,
// allocation failures, codec errors) into an InputError naming the file. `whole`: the whole
// file's bytes, for the CMYK JPEGs read through libjpeg (readsCmykSamples).
template <typename Decode, typename Whole>
void decodeChecked(const std::string& label, const ImageFormat& format, uint8_t* out, const uint8_t* head, size_t headSize,
                   const ReadLimits& limits, DecodedImageInfo* info, Decode decode, Whole whole)
{
    const ImageFacts facts = readImageFacts(head, headSize);
    if (info) {
        const auto header = parseImageHeader(head, headSize);
        info->format = header ? header->format : std::string();
        info->facts = facts;
    }
    try {
        if (readsCmykSamples(facts)) {
            const std::vector<uint8_t>& bytes = whole();
            CmykJpegSamples cmyk = decodeCmykJpegSamples(bytes.data(), bytes.size(), label, limits.maxImagePixels);
            const cv::Mat samples(cmyk.height, cmyk.width, CV_8UC4, cmyk.samples.data());
            convertInto(samples, label, format, out, facts, info,
                        cmyk.adobeMarker ? CmykStorage::AdobeInverted : CmykStorage::Plain);
            return;
        }
        convertInto(decode(), label, format, out, facts, info);
    } catch (const cv::Exception& error) {
        throw InputError(label + ": cannot decode image (OpenCV: " + error.err + ")");
    }
}

} // namespace

bool imageDecodingAvailable()
{
    return true;
}

bool jpegDecodingAvailable()
{
    return true;
}

std::string imageDecoderName()
{
    return std::string("OpenCV ") + CV_VERSION;
}

void decodeImageFile(const std::string& path, const ImageFormat& format, uint8_t* out, const ReadLimits& limits,
                     DecodedImageInfo* info)
{
    const int64_t fileSize = checkImageFile(path, limits);
    if (fileSize == 0) {
        throw InputError(path + ": empty file");
    }
    const std::vector<uint8_t> head = readFileHead(path, static_cast<size_t>(kImageHeaderBytes));
    checkImageHeader(head.data(), head.size(), path, limits);
    if (isPngData(head.data(), head.size())) {
        // Through memory without the chunks libpng would print warnings about (pngchunks.h).
        const std::vector<uint8_t> whole = int64_t(head.size()) >= fileSize ? head : readFileHead(path, size_t(fileSize));
        const std::vector<uint8_t> png = withoutAncillaryPngChunks(whole.data(), whole.size());
        decodeChecked(
            path, format, out, whole.data(), whole.size(), limits, info,
            [&] {
                const cv::Mat buffer(1, static_cast<int>(png.size()), CV_8U, const_cast<uint8_t*>(png.data()));
                return cv::imdecode(buffer, cv::IMREAD_UNCHANGED);
            },
            [&]() -> const std::vector<uint8_t>& { return whole; });
        return;
    }
    std::vector<uint8_t> whole; // read only for a CMYK JPEG
    decodeChecked(
        path, format, out, head.data(), head.size(), limits, info, [&] { return cv::imread(path, cv::IMREAD_UNCHANGED); },
        [&]() -> const std::vector<uint8_t>& {
            whole = int64_t(head.size()) >= fileSize ? head : readFileHead(path, size_t(fileSize));
            return whole;
        });
}

void decodeImageBytes(const std::vector<uint8_t>& bytes, const std::string& label, const ImageFormat& format, uint8_t* out,
                      const ReadLimits& limits, DecodedImageInfo* info)
{
    if (bytes.empty()) {
        throw InputError(label + ": empty file");
    }
    checkImageFileSize(static_cast<int64_t>(bytes.size()), label, limits);
    checkImageHeader(bytes.data(), std::min(bytes.size(), static_cast<size_t>(kImageHeaderBytes)), label, limits);
    const std::vector<uint8_t> png = isPngData(bytes.data(), bytes.size())
                                         ? withoutAncillaryPngChunks(bytes.data(), bytes.size())
                                         : std::vector<uint8_t>();
    const std::vector<uint8_t>& data = png.empty() ? bytes : png; // PNG: without what libpng would warn about
    decodeChecked(
        label, format, out, bytes.data(), bytes.size(), limits, info,
        [&] {
            const cv::Mat buffer(1, static_cast<int>(data.size()), CV_8U, const_cast<uint8_t*>(data.data()));
            return cv::imdecode(buffer, cv::IMREAD_UNCHANGED);
        },
        [&]() -> const std::vector<uint8_t>& { return bytes; });
}

namespace {

// CHW planes -> an HWC interleaved matrix, in OpenCV's BGR order.
cv::Mat interleavedImage(const std::string& label, const uint8_t* pixels, const ImageFormat& format)
{
    const int channels = static_cast<int>(format.channels);
    const int height = static_cast<int>(format.height);
    const int width = static_cast<int>(format.width);
    if (channels != 1 && channels != 3) {
        throw InputError(label + ": cannot write an image of " + std::to_string(channels) + " channels (use 1 or 3)");
    }
    cv::Mat image(height, width, channels == 1 ? CV_8UC1 : CV_8UC3);
    const int64_t plane = format.height * format.width;
    for (int y = 0; y < height; ++y) {
        uint8_t* row = image.ptr<uint8_t>(y);
        for (int x = 0; x < width; ++x) {
            for (int c = 0; c < channels; ++c) {
                const int bgr = channels == 3 ? 2 - c : c;
                row[x * channels + bgr] = pixels[c * plane + int64_t(y) * width + x];
            }
        }
    }
    return image;
}

} // namespace

void writeImageFile(const std::string& path, const uint8_t* pixels, const ImageFormat& format)
{
    const cv::Mat image = interleavedImage(path, pixels, format);
    bool written = false;
    try {
        written = cv::imwrite(path, image);
    } catch (const cv::Exception& error) {
        throw InputError(path + ": cannot write image (OpenCV: " + error.err + ")");
    }
    if (!written) {
        throw InputError(path + ": cannot write image");
    }
}

std::vector<uint8_t> encodeJpeg(const uint8_t* pixels, const ImageFormat& format, int quality, const std::string& label)
{
    if (quality < 1 || quality > 100) {
        throw InputError(label + ": JPEG quality " + std::to_string(quality) + " is not in 1..100");
    }
    const cv::Mat image = interleavedImage(label, pixels, format);
    std::vector<uint8_t> bytes;
    bool encoded = false;
    try {
        encoded = cv::imencode(".jpg", image, bytes, {cv::IMWRITE_JPEG_QUALITY, quality});
    } catch (const cv::Exception& error) {
        throw InputError(label + ": cannot encode as JPEG (OpenCV: " + error.err + ")");
    }
    if (!encoded) {
        throw InputError(label + ": cannot encode as JPEG");
    }
    return bytes;
}

} // namespace lbd
