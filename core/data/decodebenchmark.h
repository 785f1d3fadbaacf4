#pragma once
// Measures how fast this machine decodes JPEG files into training images: what the streaming
// batcher does for list-file data (ImageNet-LT), per CPU core and with every core, so that one
// can say how many cores keep N GPUs fed. The files are written first (ImageNet's typical
// 500 x 375 colour photographs, smooth content plus noise so that they compress as photographs
// do), then decoded and resized to the training size, as decodeImageFiles does.
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

struct DecodeBenchmarkOptions {
    int64_t files = 128;          // distinct files, decoded again and again
    int64_t sourceWidth = 500;
    int64_t sourceHeight = 375;
    int64_t outputSize = 224;     // decoded to outputSize x outputSize, 3 channels
    double seconds = 3;           // per thread count
    std::vector<int> threads;     // the thread counts to time (empty: 1 and every core)
};

struct DecodeBenchmarkResult {
    int threads = 1;
    int64_t images = 0;
    double seconds = 0;
    double imagesPerSecond = 0;
};

struct DecodeBenchmark {
    double meanFileBytes = 0;
    std::vector<DecodeBenchmarkResult> results;
};

// Writes `count` photograph-like JPEGs of width x height into `folder`; their mean size in bytes
// goes to `meanBytes`. Shared with the pipeline benchmark.
std::vector<std::string> writeBenchmarkJpegs(const std::string& folder, int64_t count, int64_t width, int64_t height,
                                             double& meanBytes);

// InputError when this build cannot decode images (no OpenCV).
DecodeBenchmark benchmarkDecoding(const DecodeBenchmarkOptions& options);

} // namespace lbd
