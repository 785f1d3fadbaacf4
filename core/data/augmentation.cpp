#include "core/data/augmentation.h"

#include "core/util/error.h"

#include <algorithm>
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
    const bool extended = usesExtendedParams(spec);
    const int64_t columns = extended ? kExtendedAugmentColumns : 4;
    auto params = torch::zeros({count, columns}, torch::kFloat32);
    if (!spec.enabled) {
        return params;
    }
    // The draws of the first four columns come first and in the same order as always, so that a
    // config without the ImageNet options gets the very batches it got before they existed.
    const double logLowRatio = std::log(3.0 / 4.0), logHighRatio = std::log(4.0 / 3.0);
    const auto factor = [&rng](double spread) { return spread > 0 ? rng.uniform(1.0 - spread, 1.0 + spread) : 1.0; };
    auto* row = params.data_ptr<float>();
    for (int64_t i = 0; i < count; ++i, row += columns) {
        if (!spec.randomResizedCrop) {
            row[0] = static_cast<float>(rng.below(2 * spec.padding + 1) - spec.padding);
            row[1] = static_cast<float>(rng.below(2 * spec.padding + 1) - spec.padding);
        }
        row[2] = spec.horizontalFlip && rng.coin() ? 1.0f : 0.0f;
        row[3] = static_cast<float>(rng.uniform(-spec.maxRotationDegrees, spec.maxRotationDegrees) * kPi / 180.0);
        if (!extended) {
            continue;
        }
        row[4] = row[5] = 1.0f; // the whole image, square
        row[6] = row[7] = 0.5f;
        if (spec.randomResizedCrop) {
            row[4] = static_cast<float>(rng.uniform(spec.cropScaleMin, 1.0));
            row[5] = static_cast<float>(std::exp(rng.uniform(logLowRatio, logHighRatio)));
            row[6] = static_cast<float>(rng.uniform(0.0, 1.0));
            row[7] = static_cast<float>(rng.uniform(0.0, 1.0));
        }
        row[8] = static_cast<float>(factor(spec.brightness));
        row[9] = static_cast<float>(factor(spec.contrast));
        row[10] = static_cast<float>(factor(spec.saturation));
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

// The images [B, C, H, W] at the source points (x, y) [B, P]: float [B, C, P].
torch::Tensor samplePixels(const torch::Tensor& images, const torch::Tensor& sourceX, const torch::Tensor& sourceY, bool bilinear)
{
    const int64_t batch = images.size(0), channels = images.size(1), height = images.size(2), width = images.size(3);
    const auto flat = images.reshape({batch, channels, height * width}).to(torch::kFloat32);
    if (!bilinear) {
        // Integer coordinates: one exact gather (crop, flip and padding only).
        return gatherPixels(flat, sourceX.round(), sourceY.round(), height, width);
    }
    // Bilinear: the four neighbours in one gather, then their weights. At integer coordinates
    // the weights are exactly 1, 0, 0, 0, so angle 0 and scale 1 reproduce the image.
    const int64_t points = sourceX.size(1);
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
    return (corners.view({batch, channels, 4, points}) * weights.view({batch, 1, 4, points})).sum(2);
}

struct CropBox {
    double x = 0, y = 0, width = 0, height = 0; // in source pixels
};

// The resized crop's box from its draws (area fraction, aspect ratio, position fractions): as
// torchvision's RandomResizedCrop, except that a box that would not fit is clamped to the image
// rather than drawn again (drawn values must not depend on the image size).
CropBox resizedCropBox(const float* row, int64_t height, int64_t width)
{
    const double area = static_cast<double>(height * width) * row[4];
    CropBox box;
    box.width = std::clamp(std::round(std::sqrt(area * row[5])), 1.0, static_cast<double>(width));
    box.height = std::clamp(std::round(std::sqrt(area / row[5])), 1.0, static_cast<double>(height));
    box.x = std::min(std::floor(row[6] * (static_cast<double>(width) - box.width + 1.0)), static_cast<double>(width) - box.width);
    box.y = std::min(std::floor(row[7] * (static_cast<double>(height) - box.height + 1.0)), static_cast<double>(height) - box.height);
    return box;
}

// ColorJitter without hue on pixels [B, C, P] in 0..255: brightness, contrast, saturation with
// per-image factors [3, B, 1, 1], each step clamped to 0..255 as torchvision's adjust_* are.
torch::Tensor jitterColours(torch::Tensor pixels, const torch::Tensor& factors)
{
    const auto grey = [&](const torch::Tensor& x) { // ITU-R 601 luma, as torchvision's rgb_to_grayscale
        return x.size(1) == 3 ? (x.select(1, 0) * 0.299 + x.select(1, 1) * 0.587 + x.select(1, 2) * 0.114).unsqueeze(1)
                              : x.mean(1, /*keepdim=*/true);
    };
    pixels = (pixels * factors[0]).clamp_(0, 255);
    const auto meanGrey = grey(pixels).mean(2, /*keepdim=*/true);
    pixels = (pixels * factors[1] + meanGrey * (1 - factors[1])).clamp_(0, 255);
    if (pixels.size(1) == 3) {
        pixels = (pixels * factors[2] + grey(pixels) * (1 - factors[2])).clamp_(0, 255);
    }
    return pixels;
}

} // namespace

bool usesExtendedParams(const AugmentSpec& spec)
{
    return spec.enabled && (spec.randomResizedCrop || spec.brightness > 0 || spec.contrast > 0 || spec.saturation > 0);
}

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
    const bool extended = random && params.size(1) >= kExtendedAugmentColumns;
    const bool resizedCrop = extended && spec.randomResizedCrop;
    const bool jitter = extended && (spec.brightness > 0 || spec.contrast > 0 || spec.saturation > 0);
    if (random && params.size(0) != batch) {
        throw InputError("augmentation: " + std::to_string(params.size(0)) + " parameter rows for " + std::to_string(batch)
                         + " images");
    }

    // Every output pixel q = (u, v), relative to the output centre, reads the source point
    //   x = ax u + bx v + cx,  y = ay u + by v + cy,
    // i.e. flip(R (q - c)) + c + shift: the crop, then the flip, then the rotation, composed in
    // the order torchvision applies RandomCrop, RandomHorizontalFlip, RandomRotation. The six
    // coefficients per image and the normalisation are computed here on the host and reach the
    // device in one pinned copy, so the whole batch costs a few dozen kernels.
    const double outCentre = (static_cast<double>(out) - 1.0) / 2.0;
    const double centreX = (static_cast<double>(width) - 1.0) / 2.0;
    const double centreY = (static_cast<double>(height) - 1.0) / 2.0;
    // With a resized crop the box's centre and its size per output pixel replace the padded
    // crop's shift: x = boxX + scaleX flip(R q)_x, y = boxY + scaleY (R q)_y.
    const int64_t jitterRows = jitter ? 3 * batch : 0;
    auto host = torch::empty({batch * 6 + jitterRows + 2 * channels}, torch::kFloat32);
    float* h = host.data_ptr<float>();
    const torch::Tensor p = random ? params.to(torch::kCPU, torch::kFloat32).contiguous() : torch::Tensor();
    const int64_t columns = random ? p.size(1) : 0;
    for (int64_t b = 0; b < batch; ++b) {
        const float* row = random ? p.data_ptr<float>() + b * columns : nullptr;
        double flip = 1.0, cosine = 1.0, sine = 0.0, originX = centreX, originY = centreY, scaleX = 1.0, scaleY = 1.0;
        if (random) {
            originX += row[0];
            originY += row[1];
            flip = 1.0 - 2.0 * row[2];
            if (rotate) {
                cosine = std::cos(static_cast<double>(row[3]));
                sine = std::sin(static_cast<double>(row[3]));
            }
        }
        if (resizedCrop) {
            const CropBox box = resizedCropBox(row, height, width);
            originX = box.x + (box.width - 1.0) / 2.0;
            originY = box.y + (box.height - 1.0) / 2.0;
            scaleX = box.width / static_cast<double>(out);
            scaleY = box.height / static_cast<double>(out);
        }
        h[b] = static_cast<float>(scaleX * flip * cosine);  // ax
        h[batch + b] = static_cast<float>(-scaleX * flip * sine); // bx
        h[2 * batch + b] = static_cast<float>(originX);     // cx
        h[3 * batch + b] = static_cast<float>(scaleY * sine); // ay
        h[4 * batch + b] = static_cast<float>(scaleY * cosine); // by
        h[5 * batch + b] = static_cast<float>(originY);     // cy
        for (int64_t k = 0; k < (jitter ? 3 : 0); ++k) {
            h[6 * batch + k * batch + b] = row[8 + k]; // brightness, contrast, saturation
        }
    }
    float* normalisation = h + 6 * batch + jitterRows;
    for (int64_t c = 0; c < channels; ++c) {
        normalisation[c] = static_cast<float>(1.0 / (255.0 * normalization.std[c]));                    // scale
        normalisation[channels + c] = static_cast<float>(-normalization.mean[c] / normalization.std[c]); // shift
    }
    // Pinned memory + non_blocking: the copy does not wait for the GPU to drain.
    const auto coefficients = device.is_cuda() ? host.pin_memory().to(device, /*non_blocking=*/true) : host;
    const auto coefficient = [&](int k) { return coefficients.narrow(0, k * batch, batch).view({batch, 1, 1}); };

    const auto floatOptions = torch::TensorOptions().dtype(torch::kFloat32).device(device);
    const auto axis = torch::arange(out, floatOptions).sub_(outCentre);
    const auto u = axis.view({1, 1, out});
    const auto v = axis.view({1, out, 1});
    auto sourceX = torch::addcmul(torch::addcmul(coefficient(2), coefficient(0), u), coefficient(1), v).reshape({batch, out * out});
    auto sourceY = torch::addcmul(torch::addcmul(coefficient(5), coefficient(3), u), coefficient(4), v).reshape({batch, out * out});
    if (resizedCrop) {
        // The box lies inside the image; its outermost samples may reach half a pixel past the
        // edge, which reads the edge (as torchvision's resize does), not the zero padding.
        sourceX = sourceX.clamp(0, width - 1);
        sourceY = sourceY.clamp(0, height - 1);
    }

    torch::Tensor pixels = samplePixels(images, sourceX, sourceY, /*bilinear=*/rotate || resizedCrop);
    if (jitter) {
        pixels = jitterColours(pixels, coefficients.narrow(0, 6 * batch, 3 * batch).view({3, batch, 1, 1}));
    }
    const auto scale = coefficients.narrow(0, 6 * batch + jitterRows, channels).view({1, channels, 1});
    const auto shift = coefficients.narrow(0, 6 * batch + jitterRows + channels, channels).view({1, channels, 1});
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
