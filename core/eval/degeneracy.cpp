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

// "85.3 % of the decisions go to 2 classes (cat, dog)": the part the headline and the warning share.
std::string piledText(const PiledDecisions& piled, const std::vector<std::string>& classNames)
{
    const size_t few = piled.classes.size();
    return percent(piled.decidedShare) + " of the decisions go to " + std::to_string(few) + (few == 1 ? " class" : " classes")
        + " (" + classListText(piled.classes, classNames) + ")";
}

} // namespace

std::optional<PiledDecisions> piledDecisions(const EvaluationReport& report)
{
    const int64_t classes = report.classCount;
    const int64_t images = report.overall.total;
    if (classes < 2 || images == 0 || static_cast<int64_t>(report.confusion.size()) != classes) {
        return std::nullopt;
    }
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
    PiledDecisions piled;
    int64_t decidedFew = 0;
    int64_t trueFew = 0;
    for (int64_t i = 0; i < few; ++i) {
        decidedFew += decided[order[i]];
        trueFew += truth[order[i]];
        if (decided[order[i]] > 0) {
            piled.classes.push_back(order[i]); // a class no image is decided as is not named
        }
    }
    piled.decidedShare = static_cast<double>(decidedFew) / static_cast<double>(images);
    piled.trueShare = static_cast<double>(trueFew) / static_cast<double>(images);
    if (piled.decidedShare >= kPiledDecisionShare && piled.trueShare <= kPiledTrueShareFactor * piled.decidedShare) {
        return piled;
    }
    return std::nullopt;
}

std::string classListText(const std::vector<int64_t>& classes, const std::vector<std::string>& classNames)
{
    const bool named = std::all_of(classes.begin(), classes.end(), [&](int64_t c) {
        return c >= 0 && c < static_cast<int64_t>(classNames.size()) && !classNames[static_cast<size_t>(c)].empty();
    });
    std::string text = named ? "" : "index ";
    for (size_t i = 0; i < classes.size(); ++i) {
        text += (i == 0 ? "" : ", ") + (named ? classNames[static_cast<size_t>(classes[i])] : std::to_string(classes[i]));
    }
    return text;
}

std::vector<std::string> degeneracyWarnings(const EvaluationReport& report, const std::vector<std::string>& classNames)
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
    if (const auto piled = piledDecisions(report)) {
        warnings.push_back(piledText(*piled, classNames) + " that hold " + percent(piled->trueShare)
                           + " of the test images (flagged at " + percent(kPiledDecisionShare) + " or more)");
    }
    return warnings;
}

std::vector<std::string> warningsWithClassNames(const EvaluationReport& report, const std::vector<std::string>& classNames)
{
    const std::vector<std::string> byIndex = degeneracyWarnings(report);
    const std::vector<std::string> byName = degeneracyWarnings(report, classNames);
    std::vector<std::string> shown = report.warnings;
    for (std::string& warning : shown) {
        const auto found = std::find(byIndex.begin(), byIndex.end(), warning);
        if (found != byIndex.end()) {
            warning = byName[static_cast<size_t>(found - byIndex.begin())];
        }
    }
    return shown;
}

std::string degeneracyHeadline(const EvaluationReport& report, const std::vector<std::string>& classNames)
{
    if (report.warnings.empty()) {
        return {};
    }
    if (const auto piled = piledDecisions(report)) {
        return piledText(*piled, classNames);
    }
    return warningsWithClassNames(report, classNames).front();
}

} // namespace lbd
