#pragma once
// EvaluationReport: every test-set metric of one run under one utility matrix and decision rule
// (lbd-math.md section 6). A plain value type (no torch, no Qt) that the evaluator fills, the
// CLI prints / writes as JSON (reportjson.h) and the GUI pages draw. Rates of empty groups are 0
// with their count 0, so nothing here is NaN; printers show an empty group as "–" (and the JSON
// writes null), never as 0 %.
#include "core/data/regions.h"
#include "core/eval/decisionrule.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lbd {

// Correct / total over a group of test images (a class or a region); accuracy 0 when total 0.
struct GroupAccuracy {
    int64_t correct = 0;
    int64_t total = 0;
    double accuracy = 0.0;
};

struct RegionAccuracy {
    Region region = Region::Head;
    std::string name; // regionName(region, scheme): "head" / "many", ...
    GroupAccuracy counts;
};

struct RegionAccuracies {
    RegionScheme scheme = RegionScheme::ThirdsByIndex;
    std::vector<RegionAccuracy> regions; // Head, Medium, Tail in that order (all three, even if empty)
};

// One split of the False Head Rate curve: head = classes < headClasses.
struct FhrSplit {
    int64_t headClasses = 0;  // k
    int64_t falseHeads = 0;   // #{y >= k and yhat < k}
    int64_t tailImages = 0;   // #{y >= k}
    double rate = 0.0;        // falseHeads / tailImages, 0 when there are no tail images
};

// A point of the paper's FHR table, head = first int(C * ratio + 0.5) classes.
struct FhrPoint {
    double ratio = 0.0; // 0.25, 0.5, 0.75
    FhrSplit split;
};

struct CalibrationBin {
    double lower = 0.0; // bin = (lower, upper]; the first bin also holds confidence 0
    double upper = 0.0;
    int64_t count = 0;
    double accuracy = 0.0;       // 0 when count 0
    double meanConfidence = 0.0; // 0 when count 0
};

// Selective risk when only the k most confident images are decided (lbd-math.md section 5 item
// 5): risk(k/N) = errors among the k most confident / k. The curve keeps every point up to
// kRiskCoverageSamples images and evenly spaced points (always the last) beyond; aurc is exact.
struct RiskCoverageCurve {
    std::vector<double> coverage; // k / N, increasing
    std::vector<double> risk;     // selective risk at that coverage
    int64_t count = 0;            // N
    double aurc = 0.0;            // mean selective risk over k = 1..N (0 when N = 0)
};

// The defer (reject) option at one defer utility r: images whose best expected utility is below r
// are deferred; the rest are decided. The report's other metrics are those of deciding every
// image; these are the selective ones.
struct DeferReport {
    double deferUtility = 0.0;    // r
    int64_t deferred = 0;
    int64_t decided = 0;
    double coverage = 0.0;        // decided / images
    GroupAccuracy selective;      // correct among the decided images
    RegionAccuracies selectiveRegions; // thirds by index, among the decided images
};

struct CalibrationReport {
    std::vector<CalibrationBin> bins;
    int64_t count = 0; // images binned
    double ece = 0.0;  // sum_b (n_b/N) |acc_b - conf_b|
    double mce = 0.0;  // max over non-empty bins of |acc_b - conf_b|
};

struct RegionCalibration {
    Region region = Region::Head;
    std::string name;
    CalibrationReport calibration; // images whose true class is in the region
};

// The published code's calibration and AUC (lbd-math.md section 6, `model/metric.py`): computed
// from q = softmax(mean particle logits), decision argmax q, confidence_pub = 1 - H(q) in nats.
// Reported BESIDE ours whenever a number is compared with the paper's tables; the two ECEs differ
// in bins (10 vs 15), in the confidence (1 - entropy vs pbar of the decision) and in the
// denominator (every image, also those whose confidence_pub is negative and sit in no bin).
inline constexpr const char* kPublishedMetricsDefinition =
    "published code (model/metric.py): q = softmax(mean particle logits), decision argmax q, confidence 1 - H(q) in "
    "nats; ECE over 10 bins [i/10, (i+1)/10) divided by every image (confidence < 0 in no bin); AUROC of (correct, "
    "confidence)";
inline constexpr const char* kOurCalibrationDefinition =
    "ours (lbd-math.md section 6): confidence = pbar of the decided class; ECE over 15 bins (b/15, (b+1)/15]; AUROC of "
    "(correct, that confidence)";

struct PublishedMetrics {
    double accuracy = 0.0;         // of the mean-logit decision
    double ece = 0.0;              // ece_published
    std::optional<double> auroc;   // auroc_published; empty when every decision is right or every one wrong
    int64_t unbinned = 0;          // images with confidence_pub outside [0, 1): in no bin, in the denominator
    std::vector<CalibrationBin> bins; // the 10 bins [i/10, (i+1)/10) of confidence_pub (the reliability diagram)
};

// Calibration metrics beside ECE / MCE / NLL (core/eval/calibrationmetrics.h has the definitions).
struct CalibrationMetrics {
    double brier = 0.0;        // mean over images of sum_k (pbar_k - [y = k])^2, in [0, 2]
    double classwiseEce = 0.0; // mean over classes k of the 15-bin ECE of (pbar_k, [y = k]) over every image
    double adaptiveEce = 0.0;  // ECE over 15 equal-mass bins of the decision's confidence
    double eceLow = 0.0;       // bootstrap 95 % percentile interval of the report's ECE
    double eceHigh = 0.0;
    int64_t bootstrapResamples = 0;
    uint64_t bootstrapSeed = 0;
};

// The same images without temperature scaling, in a report whose probabilities were scaled: the
// "before" of before / after.
struct UncalibratedSummary {
    double accuracy = 0.0;
    double nll = 0.0;
    double ece = 0.0;
    double mce = 0.0;
    std::optional<CalibrationMetrics> metrics;
};

struct EvaluationReport {
    DecisionRule rule = DecisionRule::Argmax;
    int64_t classCount = 0;
    int64_t imageCount = 0;
    int64_t particleCount = 0;

    GroupAccuracy overall;
    RegionAccuracies regionsThirds; // RegionScheme::ThirdsByIndex
    RegionAccuracies regionsCounts; // RegionScheme::ByTrainCount
    std::vector<GroupAccuracy> perClass;        // indexed by true class
    std::vector<std::vector<int64_t>> confusion; // [true][decided]

    std::vector<FhrSplit> fhrCurve;   // k = 1 .. C-1
    std::vector<FhrPoint> fhrPoints;  // ratios 0.25, 0.5, 0.75
    std::string fhrConvention;        // how fhrPoints chose the head (the published code's convention)
    // Two different averages, always named apart: the mean over the whole curve (k = 1..C-1)
    // and the mean of the paper's three table points.
    double fhrCurveMean = 0.0;
    double fhrPointsMean = 0.0;

    CalibrationReport calibration;                  // confidence = pbar of the decision, 15 bins
    std::vector<RegionCalibration> regionCalibration; // thirds scheme, by true class

    // Misclassification AUROC (positives = correct decisions); empty when every decision is
    // right or every one is wrong, where the statistic is undefined.
    std::optional<double> aurocConfidence;
    std::optional<double> aurocNegativeEntropy;

    // The published code's decision and metrics, beside ours; empty in reports written before them.
    std::optional<PublishedMetrics> published;

    double nll = 0.0;         // mean -log max(pbar[y], 1e-12)
    // Brier, classwise and adaptive ECE, the ECE interval; empty in reports written before them.
    std::optional<CalibrationMetrics> calibrationMetrics;
    // Set when pbar was temperature-scaled before deciding: calibrated pbar = softmax(log pbar / T)
    // with T fitted on the validation split (core/eval/temperature.h); then `uncalibrated` holds
    // the same metrics without scaling.
    std::optional<double> temperature;
    std::optional<UncalibratedSummary> uncalibrated;
    double meanUtility = 0.0; // mean U[y, decision]

    // Ordered by the rule's confidence (max EU for expected, max pbar for argmax, pbar of the
    // decision otherwise); the tail curve keeps the images whose true class is in the tail third.
    RiskCoverageCurve riskCoverage;
    RiskCoverageCurve riskCoverageTail;
    std::optional<DeferReport> defer; // only when a defer utility was given

    // Why these numbers may mislead (a degenerate rule / matrix, a region at 0 %, accuracy near
    // chance, decisions piled into a few classes). Empty for a healthy evaluation.
    std::vector<std::string> warnings;
};

} // namespace lbd
