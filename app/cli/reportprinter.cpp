#include "app/cli/reportprinter.h"
#include "core/eval/degeneracy.h"

#include <cstdio>

namespace lbd::cli {

namespace {
std::string percent(double value)
{
    char text[16];
    std::snprintf(text, sizeof text, "%6.2f%%", 100.0 * value);
    return text;
}

// An empty group has no accuracy: "–", never "0.00%".
std::string groupText(const GroupAccuracy& group)
{
    return (group.total > 0 ? percent(group.accuracy) : std::string("     –")) + " [" + std::to_string(group.total) + "]";
}
} // namespace

void printReport(std::ostream& out, const EvaluationReport& r, const std::vector<std::string>& classNames,
                 const std::string& title)
{
    out << title << " (rule: " << decisionRuleName(r.rule) << ", " << r.imageCount << " images, " << r.particleCount
        << " particle(s))\n";
    out << "  accuracy        " << percent(r.overall.accuracy) << "  (" << r.overall.correct << "/" << r.overall.total << ")\n";
    for (const auto* regions : {&r.regionsThirds, &r.regionsCounts}) {
        out << "  regions (" << (regions->scheme == RegionScheme::ThirdsByIndex ? "thirds" : "counts") << ")";
        for (const auto& region : regions->regions) {
            out << "  " << region.name << " " << groupText(region.counts);
        }
        out << '\n';
    }
    // The paper's table calls these points "tail ratio 25/50/75 %"; the published code makes the
    // HEAD the first int(C r + 0.5) classes. Say which classes are the head, not a bare percentage.
    out << "  false head rate";
    for (const auto& point : r.fhrPoints) {
        out << "  head = first " << point.split.headClasses << " of " << r.classCount << " (r " << point.ratio
            << "): " << percent(point.split.rate);
    }
    out << "\n                  (" << r.fhrConvention << ")\n";
    out << "  FHR means       of the three points " << percent(r.fhrPointsMean) << "   of the whole curve (k = 1.."
        << (r.classCount - 1) << ") " << percent(r.fhrCurveMean) << '\n';
    char line[400];
    std::snprintf(line, sizeof line, "  calibration     ECE %.4f (15 bins of pbar of the decision)  MCE %.4f  NLL %.4f",
                  r.calibration.ece, r.calibration.mce, r.nll);
    out << line;
    if (r.aurocConfidence) {
        std::snprintf(line, sizeof line, "  AUROC(conf) %.4f", *r.aurocConfidence);
        out << line;
    }
    if (r.aurocNegativeEntropy) {
        std::snprintf(line, sizeof line, "  AUROC(-entropy) %.4f", *r.aurocNegativeEntropy);
        out << line;
    }
    if (r.calibrationMetrics) {
        const CalibrationMetrics& m = *r.calibrationMetrics;
        std::snprintf(line, sizeof line, "\n                  ECE 95%% interval [%.4f, %.4f] (%lld bootstrap resamples, seed %llu)  "
                      "Brier %.4f  classwise ECE %.4f  adaptive ECE %.4f",
                      m.eceLow, m.eceHigh, static_cast<long long>(m.bootstrapResamples),
                      static_cast<unsigned long long>(m.bootstrapSeed), m.brier, m.classwiseEce, m.adaptiveEce);
        out << line;
    }
    if (r.temperature && r.uncalibrated) {
        // Before / after: the same images and decision rule, pbar and softmax(log pbar / T).
        const UncalibratedSummary& u = *r.uncalibrated;
        std::snprintf(line, sizeof line, "\n  temperature     T = %.4f (fitted on validation; calibrated pbar = softmax(log pbar / T))"
                      "\n    before / after  NLL %.4f / %.4f  ECE %.4f / %.4f  MCE %.4f / %.4f  accuracy %s / %s",
                      *r.temperature, u.nll, r.nll, u.ece, r.calibration.ece, u.mce, r.calibration.mce,
                      percent(u.accuracy).c_str(), percent(r.overall.accuracy).c_str());
        out << line;
        if (u.metrics && r.calibrationMetrics) {
            std::snprintf(line, sizeof line, "  Brier %.4f / %.4f  classwise ECE %.4f / %.4f  adaptive ECE %.4f / %.4f",
                          u.metrics->brier, r.calibrationMetrics->brier, u.metrics->classwiseEce,
                          r.calibrationMetrics->classwiseEce, u.metrics->adaptiveEce, r.calibrationMetrics->adaptiveEce);
            out << line;
        }
    }
    if (r.published) {
        // The published code's numbers, for comparing with the paper's tables (lbd-math.md section 6).
        std::snprintf(line, sizeof line, "\n  published code  accuracy (mean-logit) %s  ECE %.4f (10 bins of 1 - H(q), over all %lld images; %lld in no bin)",
                      percent(r.published->accuracy).c_str(), r.published->ece, static_cast<long long>(r.imageCount),
                      static_cast<long long>(r.published->unbinned));
        out << line;
        if (r.published->auroc) {
            std::snprintf(line, sizeof line, "  AUROC %.4f", *r.published->auroc);
            out << line;
        }
    }
    std::snprintf(line, sizeof line, "\n  risk-coverage   AURC %.4f (all)  %.4f (tail)\n", r.riskCoverage.aurc,
                  r.riskCoverageTail.aurc);
    out << line;
    if (r.defer) {
        const DeferReport& d = *r.defer;
        std::snprintf(line, sizeof line, "  defer r = %g     coverage %s (%lld decided, %lld deferred)  selective accuracy ",
                      d.deferUtility, percent(d.coverage).c_str(), static_cast<long long>(d.decided),
                      static_cast<long long>(d.deferred));
        out << line << groupText(d.selective);
        for (const auto& region : d.selectiveRegions.regions) {
            out << "  " << region.name << " " << groupText(region.counts);
        }
        out << '\n';
    }
    std::snprintf(line, sizeof line, "  mean utility    %.4f\n", r.meanUtility);
    out << line << "  per class:";
    for (size_t c = 0; c < r.perClass.size(); ++c) {
        out << (c % 5 == 0 ? "\n    " : "  ") << (c < classNames.size() ? classNames[c] : std::to_string(c)) << " "
            << groupText(r.perClass[c]);
    }
    out << '\n';
    for (const std::string& warning : warningsWithClassNames(r, classNames)) {
        out << "  WARNING: " << warning << '\n';
    }
}

} // namespace lbd::cli
