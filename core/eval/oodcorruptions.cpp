#include "core/eval/oodcorruptions.h"

namespace lbd {

namespace {

constexpr int64_t kTiles = 4;

DataSplit withImages(const DataSplit& source, torch::Tensor images)
{
    DataSplit out;
    out.images = images.contiguous();
    out.labels = source.labels;
    return out;
}

} // namespace

std::vector<std::pair<std::string, DataSplit>> oodCorruptions(const DataSplit& split, uint64_t seed)
{
    const auto& x = split.images; // uint8 [N, C, H, W]
    const int64_t n = x.size(0), c = x.size(1), h = x.size(2), w = x.size(3);
    auto generator = at::detail::createCPUGenerator(seed);
    std::vector<std::pair<std::string, DataSplit>> out;

    const auto positions = torch::randperm(h * w, generator, torch::kInt64);
    out.emplace_back("pixels shuffled", withImages(split, x.reshape({n, c, h * w}).index_select(2, positions).reshape({n, c, h, w})));

    // Tiles of the largest multiple of kTiles that fits; a remaining border stays where it was.
    const int64_t th = h / kTiles, tw = w / kTiles;
    if (th > 0 && tw > 0) {
        auto shuffled = x.clone();
        const auto order = torch::randperm(kTiles * kTiles, generator, torch::kInt64);
        for (int64_t t = 0; t < kTiles * kTiles; ++t) {
            const int64_t from = order[t].item<int64_t>();
            const int64_t ty = t / kTiles, tx = t % kTiles, fy = from / kTiles, fx = from % kTiles;
            shuffled.slice(2, ty * th, (ty + 1) * th).slice(3, tx * tw, (tx + 1) * tw)
                .copy_(x.slice(2, fy * th, (fy + 1) * th).slice(3, fx * tw, (fx + 1) * tw));
        }
        out.emplace_back("patches shuffled", withImages(split, shuffled));
    }

    out.emplace_back("inverted", withImages(split, 255 - x));

    const auto blurred = torch::nn::functional::avg_pool2d(
        x.to(torch::kFloat32), torch::nn::functional::AvgPool2dFuncOptions(5).stride(1).padding(2).count_include_pad(false));
    out.emplace_back("blurred", withImages(split, blurred.round().clamp(0, 255).to(torch::kUInt8)));
    return out;
}

} // namespace lbd
