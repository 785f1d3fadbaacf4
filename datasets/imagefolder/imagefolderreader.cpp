#include "datasets/imagefolder/imagefolderreader.h"

#include "datasets/common/error.h"
#include "datasets/common/random.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

namespace lbd {
namespace {

namespace fs = std::filesystem;

using ClassFiles = std::map<std::string, std::vector<std::string>>; // class name -> sorted files

ClassFiles scanClasses(const fs::path& root)
{
    ClassFiles classes;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root, ec)) {
        if (!entry.is_directory()) {
            continue;
        }
        std::vector<std::string> files;
        for (const auto& file : fs::recursive_directory_iterator(entry.path(), ec)) {
            if (file.is_regular_file() && hasImageExtension(file.path().string())) {
                files.push_back(file.path().string());
            }
        }
        if (files.empty()) {
            throw InputError(entry.path().string() + ": class folder contains no image files (.png, .jpg, ...)");
        }
        std::sort(files.begin(), files.end());
        classes[entry.path().filename().string()] = std::move(files);
    }
    if (ec) {
        throw InputError(root.string() + ": cannot list folder (" + ec.message() + ")");
    }
    if (classes.size() < 2) {
        throw InputError(root.string() + ": an image folder needs at least two class subfolders, found "
                         + std::to_string(classes.size()));
    }
    return classes;
}

} // namespace

RawDataset readImageFolder(const std::string& rootText, const ImageFolderOptions& options)
{
    const fs::path root(rootText);
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
        throw InputError(rootText + ": image folder not found");
    }
    RawDataset dataset;
    dataset.name = "folder:" + fs::absolute(root, ec).lexically_normal().string();
    dataset.format = options.files.format;

    std::vector<std::string> trainPaths, testPaths;
    std::vector<int64_t> trainLabels, testLabels;
    if (fs::is_directory(root / "train", ec) && fs::is_directory(root / "test", ec)) {
        const ClassFiles train = scanClasses(root / "train");
        const ClassFiles test = scanClasses(root / "test");
        for (const auto& [name, files] : train) {
            const auto label = static_cast<int64_t>(dataset.classNames.size());
            dataset.classNames.push_back(name);
            for (const auto& file : files) {
                trainPaths.push_back(file);
                trainLabels.push_back(label);
            }
        }
        for (const auto& [name, files] : test) {
            const auto found = std::find(dataset.classNames.begin(), dataset.classNames.end(), name);
            if (found == dataset.classNames.end()) {
                throw InputError((root / "test" / name).string() + ": test class has no folder under "
                                 + (root / "train").string());
            }
            for (const auto& file : files) {
                testPaths.push_back(file);
                testLabels.push_back(found - dataset.classNames.begin());
            }
        }
    } else {
        if (!(options.heldOutFraction > 0.0 && options.heldOutFraction < 1.0)) {
            throw InputError("held_out_fraction must be in (0, 1), got " + std::to_string(options.heldOutFraction));
        }
        Rng rng(options.seed, 0x7e57);
        for (const auto& [name, sortedFiles] : scanClasses(root)) {
            const auto label = static_cast<int64_t>(dataset.classNames.size());
            dataset.classNames.push_back(name);
            std::vector<std::string> files = sortedFiles;
            rng.shuffle(files);
            // At least one training image per class; at least one test image when the class has two.
            auto testCount = static_cast<size_t>(std::lround(options.heldOutFraction * static_cast<double>(files.size())));
            testCount = std::min(testCount, files.size() - 1);
            if (testCount == 0 && files.size() >= 2) {
                testCount = 1;
            }
            for (size_t i = 0; i < files.size(); ++i) {
                auto& paths = i < testCount ? testPaths : trainPaths;
                auto& labels = i < testCount ? testLabels : trainLabels;
                paths.push_back(files[i]);
                labels.push_back(label);
            }
        }
    }
    dataset.train = makeImageFileSplit(std::move(trainPaths), std::move(trainLabels), options.files);
    dataset.test = makeImageFileSplit(std::move(testPaths), std::move(testLabels), options.files);
    orderClassesByTrainCount(dataset);
    return dataset;
}

} // namespace lbd
