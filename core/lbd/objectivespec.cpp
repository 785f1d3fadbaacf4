#include "core/lbd/objectivespec.h"

#include "core/util/error.h"

#include <cmath>
#include <sstream>

namespace lbd {

namespace {

std::string numberText(double value)
{
    std::ostringstream out;
    out.precision(17);
    out << value;
    return out.str();
}

// The comparisons are written so that NaN fails them.
void requirePositiveFinite(double value, const char* field)
{
    if (!(std::isfinite(value) && value > 0.0)) {
        throw InputError(std::string("objective option '") + field
                         + "' must be a positive finite number (got " + numberText(value) + ")");
    }
}

} // namespace

void ObjectiveSpec::validate() const
{
    discrepancy.validate();
    if (drwEpoch < 0) {
        throw InputError("objective option 'drwEpoch' must be 0 or more (got " + std::to_string(drwEpoch) + ")");
    }
    requirePositiveFinite(maxMargin, "maxMargin");
    requirePositiveFinite(scale, "scale");
    requirePositiveFinite(alpha, "alpha");
    requirePositiveFinite(tau, "tau");
    requirePositiveFinite(eps, "eps");
}

void ObjectiveSpec::validateFor(int64_t classCount) const
{
    validate();
    if (utilityMatrix.empty()) {
        return;
    }
    if (static_cast<int64_t>(utilityMatrix.size()) != classCount * classCount) {
        throw InputError("objective option 'utilityMatrix' has " + std::to_string(utilityMatrix.size())
                         + " entries; " + std::to_string(classCount) + " classes need "
                         + std::to_string(classCount * classCount) + " (C x C, row-major)");
    }
    for (size_t i = 0; i < utilityMatrix.size(); ++i) {
        if (!std::isfinite(utilityMatrix[i])) {
            const auto row = static_cast<int64_t>(i) / classCount;
            const auto column = static_cast<int64_t>(i) % classCount;
            throw InputError("objective option 'utilityMatrix' entry [" + std::to_string(row) + ", "
                             + std::to_string(column) + "] is not a finite number");
        }
    }
}

const std::vector<Baseline>& allBaselines()
{
    static const std::vector<Baseline> baselines = {
        Baseline::Lbd, Baseline::CrossEntropy, Baseline::ClassBalanced, Baseline::LdamDrw, Baseline::Ensemble,
    };
    return baselines;
}

std::string baselineName(Baseline baseline)
{
    switch (baseline) {
    case Baseline::Lbd: return "lbd";
    case Baseline::CrossEntropy: return "ce";
    case Baseline::ClassBalanced: return "cb";
    case Baseline::LdamDrw: return "ldam-drw";
    case Baseline::Ensemble: return "ensemble";
    }
    return "lbd";
}

std::string baselineTitle(Baseline baseline)
{
    switch (baseline) {
    case Baseline::Lbd: return "LBD";
    case Baseline::CrossEntropy: return "CE";
    case Baseline::ClassBalanced: return "CB loss";
    case Baseline::LdamDrw: return "LDAM-DRW";
    case Baseline::Ensemble: return "Ensemble";
    }
    return "LBD";
}

Baseline parseBaseline(const std::string& text)
{
    for (Baseline baseline : allBaselines()) {
        if (baselineName(baseline) == text) {
            return baseline;
        }
    }
    throw InputError("method '" + text + "' is not known (use lbd, ce, cb, ldam-drw or ensemble)");
}

BaselinePreset baselinePreset(Baseline baseline, int epochs)
{
    if (epochs < 1) {
        throw InputError("option 'epochs' must be 1 or more (got " + std::to_string(epochs) + ")");
    }
    // 80% of the epochs, as in the paper's 160 of 200 (integer arithmetic: no rounding surprises).
    const int deferredEpoch = epochs * 4 / 5;

    BaselinePreset preset;
    ObjectiveSpec& spec = preset.objective;
    switch (baseline) {
    case Baseline::Lbd:
        preset.particles = 3; // the paper uses 3 particles for every ensemble
        spec.drwEpoch = deferredEpoch;
        return preset;
    case Baseline::CrossEntropy:
        spec.discrepancy.kind = DiscrepancyKind::Constant;
        spec.drwEpoch = 0;
        spec.ldamMargins = false;
        spec.utility = false;
        spec.repulsive = false;
        return preset;
    case Baseline::ClassBalanced:
        spec.discrepancy.kind = DiscrepancyKind::EffectiveNumber;
        spec.drwEpoch = 0;
        spec.ldamMargins = false;
        spec.utility = false;
        spec.repulsive = false;
        return preset;
    case Baseline::LdamDrw:
        // Cao et al. re-weight with effective numbers (beta = 0.9999) after the DRW epoch.
        spec.discrepancy.kind = DiscrepancyKind::EffectiveNumber;
        spec.drwEpoch = deferredEpoch;
        spec.utility = false;
        spec.repulsive = false;
        return preset;
    case Baseline::Ensemble:
        preset.particles = 3;
        spec.discrepancy.kind = DiscrepancyKind::Constant;
        spec.drwEpoch = 0;
        spec.ldamMargins = false;
        spec.utility = false;
        spec.repulsive = false;
        return preset;
    }
    return preset;
}

} // namespace lbd
