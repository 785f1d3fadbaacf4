#pragma once
// Which data set to train on and how to make it long-tailed: the data part of a run's config.
// The data set options (name, location, image format, synthetic parameters, memory budget) are the
// readers' own (datasets/datasetoptions.h); this adds the long-tail settings. No torch here: the
// GUI's experiment panel edits this value type.
#include "core/data/longtailspec.h"
#include "datasets/datasetoptions.h"

#include <string>

namespace lbd {

struct DataSpec : DatasetOptions {
    LongTailSpec longTail;
    // Streamed image files (core/data/datasetcache.h): "off", or "auto" to read them from a dataset
    // cache, built on first use in cacheDirectory (empty: beside the runs folder).
    std::string cache = "off";
    std::string cacheDirectory;
    int64_t decodeThreads = 0; // threads decoding streamed images (0: every core)

    // Throws InputError naming the field: the data set must be in the catalogue, and the
    // settings its entry requires (data_dir, train_list, ...) must be given.
    void validate() const;

    // Image folders and list files: the user's own images, trained as they are (profile none)
    // unless a long tail is chosen explicitly; a preset's long tail was made for its own data set.
    bool isUsersOwnImages() const;
    // When isUsersOwnImages(): profile none (ratio 1), keeping the validation share and seed. A
    // preset's values are replaced by this where the user did not choose a long tail themselves.
    void useAsGiven();
    // A run name after the data when it is the user's own ("digits-folder" for .../digits,
    // "train-list" for train.txt); empty for the built-in data sets (their preset names the run).
    std::string runName() const;
};

} // namespace lbd
