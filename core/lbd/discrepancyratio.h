#pragma once
// Discrepancy ratios w_c = 1 / f(n_c) (lbd-math.md section 4): how much one training image of
// class c counts in the loss. Torch-free, so the GUI can list the kinds and show their formulas.
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

enum class DiscrepancyKind {
    Linear,          // f(n) = n (the paper's default, best in its Table 5)
    EffectiveNumber, // f(n) = (1 - beta^n) / (1 - beta), rescaled so that sum_c w_c = C (Cui et al.)
    Sqrt,            // f(n) = sqrt(n)
    Log,             // f(n) = ln(n), as the published code; needs n >= 2 (ln 1 = 0)
    Constant,        // f(n) = 1: no re-weighting (plain cross-entropy)
    Power,           // f(n) = n^gamma
};

// How the weights are scaled. Their scale cancels in the weighted cross-entropy (divided by the
// batch's weight sum) but not in the utility term, which they multiply: `Published` keeps each
// ratio as lbd-math.md section 4 and the published code have it (only the effective number is
// rescaled, to sum to C: on Fashion-MNIST-LT its weights are then 239x the linear ones); `AsLinear`
// rescales every ratio so that its weights sum like the linear ratio's, so that a change of ratio
// does not also change the utility term's overall strength (linear itself is unchanged).
enum class RatioScale { Published, AsLinear };

struct DiscrepancySpec {
    DiscrepancyKind kind = DiscrepancyKind::Linear;
    RatioScale scale = RatioScale::Published;
    double beta = 0.9999; // effective number only; must lie in (0, 1)
    double gamma = 1.0;   // power only; any finite value

    // Checks every field, including those the kind does not use, so that a spec that
    // validates stays valid when the user switches the kind. Throws InputError naming the field.
    void validate() const;
};

// All kinds in the order the GUI lists them.
const std::vector<DiscrepancyKind>& allDiscrepancyKinds();
std::string discrepancyKindName(DiscrepancyKind kind);           // "linear", "effective", ...
DiscrepancyKind parseDiscrepancyKind(const std::string& text);   // throws InputError
std::string discrepancyFormula(DiscrepancyKind kind);            // "w_c = 1 / n_c" (tooltip text, ASCII)
const std::vector<RatioScale>& allRatioScales();
std::string ratioScaleName(RatioScale scale);                    // "published", "as-linear"
RatioScale parseRatioScale(const std::string& text);             // throws InputError

// w_c for every class, in class order. Throws InputError for an invalid spec, no classes,
// or a class with fewer than one training image.
std::vector<double> classWeights(const std::vector<int64_t>& trainCounts, const DiscrepancySpec& spec);

} // namespace lbd
