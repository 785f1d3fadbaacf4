#include "core/data/decodebenchmark.h"

#include "core/data/imagedecoder.h"
#include "core/util/error.h"
#include "core/util/scratchfolder.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace lbd {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Smooth colour gradients and blobs with mild noise: JPEG sizes near a photograph's (pure noise
// would be several times larger and slower to decode than real photographs).
torch::Tensor photographLike(int64_t height, int64_t width, int64_t seed)
{
    torch::manual_seed(static_cast<uint64_t>(seed));
    const auto y = torch::linspace(0, 1, height).view({1, height, 1});
    const auto x = torch::linspace(0, 1, width).view({1, 1, width});
    const auto phase = torch::rand({3, 1, 1}) * 6.28;
    const auto frequency = torch::rand({3, 1, 1}) * 6 + 1;
    auto image = 0.5 + 0.25 * torch::sin(frequency * x * 6.28 + phase) * torch::cos(frequency * y * 4.0 + phase);
    image = image + 0.04 * torch::randn({3, height, width});
    return image.clamp(0, 1).mul(255).to(torch::kUInt8);
}

} // namespace

std::vector<std::string> writeBenchmarkJpegs(const std::string& folder, int64_t count, int64_t width, int64_t height,
                                             double& meanBytes)
{
    std::vector<std::string> paths;
    meanBytes = 0;
    for (int64_t i = 0; i < count; ++i) {
        const std::string path = (std::filesystem::path(folder) / ("image-" + std::to_string(i) + ".jpg")).string();
        writeImageFile(path, photographLike(height, width, i));
        meanBytes += static_cast<double>(fs::file_size(path)) / static_cast<double>(count);
        paths.push_back(path);
    }
    return paths;
}

DecodeBenchmark benchmarkDecoding(const DecodeBenchmarkOptions& options)
{
    // JPEG is all it writes and reads: libjpeg-turbo alone (a headless build without OpenCV) will do.
    if (!jpegDecodingAvailable()) {
        throw InputError("decode benchmark: this build of lbd decodes no JPEG (built without OpenCV and without libjpeg-turbo)");
    }
    if (options.files < 1 || options.outputSize < 1 || !(options.seconds > 0)) {
        throw InputError("decode benchmark: files, output size and seconds must be positive");
    }
    ScratchFolder folder("lbd-decode-bench");
    DecodeBenchmark benchmark;
    const std::vector<std::string> paths =
        writeBenchmarkJpegs(folder.path(), options.files, options.sourceWidth, options.sourceHeight, benchmark.meanFileBytes);
    const ImageFormat format{3, options.outputSize, options.outputSize};
    std::vector<int> counts = options.threads;
    if (counts.empty()) {
        const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        counts = cores > 1 ? std::vector<int>{1, cores} : std::vector<int>{1};
    }
    (void)decodeImageFiles(std::vector<std::string>(paths.begin(), paths.begin() + 1), format, 1); // warm-up
    for (const int threads : counts) {
        DecodeBenchmarkResult result;
        result.threads = threads;
        const auto start = Clock::now();
        do {
            (void)decodeImageFiles(paths, format, threads);
            result.images += static_cast<int64_t>(paths.size());
            result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        } while (result.seconds < options.seconds);
        result.imagesPerSecond = static_cast<double>(result.images) / result.seconds;
        benchmark.results.push_back(result);
    }
    return benchmark;
}

} // namespace lbd
