#include "core/lbd/discrepancyratio.h"

#include "core/util/error.h"
#include "core/util/namedchoice.h"
#include "core/util/numbertext.h"

#include <cmath>

namespace lbd {

void DiscrepancySpec::validate() const
{
    // Written as !(inside) so that NaN fails too.
    if (!(beta > 0.0 && beta < 1.0)) {
        throw InputError("discrepancy option 'beta' must lie strictly between 0 and 1 (got "
                         + numberText(beta) + ")");
    }
    if (!std::isfinite(gamma)) {
        throw InputError("discrepancy option 'gamma' must be a finite number (got " + numberText(gamma) + ")");
    }
}

const std::vector<DiscrepancyKind>& allDiscrepancyKinds()
{
    static const std::vector<DiscrepancyKind> kinds = {
        DiscrepancyKind::Linear, DiscrepancyKind::EffectiveNumber, DiscrepancyKind::Sqrt,
        DiscrepancyKind::Log,    DiscrepancyKind::Constant,        DiscrepancyKind::Power,
    };
    return kinds;
}

std::string discrepancyKindName(DiscrepancyKind kind)
{
    switch (kind) {
    case DiscrepancyKind::Linear: return "linear";
    case DiscrepancyKind::EffectiveNumber: return "effective";
    case DiscrepancyKind::Sqrt: return "sqrt";
    case DiscrepancyKind::Log: return "log";
    case DiscrepancyKind::Constant: return "constant";
    case DiscrepancyKind::Power: return "power";
    }
    return "linear";
}

DiscrepancyKind parseDiscrepancyKind(const std::string& text)
{
    return parseNamedChoice(text, allDiscrepancyKinds(), discrepancyKindName, "discrepancy ratio");
}

const std::vector<RatioScale>& allRatioScales()
{
    static const std::vector<RatioScale> scales = {RatioScale::Published, RatioScale::AsLinear};
    return scales;
}

std::string ratioScaleName(RatioScale scale)
{
    return scale == RatioScale::AsLinear ? "as-linear" : "published";
}

RatioScale parseRatioScale(const std::string& text)
{
    return parseNamedChoice(text, allRatioScales(), ratioScaleName, "ratio scale");
}

std::string discrepancyFormula(DiscrepancyKind kind)
{
    switch (kind) {
    case DiscrepancyKind::Linear: return "w_c = 1 / n_c";
    case DiscrepancyKind::EffectiveNumber:
        return "w_c = (1 - beta) / (1 - beta^n_c), rescaled so that the weights sum to C";
    case DiscrepancyKind::Sqrt: return "w_c = 1 / sqrt(n_c)";
    case DiscrepancyKind::Log: return "w_c = 1 / ln(n_c)";
    case DiscrepancyKind::Constant: return "w_c = 1";
    case DiscrepancyKind::Power: return "w_c = 1 / n_c^gamma";
    }
    return {};
}

std::vector<double> classWeights(const std::vector<int64_t>& trainCounts, const DiscrepancySpec& spec)
{
    spec.validate();
    if (trainCounts.empty()) {
        throw InputError("discrepancy ratio: 'trainCounts' is empty (no classes)");
    }
    for (size_t c = 0; c < trainCounts.size(); ++c) {
        if (trainCounts[c] < 1) {
            throw InputError("discrepancy ratio: 'trainCounts' of class " + std::to_string(c)
                             + " is " + std::to_string(trainCounts[c])
                             + "; every class needs at least one training image");
        }
    }

    if (spec.kind == DiscrepancyKind::Log) {
        for (size_t c = 0; c < trainCounts.size(); ++c) {
            if (trainCounts[c] < 2) {
                throw InputError("discrepancy ratio 'log' (w_c = 1 / ln n_c) needs at least 2 training images per class; "
                                 "class " + std::to_string(c) + " has " + std::to_string(trainCounts[c])
                                 + " (ln 1 = 0): use sqrt or linear, or a smaller imbalance ratio");
            }
        }
    }
    std::vector<double> weights(trainCounts.size());
    for (size_t c = 0; c < trainCounts.size(); ++c) {
        const auto n = static_cast<double>(trainCounts[c]);
        switch (spec.kind) {
        case DiscrepancyKind::Linear: weights[c] = 1.0 / n; break;
        case DiscrepancyKind::EffectiveNumber:
            // 1 - beta^n as -expm1(n ln beta): beta^n is close to 1 for small n and beta near 1,
            // where the plain difference loses most of its digits.
            weights[c] = (1.0 - spec.beta) / -std::expm1(n * std::log(spec.beta));
            break;
        case DiscrepancyKind::Sqrt: weights[c] = 1.0 / std::sqrt(n); break;
        // ln(n), as the published code: a one-image class would get an infinite weight, so it
        // is refused before the loop (below).
        case DiscrepancyKind::Log: weights[c] = 1.0 / std::log(n); break;
        case DiscrepancyKind::Constant: weights[c] = 1.0; break;
        case DiscrepancyKind::Power: weights[c] = std::pow(n, -spec.gamma); break;
        }
    }

    if (spec.kind == DiscrepancyKind::EffectiveNumber) {
        // Cui et al. normalise so that the weights sum to the number of classes; only this kind
        // is rescaled, as in the published code (the utility term's size depends on it).
        double sum = 0.0;
        for (double w : weights) {
            sum += w;
        }
        for (double& w : weights) {
            w *= static_cast<double>(weights.size()) / sum;
        }
    }
    if (spec.scale == RatioScale::AsLinear) {
        double sum = 0.0, linearSum = 0.0;
        for (size_t c = 0; c < weights.size(); ++c) {
            sum += weights[c];
            linearSum += 1.0 / static_cast<double>(trainCounts[c]);
        }
        for (double& w : weights) {
            w *= linearSum / sum;
        }
    }
    for (size_t c = 0; c < weights.size(); ++c) {
        if (!std::isfinite(weights[c]) || weights[c] <= 0.0) {
            // A large gamma can underflow n^-gamma to 0 or overflow it; the loss would be useless.
            throw InputError("discrepancy ratio: the weight of class " + std::to_string(c) + " is "
                             + numberText(weights[c]) + "; choose a smaller 'gamma'");
        }
    }
    return weights;
}

} // namespace lbd
