#include "app/cli/reportprinter.h"

#include <cstdio>

namespace lbd::cli {

namespace {
std::string percent(double value)
{
    char text[16];
    std::snprintf(text, sizeof text, "%6.2f%%", 100.0 * value);
    return text;
}
} // namespace

void printReport(std::ostream& out, const EvaluationReport& r, const std::vector<std::string>& classNames,
                 const std::string& title)
{
    out << title << " (rule: " << decisionRuleName(r.rule) << ", " << r.imageCount << " test images, " << r.particleCount
        << " particle(s))\n";
    out << "  accuracy        " << percent(r.overall.accuracy) << "  (" << r.overall.correct << "/" << r.overall.total << ")\n";
    for (const auto* regions : {&r.regionsThirds, &r.regionsCounts}) {
        out << "  regions (" << (regions->scheme == RegionScheme::ThirdsByIndex ? "thirds" : "counts") << ")";
        for (const auto& region : regions->regions) {
            out << "  " << region.name << " " << percent(region.counts.accuracy) << " [" << region.counts.total << "]";
        }
        out << '\n';
    }
    out << "  false head rate";
    for (const auto& point : r.fhrPoints) {
        out << "  tail " << static_cast<int>(100 * point.ratio) << "%: " << percent(point.split.rate);
    }
    out << "  (" << r.fhrConvention << ")\n";
    char line[160];
    std::snprintf(line, sizeof line, "  calibration     ECE %.4f  MCE %.4f  NLL %.4f", r.calibration.ece, r.calibration.mce, r.nll);
    out << line;
    if (r.aurocConfidence) {
        std::snprintf(line, sizeof line, "  AUROC(conf) %.4f", *r.aurocConfidence);
        out << line;
    }
    if (r.aurocNegativeEntropy) {
        std::snprintf(line, sizeof line, "  AUROC(-entropy) %.4f", *r.aurocNegativeEntropy);
        out << line;
    }
    std::snprintf(line, sizeof line, "\n  mean utility    %.4f\n", r.meanUtility);
    out << line << "  per class:";
    for (size_t c = 0; c < r.perClass.size(); ++c) {
        out << (c % 5 == 0 ? "\n    " : "  ") << (c < classNames.size() ? classNames[c] : std::to_string(c)) << " "
            << percent(r.perClass[c].accuracy);
    }
    out << '\n';
}

} // namespace lbd::cli
