// CMYK JPEG samples through libjpeg-turbo for the OpenCV decoder (cmykjpeg.h). libjpeg reports
// errors through a callback that must not return: it longjmps back to the step of libjpeg::Reader
// (libjpegerrors.h) that started it, whose frames hold nothing with a destructor (as imagedecoder_libjpeg.cpp does).
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
bool cmykJpegSamplesAvailable()
{
    return true;
}

CmykJpegSamples decodeCmykJpegSamples(const uint8_t* data, size_t size, const std::string& label, int64_t maxPixels)
{
    libjpeg::Reader reader(data, size);
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
    // C, M, Y, K as stored (libjpeg converts YCCK to CMYK, nothing else), at full scale.
    if (!reader.start(JCS_CMYK, 1)) {
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
