// The parts of image decoding that do not depend on the decoder behind datasets/common/imagedecoder.h:
// the checks before decoding and decoding many files on worker threads.
#include "datasets/common/imagedecoder.h"
#include "datasets/common/imagedecoderchecks.h"

#include "datasets/common/error.h"
#include "datasets/common/workerthreads.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <mutex>

namespace lbd {

void checkImageFileSize(int64_t size, const std::string& label, const ReadLimits& limits)
{
    if (size > limits.maxImageFileBytes) {
        throw ReadLimitError(label + ": image file of " + std::to_string(size) + " bytes is over the limit of "
                         + std::to_string(limits.maxImageFileBytes) + " bytes (maxImageFileBytes)");
    }
}

int64_t checkImageFile(const std::string& path, const ReadLimits& limits)
{
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!std::filesystem::exists(status)) {
        throw InputError(path + ": image file not found");
    }
    if (!std::filesystem::is_regular_file(status)) {
        throw InputError(path + ": not a regular file");
    }
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) {
        throw InputError(path + ": cannot read file (" + ec.message() + ")");
    }
    checkImageFileSize(static_cast<int64_t>(size), path, limits);
    return static_cast<int64_t>(size);
}

void decodeImageFiles(const std::vector<std::string>& paths, const ImageFormat& format, int threads, uint8_t* out,
                      const ReadLimits& limits)
{
    const auto count = static_cast<int64_t>(paths.size());
    const int64_t imageBytes = format.bytesPerImage();
    std::atomic<int64_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr firstError;
    std::mutex errorMutex;
    const auto work = [&] {
        for (int64_t i = next++; i < count && !failed; i = next++) {
            try {
                decodeImageFile(paths[static_cast<size_t>(i)], format, out + i * imageBytes, limits);
            } catch (...) {
                std::lock_guard<std::mutex> lock(errorMutex);
                if (!failed.exchange(true)) {
                    firstError = std::current_exception();
                }
            }
        }
    };
    runOnWorkerThreads(std::max(1, std::min<int>(threads, static_cast<int>(count))), work);
    if (firstError) {
        std::rethrow_exception(firstError);
    }
}

DecodeOutcome decodeImageFilesKeepingGoing(const std::vector<std::string>& paths, const ImageFormat& format, int threads,
                                           uint8_t* out, const ReadLimits& limits)
{
    const auto count = static_cast<int64_t>(paths.size());
    const int64_t imageBytes = format.bytesPerImage();
    DecodeOutcome outcome;
    outcome.errors.resize(paths.size());
    std::vector<uint8_t> composited(paths.size()), turned(paths.size());
    // A file over a read limit stops the split (ReadLimitError says why it is not skipped); the
    // first one in path order is rethrown, so the message does not depend on thread timing.
    std::vector<std::exception_ptr> overLimit(paths.size());
    std::atomic<int64_t> next{0};
    const auto work = [&] {
        for (int64_t i = next++; i < count; i = next++) {
            const auto at = static_cast<size_t>(i);
            try {
                DecodedImageInfo info;
                decodeImageFile(paths[at], format, out + i * imageBytes, limits, &info);
                composited[at] = info.applied.composited ? 1 : 0;
                turned[at] = info.applied.orientation != 1 ? 1 : 0;
            } catch (const ReadLimitError&) {
                overLimit[at] = std::current_exception();
            } catch (const std::exception& error) {
                // The path leads every decoder message; the report names the file once.
                std::string reason = error.what();
                if (reason.rfind(paths[at] + ": ", 0) == 0) {
                    reason = reason.substr(paths[at].size() + 2);
                }
                outcome.errors[at] = reason.empty() ? "cannot decode" : reason;
            }
        }
    };
    runOnWorkerThreads(std::max(1, std::min<int>(threads, static_cast<int>(count))), work);
    for (const std::exception_ptr& error : overLimit) {
        if (error) {
            std::rethrow_exception(error);
        }
    }
    for (size_t i = 0; i < paths.size(); ++i) {
        outcome.composited += composited[i];
        outcome.turned += turned[i];
    }
    return outcome;
}

} // namespace lbd
