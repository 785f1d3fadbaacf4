#pragma once
// An out-of-distribution caution for a trained particle ensemble: a score that is high for images
// unlike the run's own, fitted on the run's in-distribution images (its validation split when it
// has one, else its training images). Two scores, both measured (docs/results/ood.md):
//   mahalanobis: per particle, the smallest squared Mahalanobis distance of the pooled
//                (penultimate) features to a class mean, under one covariance shared by the
//                classes (the mean of the classes' own, so that the head classes do not make
//                it), averaged over the particles (after Lee et al. 2018, without input
//                perturbation); measured both on the features' directions (L2-normalised: the
//                classifier is a cosine one) and on the features as they are, each in units of
//                its own 95 % value, and the larger of the two is the score;
//   energy:      -logsumexp of the particles' mean logits (Liu et al. 2020).
// The class statistics are fitted on half of the in-distribution images and the threshold is
// taken on the other half, so that the pass rate holds for images the fit did not see. The
// threshold is class-balanced: on average over the classes, 95 % of a class's images pass (the
// training images are long-tailed; test sets and users' images are not).
// Stored as the run folder's ood.json (written atomically, read with a size limit).
#include <torch/torch.h>

#include <cstdint>
#include <string>

#include "core/data/augmentation.h"
#include "core/data/augmentspec.h"
#include "core/data/dataset.h"
#include "core/model/particlemodel.h"

namespace lbd {

enum class OodMethod { Mahalanobis, Energy };

std::string oodMethodName(OodMethod method); // "mahalanobis", "energy"
OodMethod parseOodMethod(const std::string& name, const std::string& source); // InputError naming `source`

// The score the caution uses, chosen by its AUROC on Fashion-MNIST vs digits and noise
// (docs/results/ood.md).
inline constexpr OodMethod kDefaultOodMethod = OodMethod::Mahalanobis;

// The share of in-distribution images that pass (score <= threshold).
inline constexpr double kOodPassRate = 0.95;
// At most this many in-distribution images are scored for a fit (evenly spaced over the split).
inline constexpr int64_t kMaxOodFitImages = 20000;
// Mahalanobis statistics are kept only up to this feature dimension: beyond it the shared
// covariance of every particle would not be a small file (D = 2048 for ResNet-50: 50 MB). Such
// runs use the energy score.
inline constexpr int64_t kMaxOodMahalanobisDim = 512;

inline constexpr const char* kOodFitFile = "ood.json";

struct OodFeatures {
    torch::Tensor features; // float [M, N, D] on the CPU: the pooled features the classifier sees
    torch::Tensor logits;   // float [M, N, C] on the CPU
    torch::Tensor labels;   // int64 [N]
};

struct OodFit {
    OodMethod method = kDefaultOodMethod; // the score the caution uses
    std::string source;                   // "validation split" or "training images"
    int64_t images = 0;                   // in-distribution images scored (fit + threshold halves)
    int checkpointEpoch = 0;              // the checkpoint the features came from
    double passRate = kOodPassRate; // class-balanced
    double energyThreshold = 0.0;
    bool hasMahalanobis = false;
    double mahalanobisThreshold = 0.0;
    // The Mahalanobis distance is measured on the features' directions and on the features as
    // they are; the score is the larger of the two, each divided by its own scale.
    struct Space {
        torch::Tensor classMeans; // double [M, K, D], the K classes the fit half holds
        torch::Tensor precision;  // double [M, D, D], inverse of the shared (shrunk) covariance
        double scale = 1.0;       // the distance that 95 % of in-distribution images stay within
    };
    Space direction;
    Space raw;
    std::string created;      // ISO 8601 UTC

    double threshold() const { return method == OodMethod::Mahalanobis ? mahalanobisThreshold : energyThreshold; }
};

// Evaluation-mode features and logits of a whole split (no augmentation, file order). Restores the
// model's training mode afterwards.
OodFeatures collectOodFeatures(ParticleModel& model, const DataSplit& split, const ImageFormat& format,
                               const torch::Device& device, const AugmentSpec& augment,
                               const Normalization& normalization);

// Fits both scores on `inDistribution`. Throws InputError when it holds fewer than 20 images.
OodFit fitOod(const OodFeatures& inDistribution, const std::string& source, int checkpointEpoch);

// The whole fit for a split: at most kMaxOodFitImages of it (evenly spaced), features, fit.
OodFit fitOodOnSplit(ParticleModel& model, const DataSplit& split, const ImageFormat& format,
                     const torch::Device& device, const AugmentSpec& augment, const Normalization& normalization,
                     const std::string& source, int checkpointEpoch);

// Scores, higher = less like the in-distribution images. logits [M, N, C] -> [N];
// features [M, N, D] -> [N] (needs fit.hasMahalanobis).
torch::Tensor energyScores(const torch::Tensor& logits);
torch::Tensor mahalanobisScores(const OodFit& fit, const torch::Tensor& features);
torch::Tensor oodScores(const OodFit& fit, OodMethod method, const torch::Tensor& features, const torch::Tensor& logits);

// Written atomically to `path` (a run's RUN/ood.json).
void saveOodFit(const OodFit& fit, const std::string& path);
// Throws InputError naming the file when it is missing, over its size limit, damaged, or does
// not match a model of `particles` particles with `featureDim` features.
OodFit loadOodFit(const std::string& path, int64_t particles, int64_t featureDim);

} // namespace lbd
