#pragma once
// OpenCV's decodeImageFile next to libjpeg's in one test (see opencvreference.cpp). Throws
// std::exception (lbd_opencv::InputError) on bad input.
#include <cstdint>
#include <string>
#include <vector>

namespace opencvreference {

std::vector<uint8_t> decode(const std::string& path, int64_t channels, int64_t height, int64_t width);
std::string decoderName();

} // namespace opencvreference
