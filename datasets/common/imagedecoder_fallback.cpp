// Image decoding for builds without OpenCV (LBD_WITH_OPENCV=OFF): every call explains why it
// cannot decode, so a headless GPU build still trains on IDX and CIFAR files.
#ifndef LBD_HAVE_OPENCV
#include "datasets/common/imagedecoder.h"

#include "datasets/common/error.h"

namespace lbd {
namespace {
[[noreturn]] void noOpenCv(const std::string& what)
{
    throw InputError(what + ": this build of LBD Studio has no OpenCV (LBD_WITH_OPENCV=OFF), so it cannot decode image files");
}
} // namespace

bool imageDecodingAvailable() { return false; }
void decodeImageFile(const std::string& path, const ImageFormat&, uint8_t*, const ReadLimits&) { noOpenCv(path); }
void decodeImageBytes(const std::vector<uint8_t>&, const std::string& label, const ImageFormat&, uint8_t*, const ReadLimits&)
{
    noOpenCv(label);
}
void decodeImageFiles(const std::vector<std::string>& paths, const ImageFormat&, int, uint8_t*, const ReadLimits&)
{
    noOpenCv(paths.empty() ? std::string("image list") : paths.front());
}
void writeImageFile(const std::string& path, const uint8_t*, const ImageFormat&) { noOpenCv(path); }

} // namespace lbd
#endif
