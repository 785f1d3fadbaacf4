#pragma once
// Every switch and number of the training objective (lbd-math.md section 4), plus the presets
// for the baselines the app offers. Torch-free: the GUI edits this struct directly.
#include "core/lbd/discrepancyratio.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

struct ObjectiveSpec {
    // Re-weighting: w_c = 1 / f(n_c). Constant means no re-weighting.
    DiscrepancySpec discrepancy;
    // Deferred re-weighting: w = 1 for epochs <= drwEpoch (1-based), w_c after.
    // 0 applies w_c from the first epoch. Default: 80% of the paper's 200 epochs.
    int drwEpoch = 160;

    // LDAM margins: subtract scale * m_y from the true-class logit during training,
    // m_c proportional to n_c^(-1/4), the rarest class getting maxMargin.
    bool ldamMargins = true;
    double maxMargin = 0.5;
    // The cosine classifier's scale s (the logits the objective receives are already scaled).
    double scale = 30.0;

    // Utility term (1/alpha) * UT. Only applied where utilityMatrix has a non-zero
    // off-diagonal entry (UT uses U minus its diagonal, so the diagonal never matters).
    bool utility = true;
    double alpha = 0.3; // paper Table 8: 0.002 CIFAR-10-LT, 0.3 CIFAR-100-LT, 50 ImageNet-LT
    // C*C row-major, rows = true class t, columns = decision d (lbd-math.md section 5).
    // Empty means one-hot (U = I), i.e. no utility term.
    std::vector<double> utilityMatrix;
    // The published code only adds the utility term after the DRW epoch.
    bool utilityAfterDrwOnly = true;

    // Repulsive force a(e) * R with a(e) = exp(-e / tau); only with more than one particle.
    bool repulsive = true;
    double tau = 40.0; // paper Table 8: 40 CIFAR, 20 ImageNet-LT
    // R = (1/2) mean_k log(Var_k + eps). The paper and the published code have no eps; it only
    // keeps log finite when particles coincide (a copied checkpoint, a shared seed). 1e-8 is far
    // below the ~1e-3 variance of freshly initialised classifier weights, so it changes nothing
    // else, and it is still representable next to such variances in float32.
    double eps = 1e-8;

    // Checks the scalar fields, whether or not their switch is on (a valid spec stays valid when
    // the user flips a switch). Throws InputError naming the field.
    void validate() const;
    // validate() plus the fields that depend on the number of classes (the utility matrix size).
    void validateFor(int64_t classCount) const;
};

// Methods the app can train with the same engine (lbd-math.md section 4, "Baselines").
enum class Baseline {
    Lbd,           // the full objective
    CrossEntropy,  // M = 1, no weights, no margin, no utility, no repulsion
    ClassBalanced, // CB loss: effective-number weights from epoch 1, no margin
    LdamDrw,       // M = 1, LDAM margins + deferred (effective-number) re-weighting
    Ensemble,      // M > 1, plain cross-entropy, no repulsion
};

struct BaselinePreset {
    ObjectiveSpec objective;
    int particles = 1; // M
};

const std::vector<Baseline>& allBaselines();
std::string baselineName(Baseline baseline);         // "lbd", "ce", "cb", "ldam-drw", "ensemble"
std::string baselineTitle(Baseline baseline);        // "LBD", "CE", "CB loss", "LDAM-DRW", "Ensemble"
Baseline parseBaseline(const std::string& text);     // throws InputError
// The preset for a run of `epochs` epochs (DRW starts after 80% of them). Throws InputError
// for epochs < 1.
BaselinePreset baselinePreset(Baseline baseline, int epochs = 200);

} // namespace lbd
