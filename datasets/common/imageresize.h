#pragma once
// Resizing 8-bit images in plain C++, for decoders that have no resize of their own (the libjpeg-turbo
// decoder of builds without OpenCV). It does what the OpenCV decoder asks of cv::resize: along an
// axis that shrinks, each output pixel is the mean of the source area it covers (INTER_AREA);
// along one that grows, bilinear interpolation between pixel centres (INTER_LINEAR). No torch.
#include <cstdint>

namespace lbd {

// Resizes `source` (height x width x channels bytes, interleaved) to targetHeight x targetWidth and
// writes it channel-major (channels x targetHeight x targetWidth) to `out`. Sizes must be positive.
void resizeToPlanes(const uint8_t* source, int height, int width, int channels, int targetHeight, int targetWidth,
                    uint8_t* out);

// The same where only the first usedHeight x usedWidth source pixels (fractional, at most height x
// width) are the picture: a JPEG decoded at DCT scale 1/8 whose width is not a multiple of 8 ends
// in a column that stands for fewer source pixels (500 pixels: 63 columns, the last one half).
// Mapping the target onto 62.5 columns, not 63, keeps the picture where a full decode puts it.
void resizeToPlanes(const uint8_t* source, int height, int width, int channels, double usedHeight, double usedWidth,
                    int targetHeight, int targetWidth, uint8_t* out);

} // namespace lbd
