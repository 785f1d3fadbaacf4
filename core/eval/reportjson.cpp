#include "core/eval/reportjson.h"

#include "core/eval/degeneracy.h"
#include "core/util/error.h"

#include "core/util/jsonread.h"

#include <nlohmann/json.hpp>

namespace lbd {
namespace {

using nlohmann::json;

// An empty group has no accuracy: null, not a 0 that reads like a failure.
json groupJson(const GroupAccuracy& group)
{
    return {{"correct", group.correct},
            {"total", group.total},
            {"accuracy", group.total > 0 ? json(group.accuracy) : json(nullptr)}};
}

GroupAccuracy groupFrom(const json& j)
{
    GroupAccuracy group;
    group.correct = integerValue<int64_t>(j.at("correct"));
    group.total = integerValue<int64_t>(j.at("total"));
    const json& accuracy = j.at("accuracy");
    group.accuracy = accuracy.is_null() ? 0.0 : accuracy.get<double>();
    return group;
}

json regionsJson(const RegionAccuracies& regions)
{
    json list = json::array();
    for (const auto& region : regions.regions) {
        json entry = groupJson(region.counts);
        entry["region"] = region.name;
        list.push_back(std::move(entry));
    }
    return list;
}

// Regions are stored in Head, Medium, Tail order; the name is for people reading the file.
RegionAccuracies regionsFrom(const json& list, RegionScheme scheme)
{
    RegionAccuracies regions;
    regions.scheme = scheme;
    for (size_t r = 0; r < list.size() && r < static_cast<size_t>(kRegionCount); ++r) {
        RegionAccuracy region;
        region.region = static_cast<Region>(r);
        region.name = list[r].at("region").get<std::string>();
        region.counts = groupFrom(list[r]);
        regions.regions.push_back(std::move(region));
    }
    return regions;
}

json splitJson(const FhrSplit& split)
{
    return {{"head_classes", split.headClasses},
            {"false_heads", split.falseHeads},
            {"tail_images", split.tailImages},
            {"rate", split.rate}};
}

FhrSplit splitFrom(const json& j)
{
    FhrSplit split;
    split.headClasses = integerValue<int64_t>(j.at("head_classes"));
    split.falseHeads = integerValue<int64_t>(j.at("false_heads"));
    split.tailImages = integerValue<int64_t>(j.at("tail_images"));
    split.rate = j.at("rate").get<double>();
    return split;
}

json calibrationJson(const CalibrationReport& calibration)
{
    json bins = json::array();
    for (const auto& bin : calibration.bins) {
        bins.push_back({{"lower", bin.lower},
                        {"upper", bin.upper},
                        {"count", bin.count},
                        {"accuracy", bin.accuracy},
                        {"mean_confidence", bin.meanConfidence}});
    }
    return {{"count", calibration.count}, {"ece", calibration.ece}, {"mce", calibration.mce}, {"bins", bins}};
}

CalibrationReport calibrationFrom(const json& j)
{
    CalibrationReport calibration;
    calibration.count = integerValue<int64_t>(j.at("count"));
    calibration.ece = j.at("ece").get<double>();
    calibration.mce = j.at("mce").get<double>();
    for (const auto& b : j.at("bins")) {
        CalibrationBin bin;
        bin.lower = b.at("lower").get<double>();
        bin.upper = b.at("upper").get<double>();
        bin.count = integerValue<int64_t>(b.at("count"));
        bin.accuracy = b.at("accuracy").get<double>();
        bin.meanConfidence = b.at("mean_confidence").get<double>();
        calibration.bins.push_back(bin);
    }
    return calibration;
}

json riskCoverageJson(const RiskCoverageCurve& curve, ReportDetail detail)
{
    json j = {{"count", curve.count}, {"aurc", curve.aurc}};
    if (detail == ReportDetail::Full) {
        j["coverage"] = curve.coverage;
        j["risk"] = curve.risk;
    }
    return j;
}

RiskCoverageCurve riskCoverageFrom(const json& j)
{
    RiskCoverageCurve curve;
    curve.count = integerValue<int64_t>(j.at("count"));
    curve.aurc = j.at("aurc").get<double>();
    if (j.contains("coverage")) {
        curve.coverage = j.at("coverage").get<std::vector<double>>();
        curve.risk = j.at("risk").get<std::vector<double>>();
    }
    if (curve.coverage.size() != curve.risk.size()) {
        throw InputError("risk-coverage curve: " + std::to_string(curve.coverage.size()) + " coverages but "
                         + std::to_string(curve.risk.size()) + " risks");
    }
    return curve;
}

json optionalJson(const std::optional<double>& value)
{
    return value ? json(*value) : json(nullptr);
}

std::optional<double> optionalFrom(const json& j)
{
    return j.is_null() ? std::nullopt : std::optional<double>(j.get<double>());
}

json calibrationMetricsJson(const CalibrationMetrics& m)
{
    return {{"brier", m.brier},
            {"classwise_ece", m.classwiseEce},
            {"adaptive_ece", m.adaptiveEce},
            {"ece_interval", {{"low", m.eceLow},
                              {"high", m.eceHigh},
                              {"level", 0.95},
                              {"resamples", m.bootstrapResamples},
                              {"seed", m.bootstrapSeed}}}};
}

CalibrationMetrics calibrationMetricsFrom(const json& j)
{
    CalibrationMetrics m;
    m.brier = j.at("brier").get<double>();
    m.classwiseEce = j.at("classwise_ece").get<double>();
    m.adaptiveEce = j.at("adaptive_ece").get<double>();
    const json& interval = j.at("ece_interval");
    m.eceLow = interval.at("low").get<double>();
    m.eceHigh = interval.at("high").get<double>();
    m.bootstrapResamples = integerValue<int64_t>(interval.at("resamples"));
    m.bootstrapSeed = interval.at("seed").get<uint64_t>();
    return m;
}

} // namespace

nlohmann::json reportToJson(const EvaluationReport& report, ReportDetail detail)
{
    json j;
    j["rule"] = decisionRuleName(report.rule);
    j["classes"] = report.classCount;
    j["images"] = report.imageCount;
    j["particles"] = report.particleCount;
    j["accuracy"] = groupJson(report.overall);
    j["regions"] = {{"thirds", regionsJson(report.regionsThirds)}, {"counts", regionsJson(report.regionsCounts)}};

    json perClass = json::array();
    for (const auto& group : report.perClass) {
        perClass.push_back(groupJson(group));
    }
    j["per_class"] = std::move(perClass);
    j["confusion"] = report.confusion;

    json curve = json::array();
    for (const auto& split : report.fhrCurve) {
        curve.push_back(splitJson(split));
    }
    json points = json::array();
    for (const auto& point : report.fhrPoints) {
        json entry = splitJson(point.split);
        entry["ratio"] = point.ratio;
        points.push_back(std::move(entry));
    }
    j["fhr"] = {{"curve", curve},
                {"points", points},
                {"convention", report.fhrConvention},
                {"curve_mean", report.fhrCurveMean},
                {"points_mean", report.fhrPointsMean}};

    j["calibration"] = calibrationJson(report.calibration);
    j["calibration"]["confidence"] = "pbar of the decided class";
    json byRegion = json::array();
    for (const auto& region : report.regionCalibration) {
        json entry = calibrationJson(region.calibration);
        entry["region"] = region.name;
        byRegion.push_back(std::move(entry));
    }
    j["calibration_by_region"] = std::move(byRegion);

    j["auroc"] = {{"confidence", optionalJson(report.aurocConfidence)},
                  {"negative_entropy", optionalJson(report.aurocNegativeEntropy)}};
    j["nll"] = report.nll;
    if (report.calibrationMetrics) {
        j["calibration_metrics"] = calibrationMetricsJson(*report.calibrationMetrics);
    }
    if (report.temperature) {
        j["temperature"] = {{"value", *report.temperature}, {"definition", "calibrated pbar = softmax(log pbar / T)"}};
    }
    if (report.uncalibrated) {
        const UncalibratedSummary& u = *report.uncalibrated;
        j["uncalibrated"] = {{"accuracy", u.accuracy}, {"nll", u.nll}, {"ece", u.ece}, {"mce", u.mce}};
        if (u.metrics) {
            j["uncalibrated"]["calibration_metrics"] = calibrationMetricsJson(*u.metrics);
        }
    }
    if (report.published) {
        const PublishedMetrics& p = *report.published;
        j["published"] = {{"decision", "mean-logit (argmax of the mean particle logits)"},
                          {"accuracy", p.accuracy},
                          {"ece", p.ece},
                          {"auroc", optionalJson(p.auroc)},
                          {"unbinned", p.unbinned},
                          {"bins", calibrationJson({p.bins, 0, p.ece, 0.0})["bins"]},
                          {"definition", kPublishedMetricsDefinition}};
    }
    j["mean_utility"] = report.meanUtility;
    j["risk_coverage"] = {{"all", riskCoverageJson(report.riskCoverage, detail)},
                          {"tail", riskCoverageJson(report.riskCoverageTail, detail)}};
    if (report.defer) {
        const DeferReport& d = *report.defer;
        j["defer"] = {{"utility", d.deferUtility},
                      {"deferred", d.deferred},
                      {"decided", d.decided},
                      {"coverage", d.coverage},
                      {"selective_accuracy", groupJson(d.selective)},
                      {"selective_regions", regionsJson(d.selectiveRegions)}};
    }
    j["warnings"] = report.warnings;
    return j;
}

namespace {

// The sections added since the first reports (the calibration metrics, the temperature and the
// uncalibrated summary of issue 29, the published code's metrics of issue 27): absent in older
// reports, which then read without them.
void readLaterSections(const json& j, EvaluationReport& report)
{
    // The three below are absent in reports written before them (issue 29).
    if (j.contains("calibration_metrics")) {
        report.calibrationMetrics = calibrationMetricsFrom(j.at("calibration_metrics"));
    }
    if (j.contains("temperature")) {
        report.temperature = j.at("temperature").at("value").get<double>();
    }
    if (j.contains("uncalibrated")) {
        const json& u = j.at("uncalibrated");
        UncalibratedSummary summary;
        summary.accuracy = u.at("accuracy").get<double>();
        summary.nll = u.at("nll").get<double>();
        summary.ece = u.at("ece").get<double>();
        summary.mce = u.at("mce").get<double>();
        if (u.contains("calibration_metrics")) {
            summary.metrics = calibrationMetricsFrom(u.at("calibration_metrics"));
        }
        report.uncalibrated = summary;
    }
    if (j.contains("published")) { // absent in reports written before the published metrics
        const json& p = j.at("published");
        PublishedMetrics published;
        published.accuracy = p.at("accuracy").get<double>();
        published.ece = p.at("ece").get<double>();
        published.auroc = optionalFrom(p.at("auroc"));
        published.unbinned = integerValue<int64_t>(p.at("unbinned"));
        published.bins = calibrationFrom({{"count", 0}, {"ece", 0.0}, {"mce", 0.0}, {"bins", p.at("bins")}}).bins;
        report.published = published;
    }
}

} // namespace

EvaluationReport reportFromJson(const nlohmann::json& j, const std::string& source)
{
    EvaluationReport report;
    try {
        report.rule = parseDecisionRule(j.at("rule").get<std::string>());
        report.classCount = integerValue<int64_t>(j.at("classes"));
        report.imageCount = integerValue<int64_t>(j.at("images"));
        report.particleCount = integerValue<int64_t>(j.at("particles"));
        report.overall = groupFrom(j.at("accuracy"));
        report.regionsThirds = regionsFrom(j.at("regions").at("thirds"), RegionScheme::ThirdsByIndex);
        report.regionsCounts = regionsFrom(j.at("regions").at("counts"), RegionScheme::ByTrainCount);
        for (const auto& group : j.at("per_class")) {
            report.perClass.push_back(groupFrom(group));
        }
        report.confusion.clear();
        for (const auto& row : j.at("confusion")) {
            report.confusion.push_back(integerVector<int64_t>(row));
        }

        const json& fhr = j.at("fhr");
        for (const auto& split : fhr.at("curve")) {
            report.fhrCurve.push_back(splitFrom(split));
        }
        for (const auto& entry : fhr.at("points")) {
            FhrPoint point;
            point.ratio = entry.at("ratio").get<double>();
            point.split = splitFrom(entry);
            report.fhrPoints.push_back(point);
        }
        report.fhrConvention = fhr.at("convention").get<std::string>();
        // Reports written before the two means were named apart: recompute them.
        if (fhr.contains("curve_mean")) {
            report.fhrCurveMean = fhr.at("curve_mean").get<double>();
            report.fhrPointsMean = fhr.at("points_mean").get<double>();
        } else {
            for (const auto& split : report.fhrCurve) {
                report.fhrCurveMean += split.rate / static_cast<double>(report.fhrCurve.size());
            }
            for (const auto& point : report.fhrPoints) {
                report.fhrPointsMean += point.split.rate / static_cast<double>(report.fhrPoints.size());
            }
        }

        report.calibration = calibrationFrom(j.at("calibration"));
        const json& byRegion = j.at("calibration_by_region");
        for (size_t r = 0; r < byRegion.size() && r < static_cast<size_t>(kRegionCount); ++r) {
            RegionCalibration region;
            region.region = static_cast<Region>(r);
            region.name = byRegion[r].at("region").get<std::string>();
            region.calibration = calibrationFrom(byRegion[r]);
            report.regionCalibration.push_back(std::move(region));
        }
        report.aurocConfidence = optionalFrom(j.at("auroc").at("confidence"));
        report.aurocNegativeEntropy = optionalFrom(j.at("auroc").at("negative_entropy"));
        report.nll = j.at("nll").get<double>();
        report.meanUtility = j.at("mean_utility").get<double>();
        readLaterSections(j, report);
        if (j.contains("risk_coverage")) { // absent in reports written before the defer option
            report.riskCoverage = riskCoverageFrom(j.at("risk_coverage").at("all"));
            report.riskCoverageTail = riskCoverageFrom(j.at("risk_coverage").at("tail"));
        }
        if (j.contains("defer")) {
            const json& d = j.at("defer");
            DeferReport defer;
            defer.deferUtility = d.at("utility").get<double>();
            defer.deferred = integerValue<int64_t>(d.at("deferred"));
            defer.decided = integerValue<int64_t>(d.at("decided"));
            defer.coverage = d.at("coverage").get<double>();
            defer.selective = groupFrom(d.at("selective_accuracy"));
            defer.selectiveRegions = regionsFrom(d.at("selective_regions"), RegionScheme::ThirdsByIndex);
            report.defer = defer;
        }
        if (j.contains("warnings")) {
            report.warnings = j.at("warnings").get<std::vector<std::string>>();
        } else {
            report.warnings = degeneracyWarnings(report); // a report from before the flags existed
        }
    } catch (const nlohmann::json::exception& error) {
        // nlohmann's messages name the key ("key 'nll' not found") or the type problem.
        throw InputError(source + ": not a valid evaluation report: " + error.what());
    }
    return report;
}

void to_json(nlohmann::json& json, const EvaluationReport& report)
{
    json = reportToJson(report);
}

void from_json(const nlohmann::json& json, EvaluationReport& report)
{
    report = reportFromJson(json);
}

} // namespace lbd
