#pragma once
// A run's ood.json (format lbd-ood-2): written atomically, and read back through ONE check of
// every value against what the writer can produce (counts equal to the model's particles,
// classes and stage widths, thresholds and scales finite, precisions finite, symmetric and
// positive definite, ...). A value out of range is an InputError naming the file and the field
// (exit 2 in `lbd`), never a NaN in a prediction. A file of the first format (fitted on training
// images) is refused with the command that refits it.
#include "core/eval/oodscore.h"
#include "core/util/atomicfile.h"

#include <string>

namespace lbd {

inline constexpr const char* kOodFitFormat = "lbd-ood-2";
// The size limit of ood.json: the one of every text input (README's Limits table).
inline constexpr int64_t kMaxOodFileBytes = kMaxTextFileBytes;

// Throws InputError "PATH: FIELD ..." when `fit` is not one fitOod could have written for a model
// of `shape`.
void checkOodFit(const OodFit& fit, const OodModelShape& shape, const std::string& path);

// Checked against the fit's own model (so that a NaN from a degenerate model is refused, not
// written), then written atomically.
void saveOodFit(const OodFit& fit, const std::string& path);

// Throws InputError naming the file and the field when it is missing, over its size limit,
// damaged, of the earlier format, or not this model's.
OodFit loadOodFit(const std::string& path, const OodModelShape& shape);

} // namespace lbd
