#pragma once
// A study's results: every finished run's report.json read back, and per cell the mean, the
// sample standard deviation and the 95 % interval (Student's t) over seeds of each metric; the
// tables as Markdown, CSV and LaTeX (booktabs). Torch-free: the CLI writes these files and the
// Studies page shows the same numbers.
#include "core/study/claimverdict.h"
#include "core/study/studyspec.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lbd {

struct StudyMetric {
    std::string key;      // "tail"
    std::string title;    // "Tail acc."
    std::string unit;     // "%", "s" or "" (a plain number)
    double scale = 1.0;   // shown value = raw value * scale (fractions as per cent)
    int decimals = 2;
    bool higherIsBetter = true;
    std::string help;     // one sentence: what the number is (tooltips, the table's legend)
};
// The metrics of a report a study can aggregate, in table order.
const std::vector<StudyMetric>& studyMetrics();
const StudyMetric& studyMetric(const std::string& key); // InputError for an unknown key
// The raw value of `key` in a report.json (its "evaluation": the run's own decision rule).
std::optional<double> reportMetric(const nlohmann::json& report, const std::string& key);

// Mean, sample standard deviation (n - 1) and the 95 % interval mean +- t(0.975, n - 1) s / sqrt(n).
// With one value the std and interval are NaN (unknown, never shown as 0); with none, all are.
struct SampleSummary {
    int n = 0;
    double mean = 0;
    double std = 0;
    double low = 0;
    double high = 0;
    std::vector<double> values;
};
SampleSummary summarizeSample(const std::vector<double>& values);
double studentT975(int degreesOfFreedom); // the two-sided 95 % quantile

enum class StudyRunState { Pending, Running, Stopped, Failed, Finished };
std::string stateName(StudyRunState state); // "pending", ...
struct StudyRunStatus {
    StudyRunState state = StudyRunState::Pending;
    int epochsDone = 0;
    int epochs = 0;
    std::string message;
    // Finished, but weights.pt / test_probabilities.pt are not in the folder (a run copied back
    // from another machine without them): its report holds every number; it cannot classify.
    bool modelFilesMissing = false;
};
// What a run folder says of itself (status.json, report.json and the run's lock): a folder whose
// status says "running" without a process holding its lock was interrupted: Stopped.
StudyRunStatus inspectStudyRun(const std::string& runDirectory);

struct FhrCurvePoint {
    int headClasses = 0;
    SampleSummary rate;
};

struct CellSummary {
    std::string id;
    std::string label;
    std::vector<std::string> levelLabels;
    int runs = 0;
    int finished = 0;
    std::vector<std::string> problems; // "seed 2: failed: the loss became nan ..."
    std::map<std::string, SampleSummary> metrics; // raw values (unscaled)
    std::vector<FhrCurvePoint> fhrCurve;
    // A decision-only cell (decisioncell.h), marked "†" in the tables: the label of the cell whose
    // runs it re-decides, how ("prior:tune, rule expected"), and per finished seed the utility
    // decided with ("seed 0: prior:0.75"). Empty for a cell that trains.
    std::string decidedFrom;
    std::string decision;
    std::vector<std::string> decisions;
};

struct StudySummary {
    std::string name;
    std::string title;
    std::string paperTable;
    std::string claim;
    std::vector<std::string> factorNames;
    std::vector<std::string> metricKeys; // the table's columns
    std::vector<int64_t> seeds;
    std::vector<CellSummary> cells;
    // Which protocol and decision rule produced the numbers, and how the metrics shown are
    // defined (ours beside the published code's): written under every table.
    std::vector<std::string> protocolNotes;
    // The study's claims, each a paired comparison of two cells over seeds (claimverdict.h):
    // summary.json's "verdicts" and a section under table.md's table.
    std::vector<ClaimVerdict> verdicts;
};

StudySummary summarizeStudy(const ResolvedStudy& study, const std::string& studyDirectory);
nlohmann::json toJson(const StudySummary& summary);

// "91.28 ± 0.33" (mean ± std, scaled, n >= 2), "91.28" (n = 1), "–" (none).
std::string formatMeanStd(const SampleSummary& sample, const StudyMetric& metric);
std::string markdownTable(const StudySummary& summary);
std::string csvTable(const StudySummary& summary);   // one row per cell, mean/std/low/high/n per metric
std::string latexTable(const StudySummary& summary); // booktabs, \pm

// results/summary.json, table.md, table.csv, table.tex, each written atomically.
void writeStudyResults(const StudySummary& summary, const std::string& studyDirectory);

} // namespace lbd
