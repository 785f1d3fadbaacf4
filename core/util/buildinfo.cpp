#include "core/util/buildinfo.h"

#include "core/compat/torchcompat.h"
#include "datasets/common/imagedecoder.h"

#ifdef LBD_HAVE_OPENCV
#include <opencv2/core/version.hpp>
#endif

namespace lbd {

BuildInfo buildInfo()
{
    BuildInfo info;
    info.lbdVersion = LBD_VERSION;
    info.torchVersion = compat::torchVersion();
#ifdef LBD_HAVE_OPENCV
    info.openCvVersion = CV_VERSION;
#else
    info.openCvVersion = "not built with OpenCV; image decoder: " + imageDecoderName();
#endif
    info.cudaAvailable = torch::cuda::is_available();
    if (info.cudaAvailable) {
        const auto count = torch::cuda::device_count();
        for (size_t i = 0; i < count; ++i) {
            info.cudaDevices.push_back("cuda:" + std::to_string(i) + " " + compat::cudaDeviceName(static_cast<int>(i)));
        }
    }
    return info;
}

} // namespace lbd
