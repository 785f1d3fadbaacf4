#include "datasets/synthetic/syntheticlistwriter.h"

#include "datasets/common/imagedecoder.h"
#include "datasets/common/error.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>
#include <vector>

namespace lbd {
namespace {

namespace fs = std::filesystem;

struct ImageJob {
    int64_t label = 0;
    int64_t index = 0; // within its class and split
    bool test = false;
    std::string relativePath;
};

// A small, seedable generator (SplitMix64): the same spec writes the same bytes anywhere.
uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

double unit(uint64_t& state)
{
    state = mix(state);
    return static_cast<double>(state >> 11) / 9007199254740992.0;
}

// Stripes whose direction, frequency and colours belong to the class, shifted and noised per image.
std::vector<uint8_t> classImage(const ImageJob& job, const SyntheticListSpec& spec)
{
    uint64_t classState = mix(spec.seed * 1000003ull + static_cast<uint64_t>(job.label));
    const double angle = unit(classState) * 3.14159265;
    const double frequency = 0.03 + 0.15 * unit(classState);
    double colour[3][2];
    for (auto& channel : colour) {
        channel[0] = 60 + 140 * unit(classState); // base
        channel[1] = 20 + 60 * unit(classState);  // stripe amplitude
    }
    uint64_t imageState = mix(classState ^ (static_cast<uint64_t>(job.index) * 2 + (job.test ? 1 : 0)));
    const double phase = unit(imageState) * 6.2831853;
    const double fx = std::cos(angle) * frequency, fy = std::sin(angle) * frequency;
    const int64_t w = spec.width, h = spec.height;
    std::vector<uint8_t> pixels(static_cast<size_t>(3 * w * h));
    for (int64_t y = 0; y < h; ++y) {
        for (int64_t x = 0; x < w; ++x) {
            const double stripe = std::sin(fx * static_cast<double>(x) + fy * static_cast<double>(y) + phase);
            const double noise = (unit(imageState) - 0.5) * 30;
            for (int c = 0; c < 3; ++c) {
                const double value = colour[c][0] + colour[c][1] * stripe + noise;
                pixels[static_cast<size_t>((c * h + y) * w + x)] = static_cast<uint8_t>(std::clamp(value, 0.0, 255.0));
            }
        }
    }
    return pixels;
}

void checkSpec(const std::string& directory, const SyntheticListSpec& spec)
{
    if (spec.classes < 2 || spec.classes > 100000 || spec.maxPerClass < 1 || spec.testPerClass < 1
        || !(spec.imbalanceRatio >= 1) || spec.width < 8 || spec.height < 8 || spec.width > 4096 || spec.height > 4096) {
        throw InputError("synthetic list data: classes 2..100000, at least 1 image a class, an imbalance ratio of at least 1 "
                         "and sides of 8..4096 pixels");
    }
    std::error_code error;
    if (fs::exists(directory, error) && !(fs::is_directory(directory, error) && fs::is_empty(directory, error))) {
        throw InputError(directory + " exists and is not an empty folder: nothing is written over");
    }
}

} // namespace

SyntheticListResult writeSyntheticListData(const std::string& directory, const SyntheticListSpec& spec)
{
    checkSpec(directory, spec);
    std::vector<ImageJob> jobs;
    SyntheticListResult result;
    for (int64_t c = 0; c < spec.classes; ++c) {
        const double exponent = -static_cast<double>(c) / static_cast<double>(spec.classes - 1);
        const int64_t train = std::max<int64_t>(1, static_cast<int64_t>(std::floor(spec.maxPerClass * std::pow(spec.imbalanceRatio, exponent))));
        for (int64_t i = 0; i < train + spec.testPerClass; ++i) {
            const bool test = i >= train;
            const int64_t index = test ? i - train : i;
            jobs.push_back({c, index, test, std::string(test ? "test" : "train") + "/c" + std::to_string(c) + "/" + std::to_string(index) + ".jpg"});
        }
        result.trainImages += train;
        result.testImages += spec.testPerClass;
    }
    for (const char* split : {"train", "test"}) {
        for (int64_t c = 0; c < spec.classes; ++c) {
            fs::create_directories(fs::path(directory) / split / ("c" + std::to_string(c)));
        }
    }
    const ImageFormat format{3, spec.height, spec.width};
    const int threads = spec.threads > 0 ? spec.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::atomic<size_t> next{0};
    std::mutex failure;
    std::string firstError;
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&] {
            for (size_t j = next++; j < jobs.size(); j = next++) {
                try {
                    writeImageFile((fs::path(directory) / jobs[j].relativePath).string(), classImage(jobs[j], spec).data(), format);
                } catch (const std::exception& error) {
                    const std::lock_guard<std::mutex> lock(failure);
                    if (firstError.empty()) {
                        firstError = error.what();
                    }
                    next = jobs.size();
                }
            }
        });
    }
    for (auto& worker : workers) {
        worker.join();
    }
    if (!firstError.empty()) {
        throw RunError("synthetic list data: " + firstError);
    }
    result.trainList = (fs::path(directory) / "ImageNet_LT_train.txt").string();
    result.testList = (fs::path(directory) / "ImageNet_LT_test.txt").string();
    // The imagenet-lt preset evaluates on the published loader's validation list; a synthetic data
    // set has one held-out set, written under both names.
    result.valList = (fs::path(directory) / "ImageNet_LT_val.txt").string();
    std::ofstream train(result.trainList), test(result.testList), val(result.valList);
    for (const ImageJob& job : jobs) {
        (job.test ? test : train) << job.relativePath << ' ' << job.label << '\n';
        if (job.test) {
            val << job.relativePath << ' ' << job.label << '\n';
        }
    }
    if (!train.flush() || !test.flush() || !val.flush()) {
        throw RunError("synthetic list data: could not write the list files in " + directory);
    }
    return result;
}

} // namespace lbd
