#include "datasets/common/datacheck.h"

#include <map>
#include <set>
#include <unordered_map>

namespace lbd {
namespace {

uint64_t fnv1a(const uint8_t* data, int64_t size)
{
    uint64_t hash = 1469598103934665603ull;
    for (int64_t i = 0; i < size; ++i) {
        hash = (hash ^ data[i]) * 1099511628211ull;
    }
    return hash;
}

// Every pixel the same colour (each channel plane one value).
bool isFlat(const uint8_t* image, const ImageFormat& format)
{
    const int64_t plane = format.height * format.width;
    for (int64_t c = 0; c < format.channels; ++c) {
        const uint8_t* p = image + c * plane;
        for (int64_t i = 1; i < plane; ++i) {
            if (p[i] != p[0]) {
                return false;
            }
        }
    }
    return true;
}

std::string share(int64_t part, int64_t whole)
{
    return std::to_string(part) + " of " + std::to_string(whole);
}

} // namespace

std::vector<std::string> checkTrainingImages(const RawSplit& train, const ImageFormat& format,
                                             const std::vector<std::string>& classNames)
{
    std::vector<std::string> warnings;
    const int64_t bytes = format.bytesPerImage();
    if (train.isStreamed() || train.size() == 0 || int64_t(train.pixels.size()) != train.size() * bytes) {
        return warnings;
    }
    const size_t classes = classNames.size();
    std::vector<uint64_t> hashes(static_cast<size_t>(train.size()));
    std::vector<int64_t> count(classes), flat(classes);
    std::unordered_map<uint64_t, std::set<int64_t>> classesOfHash;
    std::vector<std::set<uint64_t>> distinct(classes);
    for (int64_t i = 0; i < train.size(); ++i) {
        const int64_t label = train.labels[static_cast<size_t>(i)];
        if (label < 0 || label >= int64_t(classes)) {
            continue;
        }
        const uint8_t* image = train.pixels.data() + i * bytes;
        const uint64_t hash = fnv1a(image, bytes);
        hashes[static_cast<size_t>(i)] = hash;
        ++count[static_cast<size_t>(label)];
        flat[static_cast<size_t>(label)] += isFlat(image, format) ? 1 : 0;
        classesOfHash[hash].insert(label);
        distinct[static_cast<size_t>(label)].insert(hash);
    }
    std::vector<int64_t> shared(classes);
    for (int64_t i = 0; i < train.size(); ++i) {
        const int64_t label = train.labels[static_cast<size_t>(i)];
        if (label >= 0 && label < int64_t(classes) && classesOfHash[hashes[static_cast<size_t>(i)]].size() > 1) {
            ++shared[static_cast<size_t>(label)];
        }
    }
    std::string sharedClasses;
    int64_t sharedImages = 0;
    for (size_t c = 0; c < classes; ++c) {
        const std::string name = "class " + classNames[c];
        if (count[c] >= 2 && distinct[c].size() == 1) {
            warnings.push_back(name + ": all " + std::to_string(count[c]) + " training images are the same image"
                               + (flat[c] == count[c] ? " (one flat colour)" : "") + " as read: it cannot be learnt");
        } else if (flat[c] >= 2 && double(flat[c]) >= kDoubtfulShare * double(count[c])) {
            warnings.push_back(name + ": " + share(flat[c], count[c]) + " training images are one flat colour as read");
        }
        if (shared[c] >= 2 && double(shared[c]) >= kDoubtfulShare * double(count[c])) {
            sharedClasses += (sharedClasses.empty() ? "" : ", ") + classNames[c] + " (" + share(shared[c], count[c]) + ")";
            sharedImages += shared[c];
        }
    }
    if (!sharedClasses.empty()) {
        warnings.push_back(std::to_string(sharedImages) + " training images are identical, pixel for pixel as read, to images of "
                           "other classes, so no model can tell them apart: classes " + sharedClasses);
    }
    return warnings;
}

} // namespace lbd
