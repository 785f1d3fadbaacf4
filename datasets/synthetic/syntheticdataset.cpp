#include "datasets/synthetic/syntheticdataset.h"

#include "datasets/common/error.h"
#include "datasets/common/random.h"

#include <algorithm>
#include <cmath>

namespace lbd {
namespace {

struct ClassLook {
    int shape;
    double stripeAngle;
    double stripeFrequency;
    double colour[3];
};

ClassLook classLook(int64_t c, int64_t classes)
{
    constexpr double kPi = 3.14159265358979323846;
    ClassLook look{};
    look.shape = static_cast<int>(c % 6);
    const int64_t variants = (classes + 5) / 6;
    const int64_t variant = c / 6;
    look.stripeAngle = kPi * static_cast<double>(variant) / static_cast<double>(std::max<int64_t>(variants, 1));
    look.stripeFrequency = 0.35 + 0.25 * static_cast<double>(variant % 3);
    const double hue = std::fmod(0.61803398875 * static_cast<double>(c), 1.0) * 2.0 * kPi;
    for (int k = 0; k < 3; ++k) {
        look.colour[k] = 0.55 + 0.45 * std::cos(hue + 2.0 * kPi * k / 3.0);
    }
    return look;
}

bool insideShape(int shape, double u, double v)
{
    const double r = std::sqrt(u * u + v * v);
    switch (shape) {
    case 0: return r < 1.0;                                             // disc
    case 1: return std::fabs(u) < 0.85 && std::fabs(v) < 0.85;          // square
    case 2: return std::fabs(u) + std::fabs(v) < 1.0;                   // diamond
    case 3: return r < 1.0 && r > 0.55;                                 // ring
    case 4: return std::fabs(u) < 0.3 || std::fabs(v) < 0.3 ? r < 1.0 : false; // cross
    default: return v < 0.8 && v > -0.8 + 1.6 * std::fabs(u);          // triangle
    }
}

void drawImage(const ClassLook& look, Rng& rng, int64_t channels, int64_t size, uint8_t* out)
{
    const double centre = (static_cast<double>(size) - 1.0) / 2.0;
    const double cx = centre + rng.uniform(-0.15, 0.15) * static_cast<double>(size);
    const double cy = centre + rng.uniform(-0.15, 0.15) * static_cast<double>(size);
    const double radius = rng.uniform(0.25, 0.4) * static_cast<double>(size);
    const double angle = look.stripeAngle + rng.uniform(-0.2, 0.2);
    const double phase = rng.uniform(0.0, 6.2831853);
    const double background = rng.uniform(0.05, 0.3);
    const double ca = std::cos(angle);
    const double sa = std::sin(angle);
    const int64_t plane = size * size;
    for (int64_t y = 0; y < size; ++y) {
        for (int64_t x = 0; x < size; ++x) {
            const double u = (static_cast<double>(x) - cx) / radius;
            const double v = (static_cast<double>(y) - cy) / radius;
            const bool inside = insideShape(look.shape, u, v);
            const double stripe = 0.5 + 0.5 * std::sin(look.stripeFrequency * (x * ca + y * sa) * 3.0 + phase);
            for (int64_t c = 0; c < channels; ++c) {
                const double tint = channels == 1 ? 1.0 : look.colour[c];
                double value = inside ? (0.35 + 0.65 * stripe) * tint : background;
                value += rng.uniform(-0.08, 0.08);
                const double clamped = std::min(1.0, std::max(0.0, value));
                out[c * plane + y * size + x] = static_cast<uint8_t>(std::lround(clamped * 255.0));
            }
        }
    }
}

RawSplit makeSplit(const SyntheticSpec& spec, int64_t perClass, uint64_t stream)
{
    const int64_t count = spec.classes * perClass;
    const int64_t imageBytes = spec.channels * spec.size * spec.size;
    RawSplit split;
    split.pixels.resize(static_cast<size_t>(count * imageBytes));
    split.labels.resize(static_cast<size_t>(count));
    uint8_t* pixels = split.pixels.data();
    int64_t* labels = split.labels.data();
    Rng rng(spec.seed, stream);
    for (int64_t c = 0; c < spec.classes; ++c) {
        const ClassLook look = classLook(c, spec.classes);
        for (int64_t i = 0; i < perClass; ++i) {
            const int64_t index = c * perClass + i;
            labels[index] = c;
            drawImage(look, rng, spec.channels, spec.size, pixels + index * imageBytes);
        }
    }
    return split;
}

} // namespace

RawDataset generateSyntheticDataset(const SyntheticSpec& spec)
{
    if (spec.classes < 2) {
        throw InputError("synthetic.classes must be at least 2, got " + std::to_string(spec.classes));
    }
    if (spec.trainPerClass < 1 || spec.testPerClass < 1) {
        throw InputError("synthetic.train_per_class and synthetic.test_per_class must be at least 1");
    }
    if (spec.channels != 1 && spec.channels != 3) {
        throw InputError("synthetic.channels must be 1 or 3, got " + std::to_string(spec.channels));
    }
    if (spec.size < 8 || spec.size > 512) {
        throw InputError("synthetic.size must be in 8..512, got " + std::to_string(spec.size));
    }
    RawDataset dataset;
    dataset.name = "synthetic";
    dataset.format = {spec.channels, spec.size, spec.size};
    dataset.classNames = syntheticClassNames(spec.classes);
    dataset.train = makeSplit(spec, spec.trainPerClass, 1);
    dataset.test = makeSplit(spec, spec.testPerClass, 2);
    return dataset;
}

} // namespace lbd
