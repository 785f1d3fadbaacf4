#pragma once
// Every switch and number of the training objective (lbd-math.md section 4), plus the presets
// for the baselines the app offers. Torch-free: the GUI edits this struct directly.
#include "core/lbd/discrepancyratio.h"
#include "core/lbd/utilitysetting.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lbd {

inline constexpr double kMaxLogitAdjustTau = 10.0;

// How the utility term turns U into a loss (lbd-math.md section 4).
enum class UtilityForm {
    Bounded,   // negative learning: every term >= 0, so the objective is bounded below (default)
    Published, // the published loss.py: classes weighted by w_k; unbounded below with negative U
    Paper,     // the paper's Eq. 8: the whole bracket weighted by w_y; unbounded below, 4-6x stronger
};

const std::vector<UtilityForm>& allUtilityForms();
std::string utilityFormName(UtilityForm form);        // "bounded", "published", "paper"
UtilityForm parseUtilityForm(const std::string& text); // throws InputError
std::string utilityFormDescription(UtilityForm form);  // tooltip / --help text

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

    // Logit adjustment as a training loss (Menon et al., ICLR 2021, "logit-adjusted loss"): the
    // losses see z_k + tau * log pi_k, pi the training class priors n_k / N. At tau = 1 this is
    // Balanced Softmax (Ren et al., NeurIPS 2020: softmax of z_k + log n_k; the log N shift
    // cancels in the softmax). Training only: evaluation and decisions use the plain logits.
    bool logitAdjustment = false;
    double logitAdjustTau = 1.0; // [0, kMaxLogitAdjustTau]; 0 is plain cross-entropy
    // The cosine classifier's scale s (the logits the objective receives are already scaled).
    // Not a config key: the trainer copies model.scale here, so margins and logits agree.
    double scale = 30.0;

    // Utility term (1/alpha) * UT with the TRAINING utility matrix (the decision matrix is a
    // separate setting, DecisionSpec). Only applied where the matrix has a non-zero off-diagonal
    // entry (UT uses U minus its diagonal, so the diagonal never matters).
    bool utilityTerm = true;
    UtilitySetting utility;                       // "onehot", "tail:<c>", a file or a matrix by value
    UtilityForm utilityForm = UtilityForm::Bounded;
    double alpha = 0.3; // paper Table 8: 0.002 CIFAR-10-LT, 0.3 CIFAR-100-LT, 50 ImageNet-LT
    // `utility` resolved for the data set: C*C row-major, rows = true class t, columns = decision d
    // (lbd-math.md section 5). Filled by the trainer; empty means one-hot, i.e. no utility term.
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
    LogitAdjusted, // M = 1, cross-entropy of z + tau log pi (Menon et al. 2021), no weights, no margin
    BalancedSoftmax, // the same code at tau = 1 (Ren et al. 2020): softmax of z + log n_y
};

struct BaselinePreset {
    ObjectiveSpec objective;
    int particles = 1; // M
};

// What a method defines (lbd-math.md section 4, "Baselines"): the discrepancy kind, DRW epoch,
// margins, logit adjustment, the utility term and repulsion switches, and the particle count. Everything else of
// `objective` (alpha, tau, beta, the utility matrix and form, ...) is kept, so a preset's values
// survive `--baseline`; logitAdjustTau too, except that Balanced Softmax sets it to 1 (its
// definition). Throws InputError for epochs < 1.
void applyBaseline(Baseline baseline, int epochs, ObjectiveSpec& objective, int64_t& particles);

// The reason a training utility would make this objective unstable, or nothing: the published
// and paper forms are unbounded below when the matrix has a negative off-diagonal entry
// (measured: quick-cpu with tail:2 under `paper` at alpha 0.002 collapsed to 10 % accuracy).
std::optional<std::string> trainingUtilityWarning(const ObjectiveSpec& objective, const UtilityMatrix& utility);

// The reason this discrepancy ratio changes the utility term's strength, or nothing. The utility
// term is multiplied by the class weights w without normalisation (the weighted cross-entropy
// divides by their sum, so their scale cancels there), and only the effective-number weights
// are rescaled to sum to C: on Fashion-MNIST-LT they are 240-317x the linear ones, and that cell
// diverged at the DRW epoch in 5 of 5 seeds (the constant ratio's in 3 of 3) at the recipe's alpha
// (tuned with linear). Warns when the largest weight is over 4x (or under 1/4 of) the linear
// ratio's largest, with the factor.
std::optional<std::string> utilityScaleWarning(const ObjectiveSpec& objective, const UtilityMatrix& utility,
                                               const std::vector<int64_t>& trainCounts);

const std::vector<Baseline>& allBaselines();
// "lbd", "ce", "cb", "ldam-drw", "ensemble", "logit-adjusted", "balanced-softmax"
std::string baselineName(Baseline baseline);
// "LBD", "CE", "CB loss", "LDAM-DRW", "Ensemble", "Logit-adjusted loss", "Balanced Softmax"
std::string baselineTitle(Baseline baseline);
// One or two sentences with the paper it comes from: tooltips and --help.
std::string baselineDescription(Baseline baseline);
Baseline parseBaseline(const std::string& text);     // throws InputError
// The preset for a run of `epochs` epochs (DRW starts after 80% of them) on a default
// ObjectiveSpec. Throws InputError for epochs < 1.
BaselinePreset baselinePreset(Baseline baseline, int epochs = 200);

} // namespace lbd
