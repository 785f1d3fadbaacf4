#pragma once
// A verdict per claim of a study (studyclaims.h), paired by seed: for every seed at which both
// cells finished, d = metric(cell) - metric(against) from the two runs' report.json (same split,
// same training seed); then the mean of d, its sample standard deviation, the 95 % Student-t
// interval mean +- t(0.975, n - 1) sd / sqrt(n) and the verdict:
//   "holds"            the interval lies on the claimed side (above -margin for "higher", below
//                      +margin for "lower"),
//   "opposite"         it lies wholly on the other side,
//   "not detected"     it straddles the boundary,
//   "not enough seeds" fewer than 2 pairs.
// Pairing removes the split-to-split variation both cells share, so a paired interval is narrower
// than two cells' own intervals compared side by side. A decision-only cell (decisioncell.h)
// pairs by seed like any cell. Torch-free: the CLI, the tables and the Studies page use it.
#include "core/study/studyspec.h"

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <string>
#include <vector>

namespace lbd {

enum class ClaimOutcome { Holds, NotDetected, Opposite, NotEnoughSeeds };
std::string claimOutcomeName(ClaimOutcome outcome); // "holds", "not detected", "opposite", "not enough seeds"

struct ClaimVerdict {
    StudyClaim claim;
    std::vector<int64_t> seeds;      // the seeds both cells finished (with the metric), ascending
    std::vector<double> differences; // raw units (fractions for a % metric), one per seed
    int n = 0;
    double mean = 0, sd = 0, low = 0, high = 0; // raw units; NaN where n is too small
    ClaimOutcome outcome = ClaimOutcome::NotEnoughSeeds;
};

// The verdict from per-seed values of the two cells (seed -> raw metric value); seeds in only one
// map are left out, and so are values that are not finite.
ClaimVerdict pairedClaimVerdict(const StudyClaim& claim, const std::map<int64_t, double>& cell,
                                const std::map<int64_t, double>& against);

// Every claim of the study, from its finished runs in `studyDirectory` (runs/CELL/seed-N). A claim
// whose cell the study does not have (a user's study edited since) is left out.
std::vector<ClaimVerdict> studyClaimVerdicts(const ResolvedStudy& study, const std::string& studyDirectory);

nlohmann::json toJson(const std::vector<ClaimVerdict>& verdicts);
// "+7.72 [+5.10, +10.34]" in the metric's shown unit ("–" without pairs, no interval for n = 1).
std::string formatPairedEffect(const ClaimVerdict& verdict);
// "LBD vs CE, Tail acc. (higher)", the one-line name of the comparison.
std::string describeComparison(const StudyClaim& claim);
// The verdicts as a Markdown section ("## Claims ...") under a study's table; empty without claims.
std::string claimVerdictsMarkdown(const std::vector<ClaimVerdict>& verdicts);

} // namespace lbd
