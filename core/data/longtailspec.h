#pragma once
// The torch-free part of long-tailed splits (lbd-math.md section 1): the profile, ratio and seed
// a run's config names, and the per-class target counts. The GUI's experiment panel edits and
// previews these without pulling in torch; longtail.h adds the split itself.
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

enum class LongTailProfile {
    None,        // the data as given: every class keeps all its images (a user's own folder or list)
    Exponential, // Cui et al.: n_c = int(n_max * (1/rho)^(c/(C-1)))
    Step,        // Cao et al.: the first floor(C/2) keep n_max, the rest n_max/rho
    Published,   // the published code's split: n_c = int(n_max * exp(-c / ds) + 0.5) + 1, ds = C / ln rho
};

struct LongTailSpec {
    LongTailProfile profile = LongTailProfile::Exponential;
    double imbalanceRatio = 100.0; // n_max / n_min; 1 keeps the data set as it is; ignored by None
    uint64_t seed = 0;
    // Share of each class's long-tailed training images held out as a validation split (seeded,
    // per class, at least one image per class when > 0, never the last training image). 0: none.
    double validationFraction = 0.0;

    void validate() const; // throws InputError naming imbalance_ratio / val_fraction
};

std::string profileName(LongTailProfile profile); // "none", "exp", "step", "lbd-published"
LongTailProfile parseProfile(const std::string& text);
// One sentence per profile, for tooltips and --help.
std::string profileDescription(LongTailProfile profile);
const std::vector<LongTailProfile>& allProfiles();

// True when the spec keeps every training image (profile None, or ratio 1), so that the counts
// used are the data set's own; false when it resamples to a long tail.
bool keepsEveryImage(const LongTailSpec& spec);

// Target images per class for `classCount` classes and n_max (lbd-math.md section 1), before
// they are capped at the images each class has.
std::vector<int64_t> longTailCounts(int64_t maxCount, int64_t classCount, const LongTailSpec& spec);

} // namespace lbd
