#pragma once
// An out-of-distribution caution for a trained particle ensemble: a score that is high for images
// unlike the run's own, fitted on images the network did NOT train on (oodimages.h says which:
// the validation split, a class-balanced sample of the images the long-tail resampling left out,
// or a held-out share of a user's folder; training images only as a last resort, said so), because
// a converged network's training features collapse and a threshold set on them cautions far more
// than 5 % of new images (lbd-math.md section 9). Two scores, both measured (docs/results/ood.md):
//   mahalanobis: the feature ensemble of Lee et al. 2018 (without input perturbation): for each
//                chosen (stage, space) pair, per particle the smallest squared Mahalanobis distance
//                of the stage's pooled features to a class mean under one covariance shared by the
//                classes (oodspace.h), averaged over the particles and divided by its own 95 %
//                value; the score is the largest of them. The pairs are chosen greedily on the
//                fit's own images against synthetic corruptions of them (oodcorruptions.h), never
//                on a foreign data set;
//   energy:      -logsumexp of the particles' mean logits (Liu et al. 2020).
// The class statistics are fitted on half of the unseen images and the scales, the choice and the
// threshold taken on the other half. The threshold is class-balanced: on average over the
// classes, 95 % of a class's images pass. Stored as the run folder's ood.json (oodfitfile.h).
#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/data/augmentation.h"
#include "core/data/augmentspec.h"
#include "core/data/dataset.h"
#include "core/eval/oodspace.h"
#include "core/model/particlemodel.h"

namespace lbd {

enum class OodMethod { Mahalanobis, Energy };

std::string oodMethodName(OodMethod method); // "mahalanobis", "energy"
OodMethod parseOodMethod(const std::string& name, const std::string& source); // InputError naming `source`

inline constexpr OodMethod kDefaultOodMethod = OodMethod::Mahalanobis;

// The share of in-distribution images that pass (score <= threshold).
inline constexpr double kOodPassRate = 0.95;
// At most this many unseen images are scored for a fit.
inline constexpr int64_t kMaxOodFitImages = 20000;
// Fewer images than this cannot give a meaningful 95th percentile on the threshold half.
inline constexpr int64_t kMinOodImages = 20;
// Mahalanobis statistics are kept only for stages of at most this many features: beyond it the
// shared covariance of every particle would not be a small file (D = 2048 for ResNet-50's last
// stage: 50 MB). A model with no such stage uses the energy score.
inline constexpr int64_t kMaxOodMahalanobisDim = 512;
// The numbers (means and precisions) ood.json may hold, kept well inside the JSON value limit
// (kMaxJsonValues) and, at ~14 characters each, inside the file size limit (kMaxOodFileBytes).
inline constexpr int64_t kMaxOodFitNumbers = 3'000'000;

inline constexpr const char* kOodFitFile = "ood.json";

struct OodFeatures {
    std::vector<torch::Tensor> stages; // float [M, N, D_s] on the CPU, ParticleStageFeatures' order
    torch::Tensor logits;              // float [M, N, C] on the CPU
    torch::Tensor labels;              // int64 [N]

    int64_t size() const { return labels.defined() ? labels.size(0) : 0; }
    OodFeatures rows(const torch::Tensor& indices) const;
};

// Where the fit's images came from, written to ood.json so that a reader can tell.
struct OodHeldOut {
    std::string source;                     // "validation split", "images the long-tail resampling left out", ...
    std::string note;                       // why this source (a fallback says what it costs); may be empty
    std::vector<int64_t> perClass;          // unseen images per class
    std::vector<int64_t> trainingRows;      // rows of the data set's training split used, ascending (empty: the validation split)
    std::vector<int64_t> meansFromTraining; // classes without an unseen image: their mean from training images
};

// How the spaces were chosen: the greedy path, each step's (stage, space) and the criterion after it.
struct OodSelection {
    std::vector<std::string> corruptions; // empty: no choice made, the last stage's two spaces
    std::vector<std::string> steps;
    std::vector<double> criterion; // mean AUROC of unseen images against their corruptions
};

// What a fit must match to be this model's: checked when ood.json is read (oodfitfile.h).
struct OodModelShape {
    int64_t particles = 0;
    int64_t classes = 0;
    std::vector<int64_t> stageDims; // ParticleModelImpl::stageFeatureDims()
};

struct OodFit {
    OodModelShape model;                  // the model the features came from
    OodMethod method = kDefaultOodMethod; // the score the caution uses
    std::string source;                   // heldOut.source, said in every prediction
    OodHeldOut heldOut;
    int64_t images = 0;                   // unseen images scored (fit + threshold halves)
    int checkpointEpoch = 0;              // the checkpoint the features came from
    double passRate = kOodPassRate;       // class-balanced
    double energyThreshold = 0.0;
    double mahalanobisThreshold = 0.0;
    std::vector<OodSpace> spaces;         // the chosen (stage, space) pairs; empty: energy only
    OodSelection selection;
    std::string created;                  // ISO 8601 UTC

    bool hasMahalanobis() const { return !spaces.empty(); }
    double threshold() const { return method == OodMethod::Mahalanobis ? mahalanobisThreshold : energyThreshold; }
};

OodModelShape oodModelShape(const ParticleModelImpl& model);

// Evaluation-mode stage features and logits of a whole split (no augmentation, file order).
// Restores the model's training mode afterwards.
OodFeatures collectOodFeatures(ParticleModel& model, const DataSplit& split, const ImageFormat& format,
                               const torch::Device& device, const AugmentSpec& augment,
                               const Normalization& normalization);

struct OodFitInput {
    OodFeatures unseen;    // labelled images the network did not train on
    OodFeatures meansOnly; // training images of classes `unseen` lacks (their means only); may be empty
    std::vector<std::pair<std::string, OodFeatures>> corruptions; // for the choice of spaces; empty: no choice
    OodHeldOut heldOut;
    int checkpointEpoch = 0;
};

// Fits both scores. Throws InputError when `unseen` holds fewer than kMinOodImages images.
OodFit fitOod(const OodFitInput& input);

struct OodImages {
    DataSplit unseen;
    DataSplit meansOnly;
    OodHeldOut heldOut;
};

// Features of the images (and of synthetic corruptions of the unseen ones, when they are in
// memory), then the fit.
OodFit fitOodOnImages(ParticleModel& model, const OodImages& images, const ImageFormat& format, const torch::Device& device,
                      const AugmentSpec& augment, const Normalization& normalization, int checkpointEpoch);

// Scores, higher = less like the in-distribution images: [N].
torch::Tensor energyScores(const torch::Tensor& logits); // logits [M, N, C]
torch::Tensor mahalanobisScores(const OodFit& fit, const std::vector<torch::Tensor>& stages); // needs fit.hasMahalanobis()
torch::Tensor oodScores(const OodFit& fit, OodMethod method, const OodFeatures& features);

} // namespace lbd
