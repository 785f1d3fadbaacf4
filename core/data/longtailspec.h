#pragma once
// The torch-free part of long-tailed splits (lbd-math.md section 1): the profile, ratio and seed
// a run's config names, and the per-class target counts. The GUI's experiment panel edits and
// previews these without pulling in torch; longtail.h adds the split itself.
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

enum class LongTailProfile { Exponential, Step };

struct LongTailSpec {
    LongTailProfile profile = LongTailProfile::Exponential;
    double imbalanceRatio = 100.0; // n_max / n_min; 1 keeps the data set as it is
    uint64_t seed = 0;

    void validate() const; // throws InputError naming imbalance_ratio
};

std::string profileName(LongTailProfile profile); // "exp", "step"
LongTailProfile parseProfile(const std::string& text);

// Target images per class for `classCount` classes and n_max: exponential
// n_c = int(n_max * (1/rho)^(c/(C-1))); step: the first floor(C/2) keep n_max, the rest n_max/rho.
std::vector<int64_t> longTailCounts(int64_t maxCount, int64_t classCount, const LongTailSpec& spec);

} // namespace lbd
