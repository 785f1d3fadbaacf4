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

// Gathers images [B, C, H*W] at float pixel coordinates (x, y) [B, K] that hold integers;
// outside the image reads zero (the zero padding). Returns float [B, C, K].
torch::Tensor gatherPixels(const torch::Tensor& flat, const torch::Tensor& x, const torch::Tensor& y, int64_t height,
                           int64_t width)
{
    const auto xc = x.clamp(0, width - 1);
    const auto yc = y.clamp(0, height - 1);
    const auto inside = xc.eq(x).logical_and_(yc.eq(y)).unsqueeze(1);
    const auto index = torch::add(xc, yc, static_cast<double>(width)).to(torch::kInt64).unsqueeze(1).expand({-1, flat.size(1), -1});
    return torch::where(inside, flat.gather(2, index), torch::zeros({}, flat.options()));
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
    if (static_cast<int64_t>(normalization.mean.size()) != channels || static_cast<int64_t>(normalization.std.size()) != channels) {
        throw InputError("normalisation has " + std::to_string(normalization.mean.size()) + " channels, images have "
                         + std::to_string(channels));
    }
    const bool random = params.defined() && spec.enabled;
    const bool rotate = random && spec.maxRotationDegrees > 0.0;

    // Every output pixel q = (u, v), relative to the output centre, reads the source point
    //   x = ax u + bx v + cx,  y = ay u + by v + cy,
    // i.e. flip(R (q - c)) + c + shift: the crop, then the flip, then the rotation, composed in
    // the order torchvision applies RandomCrop, RandomHorizontalFlip, RandomRotation. The six
    // coefficients per image and the normalisation are computed here on the host and reach the
    // device in one pinned copy, so the whole batch costs a few dozen kernels.
    const double outCentre = (static_cast<double>(out) - 1.0) / 2.0;
    const double centreX = (static_cast<double>(width) - 1.0) / 2.0;
    const double centreY = (static_cast<double>(height) - 1.0) / 2.0;
    auto host = torch::empty({batch * 6 + 2 * channels}, torch::kFloat32);
    float* h = host.data_ptr<float>();
    const torch::Tensor p = random ? params.to(torch::kCPU, torch::kFloat32).contiguous() : torch::Tensor();
    const float* row = random ? p.data_ptr<float>() : nullptr;
    for (int64_t b = 0; b < batch; ++b) {
        double flip = 1.0, cosine = 1.0, sine = 0.0, shiftX = 0.0, shiftY = 0.0;
        if (random) {
            shiftX = row[b * 4 + 0];
            shiftY = row[b * 4 + 1];
            flip = 1.0 - 2.0 * row[b * 4 + 2];
            if (rotate) {
                cosine = std::cos(static_cast<double>(row[b * 4 + 3]));
                sine = std::sin(static_cast<double>(row[b * 4 + 3]));
            }
        }
        h[b] = static_cast<float>(flip * cosine);               // ax
        h[batch + b] = static_cast<float>(-flip * sine);        // bx
        h[2 * batch + b] = static_cast<float>(centreX + shiftX); // cx
        h[3 * batch + b] = static_cast<float>(sine);            // ay
        h[4 * batch + b] = static_cast<float>(cosine);          // by
        h[5 * batch + b] = static_cast<float>(centreY + shiftY); // cy
    }
    for (int64_t c = 0; c < channels; ++c) {
        h[6 * batch + c] = static_cast<float>(1.0 / (255.0 * normalization.std[c]));           // scale
        h[6 * batch + channels + c] = static_cast<float>(-normalization.mean[c] / normalization.std[c]); // shift
    }
    // Pinned memory + non_blocking: the copy does not wait for the GPU to drain.
    const auto coefficients = device.is_cuda() ? host.pin_memory().to(device, /*non_blocking=*/true) : host;
    const auto coefficient = [&](int k) { return coefficients.narrow(0, k * batch, batch).view({batch, 1, 1}); };

    const auto floatOptions = torch::TensorOptions().dtype(torch::kFloat32).device(device);
    const auto axis = torch::arange(out, floatOptions).sub_(outCentre);
    const auto u = axis.view({1, 1, out});
    const auto v = axis.view({1, out, 1});
    const auto sourceX = torch::addcmul(torch::addcmul(coefficient(2), coefficient(0), u), coefficient(1), v).reshape({batch, out * out});
    const auto sourceY = torch::addcmul(torch::addcmul(coefficient(5), coefficient(3), u), coefficient(4), v).reshape({batch, out * out});

    const auto flat = images.reshape({batch, channels, height * width}).to(torch::kFloat32);
    torch::Tensor pixels;
    if (!rotate) {
        // Integer coordinates: one exact gather (crop, flip and padding only).
        pixels = gatherPixels(flat, sourceX.round(), sourceY.round(), height, width);
    } else {
        // Bilinear: the four neighbours in one gather, then their weights. At integer
        // coordinates the weights are exactly 1, 0, 0, 0, so angle 0 reproduces the image.
        const int64_t points = out * out;
        const auto x0 = sourceX.floor();
        const auto y0 = sourceY.floor();
        const auto wx = sourceX - x0;
        const auto wy = sourceY - y0;
        const auto x1 = x0 + 1;
        const auto y1 = y0 + 1;
        const auto corners = gatherPixels(flat, torch::cat({x0, x1, x0, x1}, 1), torch::cat({y0, y0, y1, y1}, 1), height, width);
        const auto ux = 1 - wx;
        const auto uy = 1 - wy;
        const auto weights = torch::cat({ux * uy, wx * uy, ux * wy, wx * wy}, 1); // [B, 4P]
        pixels = (corners.view({batch, channels, 4, points}) * weights.view({batch, 1, 4, points})).sum(2);
    }
    const auto scale = coefficients.narrow(0, 6 * batch, channels).view({1, channels, 1});
    const auto shift = coefficients.narrow(0, 6 * batch + channels, channels).view({1, channels, 1});
    return torch::addcmul(shift, pixels, scale).view({batch, channels, out, out});
}

torch::Tensor preprocessBatch(const torch::Tensor& images, int64_t outputSize, const Normalization& normalization)
{
    AugmentSpec identity;
    identity.enabled = false;
    identity.outputSize = outputSize;
    return augmentBatch(images, torch::Tensor(), identity, normalization);
}

} // namespace lbd
