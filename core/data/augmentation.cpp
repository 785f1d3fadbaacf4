#include "core/data/augmentation.h"

#include "core/util/error.h"

#include <cmath>

namespace lbd {

Normalization computeNormalization(const torch::Tensor& images, int64_t maxImages)
{
    torch::NoGradGuard noGrad;
    auto sample = images;
    if (images.size(0) > maxImages) {
        sample = images.index_select(0, torch::linspace(0, images.size(0) - 1, maxImages).to(torch::kInt64).to(images.device()));
    }
    const auto pixels = sample.to(torch::kFloat64).div(255.0).transpose(0, 1).reshape({sample.size(1), -1});
    const auto mean = pixels.mean(1).cpu();
    const auto stdev = pixels.std(1, /*unbiased=*/false).clamp_min(1e-3).cpu();
    Normalization normalization;
    for (int64_t c = 0; c < mean.size(0); ++c) {
        normalization.mean.push_back(static_cast<float>(mean[c].item<double>()));
        normalization.std.push_back(static_cast<float>(stdev[c].item<double>()));
    }
    return normalization;
}

torch::Tensor drawAugmentParams(int64_t count, const AugmentSpec& spec, Rng& rng)
{
    constexpr double kPi = 3.14159265358979323846;
    auto params = torch::zeros({count, 4}, torch::kFloat32);
    if (!spec.enabled) {
        return params;
    }
    auto* row = params.data_ptr<float>();
    for (int64_t i = 0; i < count; ++i, row += 4) {
        row[0] = static_cast<float>(rng.below(2 * spec.padding + 1) - spec.padding);
        row[1] = static_cast<float>(rng.below(2 * spec.padding + 1) - spec.padding);
        row[2] = spec.horizontalFlip && rng.coin() ? 1.0f : 0.0f;
        row[3] = static_cast<float>(rng.uniform(-spec.maxRotationDegrees, spec.maxRotationDegrees) * kPi / 180.0);
    }
    return params;
}

namespace {

// Gathers source pixels at integer coordinates (x, y) [B, P] from images [B, C, H*W]; outside
// the image reads zero (the zero padding).
torch::Tensor gatherPixels(const torch::Tensor& flat, const torch::Tensor& x, const torch::Tensor& y, int64_t height,
                           int64_t width)
{
    const auto valid = (x >= 0) & (x < width) & (y >= 0) & (y < height);
    const auto index = (y.clamp(0, height - 1) * width + x.clamp(0, width - 1)).unsqueeze(1).expand({-1, flat.size(1), -1});
    return flat.gather(2, index) * valid.unsqueeze(1).to(flat.scalar_type());
}

torch::Tensor normalise(torch::Tensor pixels, const Normalization& normalization)
{
    const auto channels = pixels.size(1);
    if (static_cast<int64_t>(normalization.mean.size()) != channels || static_cast<int64_t>(normalization.std.size()) != channels) {
        throw InputError("normalisation has " + std::to_string(normalization.mean.size()) + " channels, images have "
                         + std::to_string(channels));
    }
    // Scalars per channel rather than a small device tensor: building one from host values each
    // batch would be a synchronous host-to-device copy that stalls the GPU pipeline.
    for (int64_t c = 0; c < channels; ++c) {
        const double scale = 1.0 / (255.0 * normalization.std[c]);
        const double shift = -normalization.mean[c] / normalization.std[c];
        pixels.select(1, c).mul_(scale).add_(shift);
    }
    return pixels;
}

} // namespace

torch::Tensor augmentBatch(const torch::Tensor& images, const torch::Tensor& params, const AugmentSpec& spec,
                           const Normalization& normalization)
{
    torch::NoGradGuard noGrad;
    if (images.dim() != 4 || images.scalar_type() != torch::kUInt8) {
        throw InputError("augmentation expects uint8 images [B, C, H, W]");
    }
    const auto device = images.device();
    const int64_t batch = images.size(0), channels = images.size(1), height = images.size(2), width = images.size(3);
    const int64_t out = spec.outputSize;
    const auto floatOptions = torch::TensorOptions().dtype(torch::kFloat32).device(device);
    const auto flat = images.reshape({batch, channels, height * width}).to(torch::kFloat32);

    // Output pixel coordinates relative to the output centre; source centre of the input.
    const double outCentre = (static_cast<double>(out) - 1.0) / 2.0;
    const auto u = (torch::arange(out, floatOptions) - outCentre).view({1, 1, out});
    const auto v = (torch::arange(out, floatOptions) - outCentre).view({1, out, 1});
    const double centreX = (static_cast<double>(width) - 1.0) / 2.0;
    const double centreY = (static_cast<double>(height) - 1.0) / 2.0;

    const bool random = params.defined() && spec.enabled;
    const bool rotate = random && spec.maxRotationDegrees > 0.0;
    torch::Tensor sourceX, sourceY;
    if (!random) {
        sourceX = (u + centreX).expand({batch, out, out});
        sourceY = (v + centreY).expand({batch, out, out});
    } else {
        // Pinned memory + non_blocking: the copy does not wait for the GPU to drain.
        const auto p = device.is_cuda() && !params.is_cuda()
            ? params.to(torch::kFloat32).pin_memory().to(device, /*non_blocking=*/true)
            : params.to(device, torch::kFloat32);
        const auto shiftX = p.select(1, 0).view({batch, 1, 1});
        const auto shiftY = p.select(1, 1).view({batch, 1, 1});
        const auto flipSign = (1.0 - 2.0 * p.select(1, 2)).view({batch, 1, 1});
        // Source = flip(R * (q - c)) + c + shift: the crop, then the flip, then the rotation,
        // composed in the order torchvision applies RandomCrop, RandomHorizontalFlip, RandomRotation.
        torch::Tensor rotatedU = u.expand({batch, out, out});
        torch::Tensor rotatedV = v.expand({batch, out, out});
        if (rotate) {
            const auto angle = p.select(1, 3).view({batch, 1, 1});
            const auto cosine = angle.cos();
            const auto sine = angle.sin();
            rotatedU = cosine * u - sine * v;
            rotatedV = sine * u + cosine * v;
        }
        sourceX = flipSign * rotatedU + centreX + shiftX;
        sourceY = rotatedV + centreY + shiftY;
    }
    sourceX = sourceX.reshape({batch, out * out});
    sourceY = sourceY.reshape({batch, out * out});

    torch::Tensor pixels;
    if (!rotate) {
        // Integer coordinates: one exact gather (crop, flip and padding only).
        pixels = gatherPixels(flat, sourceX.round().to(torch::kInt64), sourceY.round().to(torch::kInt64), height, width);
    } else {
        const auto x0f = sourceX.floor();
        const auto y0f = sourceY.floor();
        const auto wx = (sourceX - x0f).unsqueeze(1);
        const auto wy = (sourceY - y0f).unsqueeze(1);
        const auto x0 = x0f.to(torch::kInt64);
        const auto y0 = y0f.to(torch::kInt64);
        const auto x1 = x0 + 1;
        const auto y1 = y0 + 1;
        const auto top = gatherPixels(flat, x0, y0, height, width) * (1 - wx) + gatherPixels(flat, x1, y0, height, width) * wx;
        const auto bottom = gatherPixels(flat, x0, y1, height, width) * (1 - wx) + gatherPixels(flat, x1, y1, height, width) * wx;
        pixels = top * (1 - wy) + bottom * wy;
    }
    return normalise(pixels.view({batch, channels, out, out}).contiguous(), normalization);
}

torch::Tensor preprocessBatch(const torch::Tensor& images, int64_t outputSize, const Normalization& normalization)
{
    AugmentSpec identity;
    identity.enabled = false;
    identity.outputSize = outputSize;
    return augmentBatch(images, torch::Tensor(), identity, normalization);
}

} // namespace lbd
