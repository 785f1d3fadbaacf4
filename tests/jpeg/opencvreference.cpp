// The OpenCV decoder, compiled into namespace lbd_opencv (tests/jpeg/CMakeLists.txt defines
// lbd=lbd_opencv for this file and the decoder's sources), seen by test_decodersagree.cpp through
// opencvreference.h, which names no lbd type.
#include "tests/jpeg/opencvreference.h"

#include "datasets/common/imagedecoder.h"

namespace opencvreference {

std::vector<uint8_t> decode(const std::string& path, int64_t channels, int64_t height, int64_t width)
{
    std::vector<uint8_t> out(static_cast<size_t>(channels * height * width));
    lbd::decodeImageFile(path, {channels, height, width}, out.data());
    return out;
}

std::string decoderName()
{
    return lbd::imageDecoderName();
}

} // namespace opencvreference
