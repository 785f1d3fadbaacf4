// The names and checks of longtailspec.h, apart from longtail.cpp (which includes torch) so that
// the config parser links without torch (tools/fuzz/fuzz_configjson).
#include "core/data/longtailspec.h"

#include "core/util/error.h"
#include "core/util/namedchoice.h"

#include <algorithm>
#include <cmath>

namespace lbd {

void LongTailSpec::validate() const
{
    if (!std::isfinite(imbalanceRatio) || imbalanceRatio < 1.0 || imbalanceRatio > 1e6) {
        throw InputError("imbalance_ratio must be a number from 1 to 1e6 (n_max / n_min), got "
                         + std::to_string(imbalanceRatio));
    }
    if (!(validationFraction >= 0.0 && validationFraction < 0.9)) {
        throw InputError("val_fraction must be at least 0 and below 0.9, got " + std::to_string(validationFraction));
    }
    if (!(cautionHoldout >= 0.0 && cautionHoldout <= 0.5)) {
        throw InputError("caution_holdout must be from 0 to 0.5 (a share of each class's images), got "
                         + std::to_string(cautionHoldout));
    }
}

int64_t cautionHoldoutCount(int64_t classImages, double fraction)
{
    if (!(fraction > 0.0)) {
        return 0;
    }
    const int64_t share = std::llround(fraction * static_cast<double>(classImages));
    const int64_t held = std::min(std::clamp(share, kCautionHoldoutMinPerClass, kCautionHoldoutMaxPerClass),
                                  classImages - kCautionHoldoutMinTraining);
    return held >= kCautionHoldoutMinPerClass ? held : 0;
}

const std::vector<LongTailProfile>& allProfiles()
{
    static const std::vector<LongTailProfile> profiles = {LongTailProfile::None, LongTailProfile::Exponential,
                                                          LongTailProfile::Step, LongTailProfile::Published};
    return profiles;
}

std::string profileName(LongTailProfile profile)
{
    switch (profile) {
    case LongTailProfile::None: return "none";
    case LongTailProfile::Exponential: return "exp";
    case LongTailProfile::Step: return "step";
    case LongTailProfile::Published: return "lbd-published";
    }
    return "exp";
}

std::string profileDescription(LongTailProfile profile)
{
    switch (profile) {
    case LongTailProfile::None:
        return "none: the data as given, every image of every class kept (the default for your own folders and lists)";
    case LongTailProfile::Exponential:
        return "exponential (Cui et al.): n_c = int(n_max * (1/rho)^(c/(C-1))), the CIFAR-LT standard";
    case LongTailProfile::Step: return "step (Cao et al.): the first half of the classes keep n_max, the rest n_max/rho";
    case LongTailProfile::Published:
        return "lbd-published: the split behind the paper's CIFAR tables, n_c = int(n_max * exp(-c C^-1 ln rho) + 0.5) + "
               "1 (CIFAR-10 at rho 100 keeps 5000 ... 80, an effective ratio of 62.5)";
    }
    return {};
}

bool keepsEveryImage(const LongTailSpec& spec)
{
    return spec.profile == LongTailProfile::None || spec.imbalanceRatio == 1.0;
}

LongTailProfile parseProfile(const std::string& text)
{
    if (text == "exponential") {
        return LongTailProfile::Exponential;
    }
    return parseNamedChoice(text, allProfiles(), profileName, "profile");
}

} // namespace lbd
