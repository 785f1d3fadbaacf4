#pragma once
// Post-hoc logit adjustment (Menon et al., ICLR 2021) as a decision preset "prior:<tau>": the
// expected-utility decision with the diagonal U = diag(1 / pi_y^tau), pi = the training class
// frequencies, so argmax_d pbar_d / pi_d^tau (the Bayes decision for the balanced error at
// tau = 1; tau = 0 is one-hot). The diagonal is scaled by (min pi)^tau, U_yy = (min pi / pi_y)^tau
// in (0, 1]: a positive scale leaves every decision unchanged and keeps U within the utility
// bounds however rare a class. Unlike "tail:<c>", the matrix needs the run's training counts, so
// it resolves where they are known (`lbd eval`, the Decision lab); the count-free parseUtilitySpec
// of utilitymatrix.h refuses it with a message that says so. Implemented in utilitymatrixio.cpp.
#include "core/lbd/utilitymatrix.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lbd {

inline constexpr double kMaxPriorTau = 10.0;

// Whether a utility spec names the prior preset ("prior:<anything>", any case, blanks around),
// valid or not: where it meets a rule, eq7 is refused before the tau is read (decisionrule.h).
bool isPriorUtilitySpec(const std::string& spec);

// "prior:0.5"; priorTauOf("prior:0.5") == 0.5, nothing for other text or tau outside [0, 10].
std::string priorSpec(double tau);
std::optional<double> priorTauOf(const std::string& spec);

// diag((min pi / pi_y)^tau); InputError when a class has no training image (pi_y = 0) or tau is
// outside [0, kMaxPriorTau].
UtilityMatrix priorAdjusted(const std::vector<int64_t>& trainCounts, double tau);

// parseUtilitySpec of utilitymatrix.h, plus "prior:<tau>" built from `trainCounts` (the classes'
// training counts in classNames' order).
UtilityMatrix parseUtilitySpec(const std::string& text, const std::vector<std::string>& classNames,
                               const std::vector<int64_t>& trainCounts);

} // namespace lbd
