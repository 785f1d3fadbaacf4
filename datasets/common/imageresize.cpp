#include "datasets/common/imageresize.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace lbd {
namespace {

// The source pixels and weights that make each output pixel along one axis: output i is
// sum(weights[k] * source[first[i] + k - offset[i]]) over k in offset[i] .. offset[i + 1].
struct AxisFilter {
    std::vector<int> first;
    std::vector<int> offset{0};
    std::vector<float> weights;

    void add(int index, float weight)
    {
        if (offset.size() > first.size()) {
            first.push_back(index); // the first tap of a new output pixel
        }
        weights.push_back(weight);
    }
    void close() { offset.push_back(static_cast<int>(weights.size())); }
};

AxisFilter axisFilter(int source, double used, int target)
{
    AxisFilter filter;
    const double scale = used / target;
    for (int i = 0; i < target; ++i) {
        if (scale > 1.0) {
            // Area: output pixel i covers source [i * scale, (i + 1) * scale).
            const double low = i * scale;
            const double high = std::min(low + scale, used);
            const int last = std::min(source, static_cast<int>(std::ceil(high)));
            for (int s = static_cast<int>(std::floor(low)); s < last; ++s) {
                const double covered = std::min<double>(high, s + 1) - std::max<double>(low, s);
                if (covered > 1e-9) {
                    filter.add(s, static_cast<float>(covered / scale));
                }
            }
        } else {
            // Bilinear between pixel centres, the edge pixels repeated outside.
            const double centre = std::max(0.0, (i + 0.5) * scale - 0.5);
            int s = static_cast<int>(std::floor(centre));
            double fraction = centre - s;
            if (s >= source - 1) {
                s = source - 1;
                fraction = 0.0;
            }
            filter.add(s, static_cast<float>(1.0 - fraction));
            if (fraction > 0.0) {
                filter.add(s + 1, static_cast<float>(fraction));
            }
        }
        filter.close();
    }
    return filter;
}

} // namespace

void resizeToPlanes(const uint8_t* source, int height, int width, int channels, int targetHeight, int targetWidth,
                    uint8_t* out)
{
    resizeToPlanes(source, height, width, channels, height, width, targetHeight, targetWidth, out);
}

void resizeToPlanes(const uint8_t* source, int height, int width, int channels, double usedHeight, double usedWidth,
                    int targetHeight, int targetWidth, uint8_t* out)
{
    const AxisFilter across = axisFilter(width, std::min<double>(usedWidth, width), targetWidth);
    const AxisFilter down = axisFilter(height, std::min<double>(usedHeight, height), targetHeight);
    // Rows first (height x targetWidth x channels, in float), then columns into the planes.
    std::vector<float> rows(static_cast<size_t>(height) * targetWidth * channels);
    for (int y = 0; y < height; ++y) {
        const uint8_t* row = source + static_cast<size_t>(y) * width * channels;
        float* to = rows.data() + static_cast<size_t>(y) * targetWidth * channels;
        for (int x = 0; x < targetWidth; ++x) {
            for (int c = 0; c < channels; ++c) {
                float sum = 0.0f;
                for (int k = across.offset[x]; k < across.offset[x + 1]; ++k) {
                    sum += across.weights[k] * row[(across.first[x] + k - across.offset[x]) * channels + c];
                }
                to[x * channels + c] = sum;
            }
        }
    }
    const size_t plane = static_cast<size_t>(targetHeight) * targetWidth;
    for (int y = 0; y < targetHeight; ++y) {
        for (int x = 0; x < targetWidth; ++x) {
            for (int c = 0; c < channels; ++c) {
                float sum = 0.0f;
                for (int k = down.offset[y]; k < down.offset[y + 1]; ++k) {
                    const int sourceRow = down.first[y] + k - down.offset[y];
                    sum += down.weights[k] * rows[(static_cast<size_t>(sourceRow) * targetWidth + x) * channels + c];
                }
                const float rounded = std::nearbyint(std::clamp(sum, 0.0f, 255.0f));
                out[c * plane + static_cast<size_t>(y) * targetWidth + x] = static_cast<uint8_t>(rounded);
            }
        }
    }
}

} // namespace lbd
