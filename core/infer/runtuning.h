#pragma once
// Tuning a decision on the validation split, never on the test set: the tail penalty c of a
// tail-sensitive decision matrix, or the defer utility r. The caller then reports the test split
// at the tuned value (`lbd eval --tune`, the Decision lab). Torch-free interface over RunResults.
#include "core/infer/runresults.h"

#include <vector>

namespace lbd {

struct TailPenaltyCandidate {
    double penalty = 0.0;      // c of tail:c
    double accuracy = 0.0;     // validation
    double fhrCurveMean = 0.0; // validation
};

struct TunedTailPenalty {
    double penalty = 0.0;                       // the chosen c
    std::vector<TailPenaltyCandidate> candidates; // every c tried, in order
    double baselineAccuracy = 0.0;              // c = 0 (one-hot) on validation
    double maxAccuracyLoss = 0.0;               // the budget, as a fraction
};

// The default grid of c.
const std::vector<double>& defaultTailPenalties();

// The c with the lowest validation FHR curve mean among those whose validation accuracy is at
// most `maxAccuracyLoss` (a fraction, 0.01 = one point) below c = 0's; ties go to the smaller c.
// `validation` must hold the validation split (InputError otherwise).
TunedTailPenalty tuneTailPenalty(const RunResults& validation, DecisionRule rule, double maxAccuracyLoss,
                                 const std::vector<double>& penalties = defaultTailPenalties());

struct TunedDeferUtility {
    double deferUtility = 0.0; // r
    double coverage = 0.0;     // validation coverage reached at r
    double selectiveAccuracy = 0.0;
};

// The largest r whose validation coverage is at least `coverage` (in (0, 1]) under `utility` and
// `rule` (one that supports defer).
TunedDeferUtility tuneDeferUtility(const RunResults& validation, const UtilityMatrix& utility, DecisionRule rule,
                                   double coverage);

} // namespace lbd
