#include "datasets/list/listfilereader.h"

#include "datasets/common/error.h"
#include "datasets/common/textfile.h"

#include <algorithm>
#include <filesystem>

namespace lbd {
namespace {

namespace fs = std::filesystem;

// Entries of one list file, checked line by line: ImageNet's 1.28 million fit; each entry costs
// some 230 bytes on its way through the split and the data set (a path kept twice, indices), so
// this bounds a list's memory at about half a GB whatever its text (64 MiB of short lines is 5.6
// million entries: 1.3 GB before this limit).
constexpr int64_t kMaxListEntries = 2'000'000;

struct ListEntries {
    std::vector<std::string> paths;
    std::vector<int64_t> labels;
};

ListEntries readList(const std::string& listPath, const fs::path& root, const ReadLimits& limits)
{
    ListEntries entries;
    int64_t lineNumber = 0;
    // Line by line from the text held once (no vector of every line beside the entries): a 62 MB
    // list of short lines peaked at 1.2 GB read through readTextLines.
    const std::string rootText = root.string();
    const std::string prefix = rootText.empty() || rootText.back() == '/' ? rootText : rootText + "/";
    const bool found = forEachTextLine(listPath, limits, [&](std::string_view lineView) {
        ++lineNumber;
        if (lineView.find_first_not_of(" \t") == std::string_view::npos || lineView[0] == '#') {
            return;
        }
        const std::string line(lineView);
        // The label is the last field, so paths may contain spaces.
        const auto split = line.find_last_of(" \t");
        const std::string where = listPath + ":" + std::to_string(lineNumber);
        if (split == std::string::npos) {
            throw InputError(where + ": expected 'relative/path label', found '" + line + "'");
        }
        std::string path = line.substr(0, split);
        path.erase(path.find_last_not_of(" \t") + 1);
        const std::string labelText = line.substr(split + 1);
        size_t used = 0;
        long long label = -1;
        try {
            label = std::stoll(labelText, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != labelText.size() || label < 0) {
            throw InputError(where + ": label '" + labelText + "' is not a non-negative integer");
        }
        // Checked here, line by line: the class count (and per-class arrays) follow the largest label.
        if (label >= limits.maxClasses) {
            throw InputError(where + ": label " + labelText + " is not below the limit of "
                             + std::to_string(limits.maxClasses) + " classes (maxClasses)");
        }
        if (static_cast<int64_t>(entries.paths.size()) >= kMaxListEntries) {
            throw InputError(where + ": more than 2,000,000 entries, the limit for one list file");
        }
        entries.paths.push_back(!path.empty() && path.front() == '/' ? path : prefix + path);
        entries.labels.push_back(label);
    });
    if (!found) {
        throw InputError(listPath + ": list file not found or unreadable");
    }
    if (entries.paths.empty()) {
        throw InputError(listPath + ": list file has no entries");
    }
    return entries;
}

} // namespace

RawDataset readListFiles(const std::string& imageRoot, const std::string& trainList, const std::string& testList,
                         const ListFileOptions& options)
{
    std::error_code ec;
    if (!fs::is_directory(imageRoot, ec)) {
        throw InputError(imageRoot + ": image root folder not found");
    }
    const auto resolve = [&](const std::string& list) {
        return fs::path(list).is_absolute() || fs::exists(list, ec) ? list : (fs::path(imageRoot) / list).string();
    };
    const ReadLimits& limits = options.files.limits;
    ListEntries train = readList(resolve(trainList), imageRoot, limits);
    ListEntries test = readList(resolve(testList), imageRoot, limits);
    ListEntries validation;
    if (!options.validationList.empty()) {
        validation = readList(resolve(options.validationList), imageRoot, limits);
    }
    int64_t classCount = 0;
    for (const auto label : train.labels) {
        classCount = std::max(classCount, label + 1);
    }
    for (const auto& [entries, list] : {std::pair{&test, &testList}, std::pair{&validation, &options.validationList}}) {
        for (size_t i = 0; i < entries->labels.size(); ++i) {
            if (entries->labels[i] >= classCount) {
                throw InputError(resolve(*list) + ": label " + std::to_string(entries->labels[i]) + " of " + entries->paths[i]
                                 + " is out of range (the training list has labels 0.." + std::to_string(classCount - 1) + ")");
            }
        }
    }
    RawDataset dataset;
    dataset.name = "list:" + fs::absolute(resolve(trainList), ec).lexically_normal().string();
    dataset.format = options.files.format;
    if (!options.classNamesFile.empty()) {
        std::optional<std::vector<std::string>> names = readNameLines(options.classNamesFile, limits);
        if (!names) {
            throw InputError(options.classNamesFile + ": class names file not found");
        }
        dataset.classNames = std::move(*names);
        if (static_cast<int64_t>(dataset.classNames.size()) != classCount) {
            throw InputError(options.classNamesFile + ": " + std::to_string(dataset.classNames.size())
                             + " class names for " + std::to_string(classCount) + " classes in the training list");
        }
    } else {
        dataset.classNames = numberedClassNames(classCount);
    }
    const std::vector<int64_t> trainCounts = countPerClass(train.labels, classCount);
    for (int64_t c = 0; c < classCount; ++c) {
        if (trainCounts[static_cast<size_t>(c)] == 0) {
            throw InputError(resolve(trainList) + ": class " + std::to_string(c) + " (" + dataset.classNames[c]
                             + ") has no training images");
        }
    }
    // Channels 0: grey when the training images are (the test and validation images follow them).
    ImageFileOptions files = options.files;
    files.format = resolvedImageFormat(files.format, train.paths, limits);
    dataset.format = files.format;
    dataset.train = makeImageFileSplit(std::move(train.paths), std::move(train.labels), files, dataset.report, "training");
    dataset.test = makeImageFileSplit(std::move(test.paths), std::move(test.labels), files, dataset.report, "test");
    if (!validation.paths.empty()) {
        dataset.validation = makeImageFileSplit(std::move(validation.paths), std::move(validation.labels), files, dataset.report,
                                                "validation");
    }
    finishImageFileDataset(dataset, files.format.background);
    return dataset;
}

} // namespace lbd
