#pragma once
// Writes a long-tailed data set of synthetic JPEG photographs in the ImageNet-LT list-file format
// (DIR/ImageNet_LT_train.txt, DIR/ImageNet_LT_test.txt and DIR/ImageNet_LT_val.txt with the same
// held-out images, "relative/path label" lines, the names the imagenet-lt preset reads), so that the whole ImageNet path (list files, decoding, crops, ResNet-50
// particles) can be tried and timed on a machine that has no ImageNet. Each class has its own
// colours and stripe frequencies, with noise per image, so that the classes can be learned.
#include <cstdint>
#include <string>

namespace lbd {

struct SyntheticListSpec {
    int64_t classes = 1000;
    int64_t maxPerClass = 320;    // training images of class 0; class c has maxPerClass * ratio^(-c/(C-1))
    double imbalanceRatio = 64;   // (at least 1 image a class)
    int64_t testPerClass = 20;
    int64_t width = 500;          // ImageNet's typical photograph
    int64_t height = 375;
    uint64_t seed = 0;
    int threads = 0;              // 0: every core
};

struct SyntheticListResult {
    int64_t trainImages = 0;
    int64_t testImages = 0;
    std::string trainList; // paths of the two list files
    std::string testList;
    std::string valList; // the same held-out images as testList (the imagenet-lt preset reads it)
};

// InputError when `directory` exists and is not empty (nothing is overwritten), when the spec is
// out of range, or when this build cannot write JPEG files; RunError when a file cannot be written.
SyntheticListResult writeSyntheticListData(const std::string& directory, const SyntheticListSpec& spec);

} // namespace lbd
