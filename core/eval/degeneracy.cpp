#include "core/eval/degeneracy.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace lbd {
namespace {

std::string percent(double fraction)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", 100.0 * fraction);
    return text;
}

} // namespace

std::vector<std::string> degeneracyWarnings(const EvaluationReport& report)
{
    std::vector<std::string> warnings;
    const int64_t classes = report.classCount;
    const int64_t images = report.overall.total;
    if (classes < 2 || images == 0) {
        return warnings;
    }
    for (const auto& region : report.regionsThirds.regions) {
        if (region.counts.total > 0 && region.counts.correct == 0) {
            warnings.push_back("no " + region.name + " test image is decided correctly (0 of "
                               + std::to_string(region.counts.total) + ")");
        }
    }
    const double chance = 1.0 / static_cast<double>(classes);
    if (report.overall.accuracy <= kNearChanceFactor * chance) {
        warnings.push_back("accuracy " + percent(report.overall.accuracy) + " is near chance (1/C = " + percent(chance)
                           + "; flagged at or below " + percent(kNearChanceFactor * chance) + ")");
    }
    if (static_cast<int64_t>(report.confusion.size()) == classes) {
        std::vector<int64_t> decided(static_cast<size_t>(classes), 0);
        std::vector<int64_t> truth(static_cast<size_t>(classes), 0);
        for (int64_t t = 0; t < classes; ++t) {
            for (int64_t d = 0; d < classes && d < static_cast<int64_t>(report.confusion[t].size()); ++d) {
                decided[d] += report.confusion[t][d];
                truth[t] += report.confusion[t][d];
            }
        }
        std::vector<int64_t> order(static_cast<size_t>(classes));
        std::iota(order.begin(), order.end(), int64_t{0});
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return decided[a] > decided[b]; });
        const int64_t few = (classes + 4) / 5;
        int64_t decidedFew = 0;
        int64_t trueFew = 0;
        std::string names;
        for (int64_t i = 0; i < few; ++i) {
            decidedFew += decided[order[i]];
            trueFew += truth[order[i]];
            names += (i == 0 ? "" : ", ") + std::to_string(order[i]);
        }
        const double decidedShare = static_cast<double>(decidedFew) / static_cast<double>(images);
        const double trueShare = static_cast<double>(trueFew) / static_cast<double>(images);
        if (decidedShare >= kPiledDecisionShare && trueShare <= kPiledTrueShareFactor * decidedShare) {
            warnings.push_back(percent(decidedShare) + " of the decisions go to " + std::to_string(few)
                               + (few == 1 ? " class" : " classes") + " (index " + names + ") that hold "
                               + percent(trueShare) + " of the test images (flagged at " + percent(kPiledDecisionShare)
                               + " or more)");
        }
    }
    return warnings;
}

} // namespace lbd
