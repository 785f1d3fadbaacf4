#pragma once
// The classification of one image by a trained ensemble, as a plain value type for the GUI's
// Classify page and `lbd predict --json`. No torch here.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/eval/decisionrule.h"
#include "core/eval/imageuncertainty.h"

namespace lbd {

// The out-of-distribution check of one image (core/eval/oodscore.h): its score against the
// threshold that 95 % of the run's own images pass.
struct OodCheck {
    std::string method;   // "mahalanobis" or "energy"
    double score = 0.0;   // higher = less like the run's images
    double threshold = 0.0;
    bool caution = false; // score > threshold: the image is unlike what the run was trained on
    std::string fittedOn; // "training images" or "validation split"
    double passRate = 0.95;
};

struct Prediction {
    std::string source;                        // the file (or a label for pasted images)
    std::vector<double> meanProbabilities;     // pbar over the C classes
    std::vector<std::vector<double>> particleProbabilities; // [M][C]
    std::vector<std::pair<int64_t, double>> topK;           // (class, pbar) by decreasing pbar
    ImageUncertainty uncertainty;              // total / aleatoric / epistemic, votes
    int64_t argmaxClass = 0;                   // argmax pbar
    int64_t decidedClass = 0;                  // under the utility matrix and rule below (had it not deferred)
    DecisionRule rule = DecisionRule::Argmax;
    std::vector<double> decisionScores;        // of the rule, per class
    // The rule's confidence in its decision (max EU for expected, max pbar for argmax, pbar of
    // the decision otherwise): what the defer utility competes with.
    double decisionConfidence = 0.0;
    std::optional<double> deferUtility;        // r, when the defer option is on
    bool deferred = false;                     // decisionConfidence < r: refer the image to a person
    std::optional<std::string> warning;        // the rule's warning for this matrix (eq7 with negative utilities)
    // What was done to the image before the model saw it: "colour PNG 640x480, reduced to 28x28
    // grey (stretched: aspect ratio not kept), padded to 32x32".
    std::string inputDescription;
    // The pixels the model was given before normalisation and padding (decoded as a person sees the
    // file, composited, resized): inputChannels x inputHeight x inputWidth, channel-major. The
    // Classify page shows these, not the file.
    std::vector<uint8_t> inputPixels;
    int64_t inputChannels = 0;
    int64_t inputHeight = 0;
    int64_t inputWidth = 0;
    std::optional<OodCheck> ood; // nothing when the run has no usable fit: oodNote says why
    std::string oodNote;
};

} // namespace lbd
