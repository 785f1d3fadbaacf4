// CMYK JPEG samples through libjpeg-turbo for the OpenCV decoder (cmykjpeg.h). libjpeg reports
// errors through a callback that must not return: it longjmps back to the step of CmykReader that
// started it, whose frames hold nothing with a destructor (as imagedecoder_libjpeg.cpp does).
#include "datasets/common/cmykjpeg.h"

#include "datasets/common/error.h"
#include "datasets/common/readlimits.h"

#if defined(LBD_OPENCV_CMYK_LIBJPEG)
#include <csetjmp>
#include <cstdio>

#include <jpeglib.h>
#include <jerror.h>

#include "datasets/common/libjpegerrors.h"
#endif

namespace lbd {

#if defined(LBD_OPENCV_CMYK_LIBJPEG)
namespace {

class CmykReader {
public:
    CmykReader(const uint8_t* data, size_t size) : m_data(data), m_size(size)
    {
        libjpeg::installErrors(m_info, m_errors);
    }
    ~CmykReader()
    {
        if (m_created) {
            jpeg_destroy_decompress(&m_info);
        }
    }
    CmykReader(const CmykReader&) = delete;
    CmykReader& operator=(const CmykReader&) = delete;

    bool readHeader()
    {
        if (setjmp(m_errors.jump)) {
            return false;
        }
        m_created = true;
        jpeg_create_decompress(&m_info);
        jpeg_mem_src(&m_info, const_cast<unsigned char*>(m_data), static_cast<unsigned long>(m_size));
        jpeg_read_header(&m_info, TRUE);
        return true;
    }

    // Starts decoding to C, M, Y, K as stored (libjpeg converts YCCK to CMYK, nothing else).
    bool start()
    {
        if (setjmp(m_errors.jump)) {
            return false;
        }
        m_info.out_color_space = JCS_CMYK;
        m_info.dct_method = JDCT_ISLOW;
        jpeg_start_decompress(&m_info);
        return true;
    }

    bool readRows(uint8_t* pixels)
    {
        if (setjmp(m_errors.jump)) {
            return false;
        }
        const size_t stride = static_cast<size_t>(m_info.output_width) * 4;
        while (m_info.output_scanline < m_info.output_height) {
            JSAMPROW row = pixels + m_info.output_scanline * stride;
            jpeg_read_scanlines(&m_info, &row, 1);
        }
        jpeg_finish_decompress(&m_info);
        return true;
    }

    const jpeg_decompress_struct& info() const { return m_info; }
    const char* message() const { return m_errors.message; }

private:
    const uint8_t* m_data;
    size_t m_size;
    libjpeg::Errors m_errors;
    jpeg_decompress_struct m_info{};
    bool m_created = false;
};

} // namespace

bool cmykJpegSamplesAvailable()
{
    return true;
}

CmykJpegSamples decodeCmykJpegSamples(const uint8_t* data, size_t size, const std::string& label, int64_t maxPixels)
{
    CmykReader reader(data, size);
    const auto failed = [&] { return InputError(label + ": cannot decode JPEG (libjpeg: " + reader.message() + ")"); };
    if (!reader.readHeader()) {
        throw failed();
    }
    const auto& info = reader.info();
    if (info.jpeg_color_space != JCS_CMYK && info.jpeg_color_space != JCS_YCCK) {
        throw InputError(label + ": not a CMYK JPEG");
    }
    if (int64_t(info.image_height) * int64_t(info.image_width) > maxPixels) {
        throw ReadLimitError(label + ": JPEG image of " + std::to_string(info.image_width) + " x "
                         + std::to_string(info.image_height) + " pixels is over the limit of " + std::to_string(maxPixels)
                         + " pixels (maxImagePixels)");
    }
    if (!reader.start()) {
        throw failed();
    }
    CmykJpegSamples image;
    image.height = static_cast<int>(info.output_height);
    image.width = static_cast<int>(info.output_width);
    image.adobeMarker = info.saw_Adobe_marker;
    image.samples.resize(static_cast<size_t>(image.height) * static_cast<size_t>(image.width) * 4);
    if (!reader.readRows(image.samples.data())) {
        throw failed();
    }
    return image;
}

#else

bool cmykJpegSamplesAvailable()
{
    return false;
}

CmykJpegSamples decodeCmykJpegSamples(const uint8_t*, size_t, const std::string& label, int64_t)
{
    throw InputError(label + ": this build reads CMYK JPEGs through OpenCV alone (libjpeg-turbo's headers were not found)");
}

#endif

} // namespace lbd
