#include "core/util/buildinfo.h"

#include "core/compat/torchcompat.h"
#include "datasets/common/imagedecoder.h"

#include <ATen/detail/CUDAHooksInterface.h>

#ifdef LBD_HAVE_OPENCV
#include <opencv2/core/version.hpp>
#endif
#ifdef LBD_HAVE_NCCL
#include <nccl.h>
#endif

#ifndef LBD_GIT_COMMIT
#define LBD_GIT_COMMIT "unknown"
#endif

namespace lbd {
namespace {

// 8902 -> "8.9.2" (cuDNN 8), 90100 -> "9.1.0" (cuDNN 9); 12040 -> "12.4" (CUDA runtime).
std::string cudnnText(long version)
{
    const long major = version >= 90000 ? version / 10000 : version / 1000;
    const long minor = version >= 90000 ? version / 100 % 100 : version / 100 % 10;
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(version % 100);
}

} // namespace

BuildInfo buildInfo()
{
    BuildInfo info;
    info.lbdVersion = LBD_VERSION;
    info.gitCommit = LBD_GIT_COMMIT;
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
        try {
            const long runtime = at::detail::getCUDAHooks().versionCUDART();
            info.cudaVersion = std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
            if (at::detail::getCUDAHooks().hasCuDNN()) {
                info.cudnnVersion = cudnnText(at::detail::getCUDAHooks().versionCuDNN());
            }
        } catch (const std::exception&) {
            // A LibTorch without its CUDA library loaded cannot say; "none" is the truth for this process.
        }
#ifdef LBD_HAVE_NCCL
        info.ncclVersion = std::to_string(NCCL_MAJOR) + "." + std::to_string(NCCL_MINOR) + "." + std::to_string(NCCL_PATCH);
#endif
    }
    return info;
}

} // namespace lbd
