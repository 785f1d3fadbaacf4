#include "core/eval/reportjson.h"

#include "core/eval/degeneracy.h"
#include "core/util/error.h"

#include "core/util/jsonread.h"

#include <nlohmann/json.hpp>

namespace lbd {
namespace {

using nlohmann::json;

// One value of a report and where it is in its file ("evaluation.per_class[3].total"): a value of
// the wrong type is an InputError naming the file and that path, in jsonread's wording ("SOURCE:
// field PATH must be a number (found a string)"), never nlohmann's type_error, which names neither.
class Field {
public:
    Field(const json& value, std::string path, const std::string& source)
        : m_value(value), m_path(std::move(path)), m_source(source)
    {
    }

    // A required key of an object.
    Field operator[](const char* key) const
    {
        const std::string path = m_path.empty() ? key : m_path + "." + key;
        if (m_path.empty()) {
            requireObject(m_value, m_source);
        } else if (!m_value.is_object()) {
            throwWrongJsonType(m_source, m_path, "an object", m_value);
        }
        const auto it = m_value.find(key);
        if (it == m_value.end()) {
            throw InputError(m_source + ": field " + path + " is missing");
        }
        return Field(*it, path, m_source);
    }
    // An element of an array (below size()).
    Field operator[](size_t index) const
    {
        return Field(m_value.at(index), m_path + "[" + std::to_string(index) + "]", m_source);
    }
    bool has(const char* key) const { return m_value.is_object() && m_value.contains(key); }
    bool isNull() const { return m_value.is_null(); }
    size_t size() const
    {
        if (!m_value.is_array()) {
            throwWrongJsonType(m_source, m_path, "a list", m_value);
        }
        return m_value.size();
    }
    double number() const
    {
        if (!m_value.is_number()) {
            throwWrongJsonType(m_source, m_path, "a number", m_value);
        }
        return m_value.get<double>();
    }
    std::optional<double> nullableNumber() const { return isNull() ? std::nullopt : std::optional<double>(number()); }
    // Counts: JSON integers in range only (jsonread's integerValue: a float is refused, not converted).
    template <typename T = int64_t>
    T integer() const
    {
        try {
            return integerValue<T>(m_value);
        } catch (const json::type_error&) {
            throwWrongJsonType(m_source, m_path, "an integer", m_value);
        }
    }
    std::string text() const
    {
        if (!m_value.is_string()) {
            throwWrongJsonType(m_source, m_path, "a string", m_value);
        }
        return m_value.get<std::string>();
    }
    template <typename T, typename Read>
    std::vector<T> list(Read read) const
    {
        std::vector<T> values;
        values.reserve(size());
        for (size_t i = 0; i < size(); ++i) {
            values.push_back(read((*this)[i]));
        }
        return values;
    }
    const std::string& path() const { return m_path; }
    const std::string& source() const { return m_source; }

private:
    const json& m_value;
    std::string m_path;
    const std::string& m_source;
};

double numberOf(const Field& field)
{
    return field.number();
}

int64_t integerOf(const Field& field)
{
    return field.integer();
}

// An empty group has no accuracy: null, not a 0 that reads like a failure.
json groupJson(const GroupAccuracy& group)
{
    return {{"correct", group.correct},
            {"total", group.total},
            {"accuracy", group.total > 0 ? json(group.accuracy) : json(nullptr)}};
}

GroupAccuracy groupFrom(const Field& j)
{
    GroupAccuracy group;
    group.correct = j["correct"].integer();
    group.total = j["total"].integer();
    group.accuracy = j["accuracy"].nullableNumber().value_or(0.0);
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
RegionAccuracies regionsFrom(const Field& list, RegionScheme scheme)
{
    RegionAccuracies regions;
    regions.scheme = scheme;
    for (size_t r = 0; r < list.size() && r < static_cast<size_t>(kRegionCount); ++r) {
        RegionAccuracy region;
        region.region = static_cast<Region>(r);
        region.name = list[r]["region"].text();
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

FhrSplit splitFrom(const Field& j)
{
    FhrSplit split;
    split.headClasses = j["head_classes"].integer();
    split.falseHeads = j["false_heads"].integer();
    split.tailImages = j["tail_images"].integer();
    split.rate = j["rate"].number();
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

std::vector<CalibrationBin> binsFrom(const Field& list)
{
    return list.list<CalibrationBin>([](const Field& b) {
        CalibrationBin bin;
        bin.lower = b["lower"].number();
        bin.upper = b["upper"].number();
        bin.count = b["count"].integer();
        bin.accuracy = b["accuracy"].number();
        bin.meanConfidence = b["mean_confidence"].number();
        return bin;
    });
}

CalibrationReport calibrationFrom(const Field& j)
{
    CalibrationReport calibration;
    calibration.count = j["count"].integer();
    calibration.ece = j["ece"].number();
    calibration.mce = j["mce"].number();
    calibration.bins = binsFrom(j["bins"]);
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

RiskCoverageCurve riskCoverageFrom(const Field& j)
{
    RiskCoverageCurve curve;
    curve.count = j["count"].integer();
    curve.aurc = j["aurc"].number();
    if (j.has("coverage")) {
        curve.coverage = j["coverage"].list<double>(numberOf);
        curve.risk = j["risk"].list<double>(numberOf);
    }
    if (curve.coverage.size() != curve.risk.size()) {
        throw InputError(j.source() + ": field " + j.path() + " has " + std::to_string(curve.coverage.size())
                         + " coverages but " + std::to_string(curve.risk.size()) + " risks");
    }
    return curve;
}

json optionalJson(const std::optional<double>& value)
{
    return value ? json(*value) : json(nullptr);
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

CalibrationMetrics calibrationMetricsFrom(const Field& j)
{
    CalibrationMetrics m;
    m.brier = j["brier"].number();
    m.classwiseEce = j["classwise_ece"].number();
    m.adaptiveEce = j["adaptive_ece"].number();
    const Field interval = j["ece_interval"];
    m.eceLow = interval["low"].number();
    m.eceHigh = interval["high"].number();
    m.bootstrapResamples = interval["resamples"].integer();
    m.bootstrapSeed = interval["seed"].integer<uint64_t>();
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
void readLaterSections(const Field& j, EvaluationReport& report)
{
    if (j.has("calibration_metrics")) {
        report.calibrationMetrics = calibrationMetricsFrom(j["calibration_metrics"]);
    }
    if (j.has("temperature")) {
        report.temperature = j["temperature"]["value"].number();
    }
    if (j.has("uncalibrated")) {
        const Field u = j["uncalibrated"];
        UncalibratedSummary summary;
        summary.accuracy = u["accuracy"].number();
        summary.nll = u["nll"].number();
        summary.ece = u["ece"].number();
        summary.mce = u["mce"].number();
        if (u.has("calibration_metrics")) {
            summary.metrics = calibrationMetricsFrom(u["calibration_metrics"]);
        }
        report.uncalibrated = summary;
    }
    if (j.has("published")) {
        const Field p = j["published"];
        PublishedMetrics published;
        published.accuracy = p["accuracy"].number();
        published.ece = p["ece"].number();
        published.auroc = p["auroc"].nullableNumber();
        published.unbinned = p["unbinned"].integer();
        published.bins = binsFrom(p["bins"]);
        report.published = published;
    }
    if (j.has("risk_coverage")) { // absent in reports written before the defer option
        report.riskCoverage = riskCoverageFrom(j["risk_coverage"]["all"]);
        report.riskCoverageTail = riskCoverageFrom(j["risk_coverage"]["tail"]);
    }
    if (j.has("defer")) {
        const Field d = j["defer"];
        DeferReport defer;
        defer.deferUtility = d["utility"].number();
        defer.deferred = d["deferred"].integer();
        defer.decided = d["decided"].integer();
        defer.coverage = d["coverage"].number();
        defer.selective = groupFrom(d["selective_accuracy"]);
        defer.selectiveRegions = regionsFrom(d["selective_regions"], RegionScheme::ThirdsByIndex);
        report.defer = defer;
    }
}

void readFhr(const Field& fhr, EvaluationReport& report)
{
    report.fhrCurve = fhr["curve"].list<FhrSplit>(splitFrom);
    report.fhrPoints = fhr["points"].list<FhrPoint>([](const Field& entry) {
        FhrPoint point;
        point.ratio = entry["ratio"].number();
        point.split = splitFrom(entry);
        return point;
    });
    report.fhrConvention = fhr["convention"].text();
    // Reports written before the two means were named apart: recompute them.
    if (fhr.has("curve_mean")) {
        report.fhrCurveMean = fhr["curve_mean"].number();
        report.fhrPointsMean = fhr["points_mean"].number();
    } else {
        for (const auto& split : report.fhrCurve) {
            report.fhrCurveMean += split.rate / static_cast<double>(report.fhrCurve.size());
        }
        for (const auto& point : report.fhrPoints) {
            report.fhrPointsMean += point.split.rate / static_cast<double>(report.fhrPoints.size());
        }
    }
}

void readCalibration(const Field& j, EvaluationReport& report)
{
    report.calibration = calibrationFrom(j["calibration"]);
    const Field byRegion = j["calibration_by_region"];
    for (size_t r = 0; r < byRegion.size() && r < static_cast<size_t>(kRegionCount); ++r) {
        RegionCalibration region;
        region.region = static_cast<Region>(r);
        region.name = byRegion[r]["region"].text();
        region.calibration = calibrationFrom(byRegion[r]);
        report.regionCalibration.push_back(std::move(region));
    }
    report.aurocConfidence = j["auroc"]["confidence"].nullableNumber();
    report.aurocNegativeEntropy = j["auroc"]["negative_entropy"].nullableNumber();
}

void readResults(const Field& j, EvaluationReport& report)
{
    report.classCount = j["classes"].integer();
    report.imageCount = j["images"].integer();
    report.particleCount = j["particles"].integer();
    report.overall = groupFrom(j["accuracy"]);
    report.regionsThirds = regionsFrom(j["regions"]["thirds"], RegionScheme::ThirdsByIndex);
    report.regionsCounts = regionsFrom(j["regions"]["counts"], RegionScheme::ByTrainCount);
    report.perClass = j["per_class"].list<GroupAccuracy>(groupFrom);
    report.confusion = j["confusion"].list<std::vector<int64_t>>([](const Field& row) { return row.list<int64_t>(integerOf); });
    readFhr(j["fhr"], report);
    readCalibration(j, report);
    report.nll = j["nll"].number();
    report.meanUtility = j["mean_utility"].number();
    readLaterSections(j, report);
    if (j.has("warnings")) {
        report.warnings = j["warnings"].list<std::string>([](const Field& warning) { return warning.text(); });
    } else {
        report.warnings = degeneracyWarnings(report); // a report from before the flags existed
    }
}

} // namespace

EvaluationReport reportFromJson(const nlohmann::json& json, const std::string& source, const std::string& field)
{
    const Field j(json, field, source);
    EvaluationReport report;
    const Field rule = j["rule"];
    try {
        report.rule = parseDecisionRule(rule.text());
    } catch (const InputError& error) {
        throw InputError(source + ": field " + rule.path() + ": " + error.what());
    }
    try {
        readResults(j, report);
    } catch (const nlohmann::json::exception& error) {
        // Every read above is typed; this only keeps a library exception from leaving unnamed.
        throw InputError(source + ": not a valid evaluation report: " + error.what());
    }
    return report;
}

EvaluationReport reportFromFile(const nlohmann::json& file, const std::string& path)
{
    return reportFromJson(requiredField(file, "evaluation", path), path, "evaluation");
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
