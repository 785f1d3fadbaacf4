#include "core/data/dataspec.h"

#include "core/util/error.h"
#include "datasets/catalogue.h"

#include <cctype>
#include <cmath>
#include <filesystem>

namespace lbd {

void DataSpec::validate() const
{
    longTail.validate();
    const DatasetEntry& entry = datasetEntry(dataset);
    if (entry.requiresDirectory() && directory.empty()) {
        throw InputError("data_dir is required for the " + entry.name + " data set");
    }
    if (entry.settings.listFiles && (trainList.empty() || testList.empty())) {
        throw InputError("train_list and test_list are required for the " + entry.name + " data set");
    }
    if (!validationList.empty() && !entry.settings.listFiles) {
        throw InputError("val_list is for list data sets; use val_fraction to hold out validation images");
    }
    if (!validationList.empty() && longTail.validationFraction > 0.0) {
        throw InputError("val_list and val_fraction cannot both be set: choose one validation split");
    }
    if (channels != 0 && channels != 1 && channels != 3) {
        throw InputError("channels must be 0 (from the images), 1 or 3, got " + std::to_string(channels));
    }
    if (imageSize < 8 || imageSize > 1024) {
        throw InputError("image_size must be in 8..1024, got " + std::to_string(imageSize));
    }
    if (!std::isfinite(heldOutFraction) || heldOutFraction <= 0.0 || heldOutFraction >= 1.0) {
        throw InputError("held_out_fraction must be in (0, 1), got " + std::to_string(heldOutFraction));
    }
    if (cache != "off" && cache != "auto") {
        throw InputError("cache must be off or auto, got " + cache);
    }
    if (decodeThreads < 0 || decodeThreads > 1024) {
        throw InputError("decode_threads must be in 0..1024 (0: every core), got " + std::to_string(decodeThreads));
    }
}

bool DataSpec::isUsersOwnImages() const
{
    // The entries whose images are converted to channels x image_size: files of the user's own.
    const DatasetEntry* entry = findDataset(dataset);
    return entry != nullptr && entry->settings.imageFormat;
}

void DataSpec::useAsGiven()
{
    if (isUsersOwnImages()) {
        longTail.profile = LongTailProfile::None;
        longTail.imbalanceRatio = 1.0;
    }
}

std::string DataSpec::runName() const
{
    if (!isUsersOwnImages()) {
        return {};
    }
    const DatasetEntry& entry = datasetEntry(dataset);
    namespace fs = std::filesystem;
    // A folder is named by its last component ("digits/" too); a list by its file's stem.
    fs::path source = entry.settings.listFiles ? fs::path(trainList).stem() : fs::path(directory).lexically_normal();
    if (!entry.settings.listFiles && !source.has_filename()) {
        source = source.parent_path();
    }
    std::string name;
    for (const char c : (entry.settings.listFiles ? source : source.filename()).string()) {
        const bool plain = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
        name += plain ? c : '-';
    }
    return (name.empty() ? std::string("data") : name) + "-" + entry.name;
}

} // namespace lbd
