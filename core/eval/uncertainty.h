#pragma once
// Uncertainty decomposition of particle predictions for a whole batch at once
// (lbd-math.md section 6), on the tensors' own device.
#include "core/eval/imageuncertainty.h"

#include <torch/torch.h>

namespace lbd {

// Shannon entropy (natural log) along the last dimension; 0 log 0 counts as 0.
torch::Tensor entropy(const torch::Tensor& probs);

struct UncertaintyBatch {
    torch::Tensor total;                   // [N]
    torch::Tensor aleatoric;               // [N]
    torch::Tensor epistemic;               // [N]
    torch::Tensor voteDisagreement;        // [N]
    torch::Tensor particleTop1;            // [M, N] int64
    torch::Tensor particleTop1Probability; // [M, N]

    int64_t size() const { return total.defined() ? total.size(0) : 0; }
    // Image n as a value type (copies to the CPU).
    ImageUncertainty image(int64_t n) const;
};

// particleProbs [M, N, C] (or [N, C] for one particle), float or double.
UncertaintyBatch computeUncertainty(const torch::Tensor& particleProbs);

} // namespace lbd
