#pragma once
// The Mahalanobis part of the out-of-distribution caution, one feature space at a time (after Lee
// et al. 2018, without input perturbation): the class means and the shared covariance of one
// stage's pooled features, in one of two spaces (the features as they are, or their directions,
// L2-normalised, which is all a cosine classifier sees), the distance of an image to the nearest
// class mean, and the class-balanced threshold. Pure tensor functions: tests/core/test_oodspace.cpp
// checks them against a 2-D example computed by hand.
#include <torch/torch.h>

#include <cstdint>
#include <string>

namespace lbd {

struct OodSpace {
    int64_t stage = 0;         // which of the model's stage outputs (ParticleStageFeatures::stages)
    bool direction = false;    // on the features' directions, or on the features as they are
    torch::Tensor classMeans;  // double [M, K, D]
    torch::Tensor precision;   // double [M, D, D], inverse of the shared (shrunk) covariance
    double scale = 1.0;        // the distance that the pass rate of unseen images stays within

    std::string name() const;  // "stage 3, directions"
};

// The shared covariance is shrunk towards a multiple of the identity by this share of its mean
// variance: tail classes of 5 images and a feature dimension above the image count would
// otherwise leave it singular.
inline constexpr double kOodCovarianceShrinkage = 1e-3;

// A stage's features [M, N, D] in the space: double, L2-normalised along D when `direction`.
torch::Tensor oodSpaceFeatures(const torch::Tensor& stageFeatures, bool direction);

// Class means of every class in 0..classes-1 that `labels` holds (a class it lacks is taken from
// `meansOnly` / `meansOnlyLabels` when they hold it: training images of a class with no unseen
// image give its mean, never its spread), and the precision of the shared covariance: the mean
// of the classes' own covariances over the classes of `labels` (pooled over the images it would be
// the head classes' alone, and every tail image would look far). Features already in the space.
// Returns the classes that have a mean, ascending.
std::vector<int64_t> fitOodSpace(OodSpace& space, const torch::Tensor& features, const torch::Tensor& labels, int64_t classes,
                                 const torch::Tensor& meansOnly = {}, const torch::Tensor& meansOnlyLabels = {});

// Per image, the SMALLEST squared Mahalanobis distance to a class mean, (x - mu)^T P (x - mu),
// averaged over the particles: features [M, N, D] in the space -> [N] (not divided by scale).
torch::Tensor oodSpaceDistances(const OodSpace& space, const torch::Tensor& features);

// The smallest threshold t such that, averaged over the classes in `labels`, `passRate` of a
// class's images pass (score <= t). The fit's images may be long-tailed while test sets and the
// images users bring are not: a plain percentile would be set by the head classes.
double classBalancedThreshold(const torch::Tensor& scores, const torch::Tensor& labels, double passRate);

// The probability that an `outside` score is above an `inside` one (ties 1/2): the AUROC of
// "score > t flags it" ([N] and [K] scores, any order).
double scoreAuroc(const torch::Tensor& inside, const torch::Tensor& outside);

} // namespace lbd
