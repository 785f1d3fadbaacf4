#include "core/data/dataspec.h"

#include "core/util/error.h"
#include "datasets/catalogue.h"

#include <cmath>

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
    if (channels != 1 && channels != 3) {
        throw InputError("channels must be 1 or 3, got " + std::to_string(channels));
    }
    if (imageSize < 8 || imageSize > 1024) {
        throw InputError("image_size must be in 8..1024, got " + std::to_string(imageSize));
    }
    if (!std::isfinite(heldOutFraction) || heldOutFraction <= 0.0 || heldOutFraction >= 1.0) {
        throw InputError("held_out_fraction must be in (0, 1), got " + std::to_string(heldOutFraction));
    }
}

} // namespace lbd
