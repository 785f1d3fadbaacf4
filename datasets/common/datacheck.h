#pragma once
// A cheap check, before a run starts, that the training images can be learnt as they were read:
// identical images in different classes, classes whose images are all one image, images of one
// flat colour. An icon set whose transparency was once thrown away reached the model as the same
// black square in every class; the run then "diverged" and the advice blamed the learning rate.
// One pass over the decoded pixels (a hash per image); no torch.
#include <string>
#include <vector>

#include "datasets/common/rawdataset.h"

namespace lbd {

// A class is named when at least this share of its training images is flat or also in another class.
inline constexpr double kDoubtfulShare = 0.25;

// Warnings naming the classes (by name) whose training images cannot be learnt as read; empty when
// nothing is wrong or the split is streamed (not in memory: not checked).
std::vector<std::string> checkTrainingImages(const RawSplit& train, const ImageFormat& format,
                                             const std::vector<std::string>& classNames);

} // namespace lbd
