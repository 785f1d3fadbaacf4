#pragma once
// LbdObjective: the training loss of lbd-math.md section 4 for one minibatch of M particles.
// It owns the per-class device tensors (weights, margins, U minus its diagonal), built once,
// and the epoch-dependent scalars (current weights, 1/alpha gate, a(e)), which setEpoch()
// rewrites in place: the loss path then has no host branches on the epoch and no host syncs,
// so a captured CUDA graph of the training step stays valid from one epoch to the next.
#include "core/lbd/objectivespec.h"
#include "core/lbd/objectivevalues.h"

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace lbd {

// The loss and its parts, as 0-dim tensors on the objective's device. `total` carries the
// autograd graph; the parts are there to be logged.
struct ObjectiveTerms {
    torch::Tensor total;         // L = weightedCe + utilityWeight * utility - annealWeight * repulsive
    torch::Tensor weightedCe;    // (1/M) sum_j CEw_j
    torch::Tensor particleCe;    // [M]: CEw_j of each particle
    torch::Tensor utility;       // (1/M) sum_j UT_j, before the 1/alpha factor (0 if inactive)
    torch::Tensor particleUtility; // [M]: UT_j of each particle (undefined if inactive)
    torch::Tensor utilityWeight; // 1/alpha while the utility term is applied this epoch, else 0
    torch::Tensor repulsive;     // R (0 without repulsion or with M = 1)
    torch::Tensor annealWeight;  // a(e) = exp(-e/tau), 0 without repulsion
};

// A rank's share of a data-parallel global batch (lbd-math.md section 8). classCounts: float [C]
// on the objective's device, the label counts of the whole global batch (every rank's share,
// all-reduced before the forward pass); ranks: how many ranks' gradients are then averaged.
// With it, compute() normalises the class-weighted cross-entropy by the GLOBAL batch's sum of
// weights and the utility term by its image count, times `ranks`: the mean of the ranks'
// objectives, and so of their gradients, is the one-process objective of the global batch
// (a per-rank normaliser is not, once the DRW weights differ between classes). The repulsive
// term depends on the parameters alone and is the same on every rank.
struct GlobalBatch {
    torch::Tensor classCounts;
    int ranks = 1;
};

class LbdObjective {
public:
    // Validates the spec against the class count (InputError naming the field) and builds the
    // per-class tensors on `device`. Starts at epoch 1.
    LbdObjective(ObjectiveSpec spec, std::vector<int64_t> trainCounts, torch::Device device);

    // Epochs are 1-based. Refills the epoch-dependent device tensors in place (no new storage).
    void setEpoch(int epoch);
    int epoch() const { return m_epoch; }

    // One minibatch. logits: [M, B, C] cosine logits (already scaled by s, no margin);
    // labels: [B] int64; classifierWeights: [M, C, D] (or any [M, ...]) particle-specific
    // classifier weights, used only for the repulsive term (may be undefined when M = 1 or
    // repulsion is off). Reduced-precision logits are promoted to float32. Labels are not
    // range-checked here (that would need a host sync). global: this batch is a rank's share of
    // that global batch (nullptr: the batch is the whole batch).
    ObjectiveTerms compute(const torch::Tensor& logits, const torch::Tensor& labels,
                           const torch::Tensor& classifierWeights = {}, const GlobalBatch* global = nullptr) const;

    // The logits the losses see: the true-class logit lowered by s * m_y (unchanged without
    // margins). Training only; evaluation uses the raw logits.
    torch::Tensor marginAdjusted(const torch::Tensor& logits, const torch::Tensor& labels) const;
    // marginAdjusted plus the logit adjustment tau * log pi_k on every class k (unchanged
    // without it): what the cross-entropy and the utility term take the softmax of. Training
    // only; evaluation and decisions use the raw logits (Menon et al. and Ren et al. predict
    // with the plain ones).
    torch::Tensor lossLogits(const torch::Tensor& logits, const torch::Tensor& labels) const;

    // Reads the parts back to the host with a single device-to-host copy (one sync).
    static ObjectiveValues values(const ObjectiveTerms& terms);
    // The six scalars of ObjectiveValues as one double tensor on the terms' device (no sync), so
    // that a caller can sum them over an epoch on the device and unpack once.
    static torch::Tensor pack(const ObjectiveTerms& terms);
    static ObjectiveValues unpack(const torch::Tensor& packed); // waits for the device

    const ObjectiveSpec& spec() const { return m_spec; }
    int64_t classCount() const { return m_classCount; }
    bool marginsActive() const { return m_spec.ldamMargins; }
    // The utility switch is on and U has a non-zero off-diagonal entry.
    bool utilityActive() const { return m_utilityActive; }
    // The objective minus the repulsive part can never go below 0 (bounded form or no utility
    // term): a value below that bound is a bug or a numerical failure, not learning.
    bool boundedBelow() const { return !m_utilityActive || m_spec.utilityForm == UtilityForm::Bounded; }
    bool repulsionActive() const { return m_spec.repulsive; }

    const std::vector<double>& classWeightValues() const { return m_classWeightValues; } // w_c after DRW
    const std::vector<double>& marginValues() const { return m_marginValues; }           // m_c (0 without margins)
    // tau * log(n_c / N), added to every logit while training (0 without logit adjustment).
    const std::vector<double>& logitAdjustmentValues() const { return m_logitAdjustmentValues; }
    torch::Tensor currentWeights() const { return m_currentWeights; } // [C], this epoch's weights

private:
    torch::Tensor repulsiveTerm(const torch::Tensor& classifierWeights, int64_t particles) const;

    ObjectiveSpec m_spec;
    std::vector<int64_t> m_trainCounts;
    torch::Device m_device;
    int64_t m_classCount = 0;
    int m_epoch = 1;
    bool m_utilityActive = false;
    std::vector<double> m_classWeightValues;
    std::vector<double> m_marginValues;
    std::vector<double> m_logitAdjustmentValues;

    // Built once.
    torch::Tensor m_deferredWeights; // [C] w_c
    torch::Tensor m_unitWeights;     // [C] ones
    torch::Tensor m_marginRows;      // [C, C] diag(s * m_c): row y is what a label-y sample loses
    torch::Tensor m_logitAdjustment; // [C] tau * log pi_c (undefined without logit adjustment)
    torch::Tensor m_utilityOff;      // [C, C] U minus its diagonal (undefined when inactive)
    torch::Tensor m_utilityPenalty;  // [C, C] max(-U_off, 0): bounded form only
    torch::Tensor m_utilityReward;   // [C, C] max(U_off, 0): bounded form only
    torch::Tensor m_zero;            // 0-dim 0, stands in for inactive terms

    // Rewritten in place by setEpoch().
    torch::Tensor m_currentWeights; // [C] ones up to drwEpoch, w_c after
    torch::Tensor m_utilityWeight;  // 0-dim: 1/alpha or 0
    torch::Tensor m_annealWeight;   // 0-dim: exp(-e/tau) or 0
};

} // namespace lbd
