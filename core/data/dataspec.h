#pragma once
// Which data set to train on and how to make it long-tailed: the data part of a run's config.
// The data set options (name, location, image format, synthetic parameters, memory budget) are the
// readers' own (datasets/datasetoptions.h); this adds the long-tail settings. No torch here: the
// GUI's experiment panel edits this value type.
#include "core/data/longtailspec.h"
#include "datasets/datasetoptions.h"

namespace lbd {

struct DataSpec : DatasetOptions {
    LongTailSpec longTail;

    // Throws InputError naming the field: the data set must be in the catalogue, and the
    // settings its entry requires (data_dir, train_list, ...) must be given.
    void validate() const;
};

} // namespace lbd
