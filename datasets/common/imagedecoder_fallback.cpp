// Image decoding for builds without OpenCV (LBD_WITH_OPENCV=OFF) and without libjpeg-turbo: every
// call explains why it cannot decode, so a headless GPU build still trains on IDX and CIFAR files.
// (decodeImageFiles, in imagedecoder.cpp, fails through decodeImageFile.)
#if !defined(LBD_HAVE_OPENCV) && !defined(LBD_HAVE_LIBJPEG)
#include "datasets/common/imagedecoder.h"

#include "datasets/common/error.h"

namespace lbd {
namespace {
[[noreturn]] void noOpenCv(const std::string& what)
{
    throw InputError(what + ": this build of LBD Studio has no OpenCV (LBD_WITH_OPENCV=OFF) and no libjpeg-turbo, so it "
                            "cannot decode image files");
}
} // namespace

bool imageDecodingAvailable() { return false; }
bool jpegDecodingAvailable() { return false; }
std::string imageDecoderName() { return "none"; }
void decodeImageFile(const std::string& path, const ImageFormat&, uint8_t*, const ReadLimits&, DecodedImageInfo*) { noOpenCv(path); }
void decodeImageBytes(const std::vector<uint8_t>&, const std::string& label, const ImageFormat&, uint8_t*, const ReadLimits&,
                      DecodedImageInfo*)
{
    noOpenCv(label);
}
void writeImageFile(const std::string& path, const uint8_t*, const ImageFormat&) { noOpenCv(path); }
std::vector<uint8_t> encodeJpeg(const uint8_t*, const ImageFormat&, int, const std::string& label) { noOpenCv(label); }

} // namespace lbd
#endif
