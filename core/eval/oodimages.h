#pragma once
// Which images the out-of-distribution caution is fitted on (oodscore.h): images the network did
// not train on, so that the 95 % pass rate holds for new images (lbd-math.md section 9):
//   1. the run's validation split, when it has one;
//   2. else the training images held out for it before training (LongTailSpec::cautionHoldout: the
//      user's own data as given, which leaves no image out), a class too small to give any getting
//      its mean from its training images as below;
//   3. else a class-balanced sample (at most kOodImagesPerClass a class, evenly spaced) of the
//      images the long-tail resampling left out (Fashion-MNIST-LT keeps 14,886 of 60,000: the
//      other 45,114 are the pool); a class with none left out (the head class keeps all its
//      images) gets its mean from its training images and takes no part in the spread or the
//      threshold;
//   4. else (the data as given, no validation split, none held out) the training images, with a note that the
//      caution then cautions more than it should.
// The rows used are written to ood.json (OodHeldOut).
#include "core/data/datapreparation.h"
#include "core/eval/oodscore.h"

namespace lbd {

// Unseen images per class at most (fewer when kMaxOodFitImages would be exceeded).
inline constexpr int64_t kOodImagesPerClass = 1000;

inline constexpr const char* kOodSourceValidation = "validation split";
inline constexpr const char* kOodSourceCautionHoldout = "images held out for the caution";
inline constexpr const char* kOodSourceLeftOut = "images the long-tail resampling left out";
inline constexpr const char* kOodSourceTraining = "training images";

// `spec` re-reads the data set's whole training split when the pool of left-out images is needed
// (it is not kept in `data` unless streamed).
OodImages chooseOodImages(const PreparedData& data, const DataSpec& spec);

} // namespace lbd
