#include "core/study/claimverdict.h"

#include "core/study/studysummary.h"
#include "core/train/runfolder.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <numeric>
#include <sstream>

namespace lbd {
namespace {

using json = nlohmann::json;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string signedFixed(double value, int decimals)
{
    std::ostringstream out;
    out << std::fixed << std::setprecision(decimals) << std::showpos << value;
    std::string text = out.str();
    // "-0.00" and "+0.00" read as a sign where there is none.
    if (text.find_first_not_of("+-0.") == std::string::npos) {
        text = text.substr(1);
    }
    return text;
}

std::string unitWord(const StudyMetric& metric)
{
    if (metric.unit == "%") {
        return " points";
    }
    return metric.unit.empty() ? "" : " " + metric.unit;
}

int cellIndex(const ResolvedStudy& study, const std::string& label)
{
    for (size_t c = 0; c < study.cells.size(); ++c) {
        if (study.cells[c].label == label) {
            return static_cast<int>(c);
        }
    }
    return -1;
}

// seed -> the metric of the cell's finished run at that seed.
std::map<int64_t, double> finishedValues(const ResolvedStudy& study, int cell, const std::string& metric,
                                         const std::string& studyDirectory)
{
    std::map<int64_t, double> values;
    for (const StudyRunRef& run : study.runs) {
        if (run.cell != cell) {
            continue;
        }
        const std::string directory = (std::filesystem::path(studyDirectory) / run.directory).string();
        if (inspectStudyRun(directory).state != StudyRunState::Finished) {
            continue;
        }
        try {
            if (const auto value = reportMetric(RunFolder(directory).readJson(RunFolder::kReport), metric)) {
                values[run.seed] = *value;
            }
        } catch (const InputError&) {
            // An unreadable report: the table lists it as the run's problem; here the seed is not paired.
        }
    }
    return values;
}

json finiteOrNull(double value)
{
    return std::isfinite(value) ? json(value) : json(nullptr);
}

std::string markdownCell(std::string text)
{
    for (size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2)) {
        text.replace(at, 1, "\\|");
    }
    return text;
}

} // namespace

std::string claimOutcomeName(ClaimOutcome outcome)
{
    switch (outcome) {
    case ClaimOutcome::Holds: return "holds";
    case ClaimOutcome::NotDetected: return "not detected";
    case ClaimOutcome::Opposite: return "opposite";
    case ClaimOutcome::NotEnoughSeeds: return "not enough seeds";
    }
    return "not enough seeds";
}

ClaimVerdict pairedClaimVerdict(const StudyClaim& claim, const std::map<int64_t, double>& cell,
                                const std::map<int64_t, double>& against)
{
    ClaimVerdict verdict;
    verdict.claim = claim;
    for (const auto& [seed, value] : cell) {
        const auto other = against.find(seed);
        if (other != against.end() && std::isfinite(value) && std::isfinite(other->second)) {
            verdict.seeds.push_back(seed);
            verdict.differences.push_back(value - other->second);
        }
    }
    const std::vector<double>& d = verdict.differences;
    verdict.n = static_cast<int>(d.size());
    verdict.mean = verdict.n > 0 ? std::accumulate(d.begin(), d.end(), 0.0) / verdict.n : kNaN;
    verdict.sd = verdict.low = verdict.high = kNaN;
    if (verdict.n < 2) {
        verdict.outcome = ClaimOutcome::NotEnoughSeeds;
        return verdict;
    }
    double squares = 0;
    for (const double x : d) {
        squares += (x - verdict.mean) * (x - verdict.mean);
    }
    verdict.sd = std::sqrt(squares / (verdict.n - 1));
    const double half = studentT975(verdict.n - 1) * verdict.sd / std::sqrt(static_cast<double>(verdict.n));
    verdict.low = verdict.mean - half;
    verdict.high = verdict.mean + half;
    // The margin is in the shown unit (points for a % metric); the differences are raw fractions.
    const double margin = claim.margin / studyMetric(claim.metric).scale;
    const double boundary = claim.higher ? -margin : margin;
    const bool aboveBoundary = verdict.low > boundary;
    const bool belowBoundary = verdict.high < boundary;
    if (claim.higher ? aboveBoundary : belowBoundary) {
        verdict.outcome = ClaimOutcome::Holds;
    } else if (claim.higher ? belowBoundary : aboveBoundary) {
        verdict.outcome = ClaimOutcome::Opposite;
    } else {
        verdict.outcome = ClaimOutcome::NotDetected;
    }
    return verdict;
}

std::vector<ClaimVerdict> studyClaimVerdicts(const ResolvedStudy& study, const std::string& studyDirectory)
{
    std::vector<ClaimVerdict> verdicts;
    for (const StudyClaim& claim : study.spec.claims) {
        const int cell = cellIndex(study, claim.cell);
        const int against = cellIndex(study, claim.against);
        if (cell < 0 || against < 0) {
            continue;
        }
        verdicts.push_back(pairedClaimVerdict(claim, finishedValues(study, cell, claim.metric, studyDirectory),
                                              finishedValues(study, against, claim.metric, studyDirectory)));
    }
    return verdicts;
}

json toJson(const std::vector<ClaimVerdict>& verdicts)
{
    json out = json::array();
    for (const ClaimVerdict& v : verdicts) {
        json entry = toJson(std::vector<StudyClaim>{v.claim}).at(0);
        entry["paired"] = {{"seeds", v.seeds}, {"differences", v.differences}, {"n", v.n}, {"mean", finiteOrNull(v.mean)},
                           {"sd", finiteOrNull(v.sd)}, {"ci95_low", finiteOrNull(v.low)}, {"ci95_high", finiteOrNull(v.high)},
                           {"definition", "cell - against per seed (raw units: fractions for a % metric); mean, sample "
                                          "sd, 95 % Student-t interval of the mean"}};
        entry["verdict"] = claimOutcomeName(v.outcome);
        out.push_back(entry);
    }
    return out;
}

std::string formatPairedEffect(const ClaimVerdict& verdict)
{
    const StudyMetric& metric = studyMetric(verdict.claim.metric);
    if (verdict.n == 0) {
        return "–";
    }
    std::string text = signedFixed(verdict.mean * metric.scale, metric.decimals) + unitWord(metric);
    if (verdict.n >= 2) {
        text += " [" + signedFixed(verdict.low * metric.scale, metric.decimals) + ", "
            + signedFixed(verdict.high * metric.scale, metric.decimals) + "]";
    }
    return text;
}

std::string describeComparison(const StudyClaim& claim)
{
    const StudyMetric& metric = studyMetric(claim.metric);
    std::string direction = claim.higher ? "higher" : "lower";
    if (claim.margin > 0) {
        std::ostringstream margin;
        margin << std::fixed << std::setprecision(metric.decimals) << claim.margin;
        direction = std::string(claim.higher ? "not lower" : "not higher") + " by more than " + margin.str() + unitWord(metric);
    }
    return claim.cell + " vs " + claim.against + ", " + metric.title + " (" + direction + ")";
}

std::string claimVerdictsMarkdown(const std::vector<ClaimVerdict>& verdicts)
{
    if (verdicts.empty()) {
        return {};
    }
    std::ostringstream out;
    out << "\n\n## The paper's claims, paired over seeds\n\n"
        << "| claim | comparison | paired difference [95 % interval] | seeds | verdict | the paper's figure (its setting) |\n"
        << "|---|---|---|---:|---|---|\n";
    for (const ClaimVerdict& v : verdicts) {
        out << "| " << markdownCell(v.claim.text) << " | " << markdownCell(describeComparison(v.claim)) << " | "
            << formatPairedEffect(v) << " | " << v.n << " | **" << claimOutcomeName(v.outcome) << "** | "
            << (v.claim.paper.empty() ? "–" : markdownCell(v.claim.paper)) << " |\n";
    }
    out << "\nPaired difference: cell minus the cell it is compared with, seed by seed (same split, same training "
           "seed), over the seeds both finished; mean and 95 % Student-t interval. holds: the interval lies on the "
           "claimed side; opposite: wholly on the other side; not detected: it straddles it; not enough seeds: "
           "fewer than 2 pairs. The paper's figures are its own setting, never these runs.\n";
    return out.str();
}

} // namespace lbd
