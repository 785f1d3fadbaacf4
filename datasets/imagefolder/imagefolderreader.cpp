#include "datasets/imagefolder/imagefolderreader.h"

#include "datasets/common/datareport.h"
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

// std::filesystem's own exceptions say "filesystem error: ..." and name the call; these name the
// path and what is wrong with it, as every reader error does.
[[noreturn]] void cannotRead(const fs::path& path, const std::error_code& ec)
{
    const std::string reason = ec == std::errc::permission_denied ? "permission denied" : ec.message();
    throw InputError(path.string() + ": cannot read (" + reason + ")");
}

// The type of `path`, symlinks followed; not_found for a missing path or a dangling link. A
// symlink loop or an unreadable parent folder is an InputError naming it.
fs::file_type typeOf(const fs::path& path)
{
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (status.type() == fs::file_type::none) {
        cannotRead(path, ec);
    }
    return status.type();
}

void requireFolder(const fs::path& path)
{
    const fs::file_type type = typeOf(path);
    if (type == fs::file_type::not_found) {
        throw InputError(path.string() + ": image folder not found");
    }
    if (type != fs::file_type::directory) {
        throw InputError(path.string() + ": is a file, not a folder");
    }
}

// Calls `visit` for each entry of `folder`; an unreadable folder is an InputError naming it.
template <typename Visit>
void forEachEntry(const fs::path& folder, Visit visit)
{
    std::error_code ec;
    fs::directory_iterator it(folder, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
        visit(it->path());
    }
    if (ec) {
        cannotRead(folder, ec);
    }
}

// Image files under `folder`, in its sub-folders too; hidden and system files (.DS_Store,
// Thumbs.db, ._*) and other files (README.txt, .svg) are listed in `report`, not read. Symlinked
// files are followed; symlinked folders are not (as recursive_directory_iterator does by default),
// so a link cycle ends here.
void collectImages(const fs::path& folder, std::vector<std::string>& files, DataReport& report)
{
    forEachEntry(folder, [&](const fs::path& path) {
        std::error_code ec;
        if (isHiddenOrSystemName(path.filename().string())) {
            report.ignored.push_back(path.string());
        } else if (fs::is_directory(fs::symlink_status(path, ec))) {
            collectImages(path, files, report);
        } else if (hasImageExtension(path.string()) && typeOf(path) == fs::file_type::regular) {
            files.push_back(path.string());
        } else if (typeOf(path) == fs::file_type::regular) {
            report.notImages.push_back(path.string());
        }
    });
}

// The files of `root` that are in no class folder: hidden ones ignored, others listed as not read.
void noteLooseFile(const fs::path& path, DataReport& report)
{
    if (isHiddenOrSystemName(path.filename().string())) {
        report.ignored.push_back(path.string());
    } else if (typeOf(path) == fs::file_type::regular) {
        report.notImages.push_back(path.string() + " (not in a class folder)");
    }
}

ClassFiles scanClasses(const fs::path& root, const ReadLimits& limits, DataReport& report)
{
    ClassFiles classes;
    forEachEntry(root, [&](const fs::path& path) {
        if (typeOf(path) != fs::file_type::directory) {
            noteLooseFile(path, report);
            return;
        }
        const std::string name = path.filename().string();
        if (isHiddenOrSystemName(name)) {
            report.ignored.push_back(path.string() + "/");
            return;
        }
        if (static_cast<int64_t>(classes.size()) >= limits.maxClasses) {
            throw InputError(root.string() + ": more class folders than the limit of " + std::to_string(limits.maxClasses)
                             + " classes (maxClasses)");
        }
        std::vector<std::string> files;
        // Nested folders are counted in their class, and said (a copy of the class inside itself
        // would otherwise double it in silence).
        forEachEntry(path, [&](const fs::path& entry) {
            std::error_code ec;
            if (isHiddenOrSystemName(entry.filename().string())) {
                report.ignored.push_back(entry.string());
            } else if (fs::is_directory(fs::symlink_status(entry, ec))) {
                const size_t before = files.size();
                collectImages(entry, files, report);
                if (files.size() > before) {
                    report.nested.push_back({entry.string(), name, static_cast<int64_t>(files.size() - before)});
                }
            } else if (hasImageExtension(entry.string()) && typeOf(entry) == fs::file_type::regular) {
                files.push_back(entry.string());
            } else if (typeOf(entry) == fs::file_type::regular) {
                report.notImages.push_back(entry.string());
            }
        });
        if (files.empty()) {
            throw InputError(path.string() + ": class folder contains no image files (.png, .jpg, ...)");
        }
        std::sort(files.begin(), files.end());
        classes[name] = std::move(files);
    });
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
    requireFolder(root);
    std::error_code ec;
    RawDataset dataset;
    dataset.name = "folder:" + fs::absolute(root, ec).lexically_normal().string();
    dataset.format = options.files.format;

    std::vector<std::string> trainPaths, testPaths;
    std::vector<int64_t> trainLabels, testLabels;
    const ReadLimits& limits = options.files.limits;
    if (typeOf(root / "train") == fs::file_type::directory && typeOf(root / "test") == fs::file_type::directory) {
        forEachEntry(root, [&](const fs::path& path) {
            const std::string name = path.filename().string();
            if (name != "train" && name != "test" && typeOf(path) != fs::file_type::directory) {
                noteLooseFile(path, dataset.report);
            }
        });
        const ClassFiles train = scanClasses(root / "train", limits, dataset.report);
        const ClassFiles test = scanClasses(root / "test", limits, dataset.report);
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
        for (const auto& [name, sortedFiles] : scanClasses(root, limits, dataset.report)) {
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
    // Channels 0: grey when the training images are (the test images follow them).
    ImageFileOptions files = options.files;
    files.format = resolvedImageFormat(files.format, trainPaths, limits);
    dataset.format = files.format;
    dataset.train = makeImageFileSplit(std::move(trainPaths), std::move(trainLabels), files, dataset.report, "training");
    dataset.test = makeImageFileSplit(std::move(testPaths), std::move(testLabels), files, dataset.report, "test");
    finishImageFileDataset(dataset, files.format.background);
    return dataset;
}

} // namespace lbd
