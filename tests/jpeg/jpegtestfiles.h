#pragma once
// JPEG inputs for the decoder tests, written with libjpeg directly (not with the writeImageFile under
// test): a pattern at a given quality, with 4:4:4 chroma so that colour edges stay where they are.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <jpeglib.h>

namespace lbd::test {

// `pixels`: height x width x components bytes, interleaved (1: grey, 3: RGB, 4: CMYK).
inline std::vector<uint8_t> encodeJpeg(const std::vector<uint8_t>& pixels, int height, int width, int components,
                                       int quality = 100)
{
    jpeg_compress_struct info{};
    jpeg_error_mgr errors{};
    info.err = jpeg_std_error(&errors); // a test input that cannot be written ends the test (exit)
    jpeg_create_compress(&info);
    unsigned char* buffer = nullptr;
    unsigned long size = 0;
    jpeg_mem_dest(&info, &buffer, &size);
    info.image_width = static_cast<JDIMENSION>(width);
    info.image_height = static_cast<JDIMENSION>(height);
    info.input_components = components;
    info.in_color_space = components == 1 ? JCS_GRAYSCALE : components == 3 ? JCS_RGB : JCS_CMYK;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    for (int c = 0; c < info.num_components; ++c) {
        info.comp_info[c].h_samp_factor = 1;
        info.comp_info[c].v_samp_factor = 1;
    }
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = const_cast<uint8_t*>(pixels.data()) + size_t(info.next_scanline) * width * components;
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    std::vector<uint8_t> bytes(buffer, buffer + size);
    jpeg_destroy_compress(&info);
    std::free(buffer);
    return bytes;
}

inline void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes)
{
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// A smooth RGB picture (gradients in each channel), height x width x 3 interleaved.
inline std::vector<uint8_t> smoothPicture(int height, int width)
{
    std::vector<uint8_t> pixels(size_t(height) * width * 3);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            uint8_t* p = pixels.data() + (size_t(y) * width + x) * 3;
            p[0] = uint8_t(255 * x / std::max(1, width - 1));
            p[1] = uint8_t(255 * y / std::max(1, height - 1));
            p[2] = uint8_t(128 + 100 * ((x / 16 + y / 16) % 2 ? 1 : -1) * (x % 16) / 16);
        }
    }
    return pixels;
}

// The largest and the mean absolute difference of two byte arrays of one size.
inline std::pair<int, double> difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b)
{
    int largest = 0;
    double sum = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        const int d = std::abs(int(a[i]) - int(b[i]));
        largest = std::max(largest, d);
        sum += d;
    }
    return {largest, sum / double(a.size())};
}

} // namespace lbd::test
