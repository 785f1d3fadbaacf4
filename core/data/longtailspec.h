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
    // Share of each class's training images held out for the out-of-distribution caution
    // (core/eval/oodimages.h) when the run has no validation split and the long tail leaves fewer
    // than kMinCautionHoldoutImages images out (the user's own data as given): the caution's
    // threshold must be set on images the network did not train on. cautionHoldoutCount() says
    // how many a class gives. 0: none (the caution then falls back to training images).
    double cautionHoldout = 0.05;

    void validate() const; // throws InputError naming imbalance_ratio / val_fraction / caution_holdout
};

// The caution hold-out per class: cautionHoldout x the class's images rounded, at least
// kCautionHoldoutMinPerClass and at most kCautionHoldoutMaxPerClass, never leaving the class fewer
// than kCautionHoldoutMinTraining training images (a class too small gives none). Fewer than
// kMinCautionHoldoutImages in all (too few to fit the caution, oodscore.h's kMinOodImages) holds
// out none.
inline constexpr int64_t kCautionHoldoutMinPerClass = 2;
inline constexpr int64_t kCautionHoldoutMaxPerClass = 50;
inline constexpr int64_t kCautionHoldoutMinTraining = 5;
inline constexpr int64_t kMinCautionHoldoutImages = 20;
int64_t cautionHoldoutCount(int64_t classImages, double fraction);

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
