#include "core/data/imagedecoder.h"

namespace lbd {

torch::Tensor decodeImageFiles(const std::vector<std::string>& paths, const ImageFormat& format, int threads)
{
    auto images = torch::empty({static_cast<int64_t>(paths.size()), format.channels, format.height, format.width},
                               torch::kUInt8);
    decodeImageFiles(paths, format, threads, images.data_ptr<uint8_t>());
    return images;
}

void writeImageFile(const std::string& path, const torch::Tensor& image)
{
    const auto chw = image.to(torch::kUInt8).contiguous();
    writeImageFile(path, chw.data_ptr<uint8_t>(), {chw.size(0), chw.size(1), chw.size(2)});
}

} // namespace lbd
