#include "core/study/studysummary.h"

#include "core/eval/evaluationreport.h"
#include "core/study/decisioncell.h"
#include "core/study/studyfolder.h"
#include "core/study/studyreportcheck.h"
#include "core/train/configjson.h"
#include "core/train/runfolder.h"
#include "core/train/runlock.h"
#include "core/util/atomicfile.h"
#include "core/util/csv.h"
#include "core/util/error.h"
#include "core/util/jsonread.h"

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

const json* find(const json& object, std::initializer_list<const char*> path)
{
    const json* node = &object;
    for (const char* key : path) {
        if (!node->is_object() || !node->contains(key)) {
            return nullptr;
        }
        node = &(*node)[key];
    }
    return node;
}

std::optional<double> number(const json* node)
{
    return node && node->is_number() ? std::optional<double>(node->get<double>()) : std::nullopt;
}

std::optional<double> regionAccuracy(const json& evaluation, const std::string& region)
{
    const json* thirds = find(evaluation, {"regions", "thirds"});
    if (!thirds || !thirds->is_array()) {
        return std::nullopt;
    }
    for (const json& entry : *thirds) {
        if (entry.is_object() && entry.value("region", "") == region) {
            return number(find(entry, {"accuracy"}));
        }
    }
    return std::nullopt;
}

std::optional<double> fhrPoint(const json& evaluation, size_t index)
{
    const json* points = find(evaluation, {"fhr", "points"});
    if (!points || !points->is_array() || points->size() <= index) {
        return std::nullopt;
    }
    return number(find((*points)[index], {"rate"}));
}

std::string fixed(double value, int decimals)
{
    std::ostringstream out;
    out << std::fixed << std::setprecision(decimals) << value;
    return out.str();
}

std::string latexEscape(const std::string& text)
{
    std::string out;
    for (const char c : text) {
        if (std::string("&%$#_{}").find(c) != std::string::npos) {
            out += '\\';
            out += c;
        } else if (c == '~' || c == '^' || c == '\\') {
            out += c == '\\' ? "\\textbackslash{}" : std::string("\\") + c + "{}";
        } else {
            out += c;
        }
    }
    return out;
}

std::string markdownEscape(const std::string& text)
{
    std::string out;
    for (const char c : text) {
        out += c == '|' ? std::string("\\|") : std::string(1, c);
    }
    return out;
}

std::vector<const StudyMetric*> columns(const StudySummary& summary)
{
    std::vector<const StudyMetric*> out;
    for (const std::string& key : summary.metricKeys) {
        out.push_back(&studyMetric(key));
    }
    return out;
}

std::string header(const StudyMetric& metric)
{
    return metric.title + (metric.unit.empty() ? "" : " (" + metric.unit + ")") + (metric.higherIsBetter ? " ↑" : " ↓");
}

} // namespace

const std::vector<StudyMetric>& studyMetrics()
{
    static const std::vector<StudyMetric> metrics = {
        {"accuracy", "Accuracy", "%", 100, 2, true, "Top-1 accuracy on the test set under the run's decision rule."},
        {"head", "Head acc.", "%", 100, 2, true, "Accuracy on the head third of the classes (most training images)."},
        {"med", "Med acc.", "%", 100, 2, true, "Accuracy on the middle third of the classes."},
        {"tail", "Tail acc.", "%", 100, 2, true, "Accuracy on the tail classes (the rest, fewest training images)."},
        {"fhr_25", "FHR@0.25", "%", 100, 2, false, "False Head Rate: share of tail images decided as one of the top 25 % of classes."},
        {"fhr_50", "FHR@0.5", "%", 100, 2, false, "False Head Rate with the top half of the classes as the head."},
        {"fhr_75", "FHR@0.75", "%", 100, 2, false, "False Head Rate with the top 75 % of the classes as the head."},
        {"fhr_curve", "FHR curve mean", "%", 100, 2, false, "The False Head Rate averaged over every head size 1..C-1."},
        {"ece", "ECE", "%", 100, 2, false, "Our expected calibration error: 15 bins of the decided class's ensemble probability pbar (lbd-math.md section 6)."},
        {"auroc", "AUROC", "%", 100, 2, true, "How well the confidence separates right from wrong decisions (area under ROC)."},
        {"ece_published", "ECE (published)", "%", 100, 2, false,
         "The published code's ECE: 10 bins of 1 - entropy of softmax(mean logits), divided by every image (lbd-math.md section 6)."},
        {"auroc_published", "AUROC (published)", "%", 100, 2, true,
         "The published code's AUC: ROC AUC of (correct, 1 - entropy of softmax(mean logits)) for the mean-logit decision."},
        {"accuracy_published", "Accuracy (mean-logit)", "%", 100, 2, true,
         "Top-1 accuracy of the published code's decision, argmax of the mean particle logits."},
        {"nll", "NLL", "", 1, 3, false, "Negative log-likelihood of the true class under the ensemble's mean probability."},
        {"aurc", "AURC", "%", 100, 2, false, "Area under the risk-coverage curve (lower: confident decisions are right)."},
        {"train_seconds", "Train time", "s", 1, 0, false, "Wall-clock training time of the run."},
    };
    return metrics;
}

const StudyMetric& studyMetric(const std::string& key)
{
    for (const StudyMetric& metric : studyMetrics()) {
        if (metric.key == key) {
            return metric;
        }
    }
    std::string known;
    for (const StudyMetric& metric : studyMetrics()) {
        known += (known.empty() ? "" : ", ") + metric.key;
    }
    throw InputError("unknown study metric '" + key + "' (known: " + known + ")");
}

std::optional<double> reportMetric(const json& report, const std::string& key)
{
    if (key == "train_seconds") {
        return number(find(report, {"train_seconds"}));
    }
    const json* evaluation = find(report, {"evaluation"});
    if (!evaluation) {
        return std::nullopt;
    }
    const json& e = *evaluation;
    if (key == "accuracy") return number(find(e, {"accuracy", "accuracy"}));
    if (key == "head" || key == "med" || key == "tail") return regionAccuracy(e, key);
    if (key == "fhr_25") return fhrPoint(e, 0);
    if (key == "fhr_50") return fhrPoint(e, 1);
    if (key == "fhr_75") return fhrPoint(e, 2);
    if (key == "fhr_curve") return number(find(e, {"fhr", "curve_mean"}));
    if (key == "ece") return number(find(e, {"calibration", "ece"}));
    if (key == "auroc") return number(find(e, {"auroc", "confidence"}));
    if (key == "ece_published") return number(find(e, {"published", "ece"}));
    if (key == "auroc_published") return number(find(e, {"published", "auroc"}));
    if (key == "accuracy_published") return number(find(e, {"published", "accuracy"}));
    if (key == "nll") return number(find(e, {"nll"}));
    if (key == "aurc") return number(find(e, {"risk_coverage", "all", "aurc"}));
    studyMetric(key); // throws for an unknown key
    return std::nullopt;
}

double studentT975(int df)
{
    // Two-sided 95 % quantiles of Student's t (df 1..30); beyond, the normal 1.96 is within 2 %.
    static const double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                   2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                   2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (df < 1) {
        return kNaN;
    }
    return df <= 30 ? table[df - 1] : 1.96;
}

SampleSummary summarizeSample(const std::vector<double>& values)
{
    SampleSummary s;
    s.values = values;
    s.n = static_cast<int>(values.size());
    if (s.n == 0) {
        s.mean = s.std = s.low = s.high = kNaN;
        return s;
    }
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / s.n;
    if (s.n < 2) {
        s.std = s.low = s.high = kNaN;
        return s;
    }
    double squares = 0;
    for (const double v : values) {
        squares += (v - s.mean) * (v - s.mean);
    }
    s.std = std::sqrt(squares / (s.n - 1));
    const double half = studentT975(s.n - 1) * s.std / std::sqrt(static_cast<double>(s.n));
    s.low = s.mean - half;
    s.high = s.mean + half;
    return s;
}

std::string stateName(StudyRunState state)
{
    switch (state) {
    case StudyRunState::Pending: return "pending";
    case StudyRunState::Running: return "running";
    case StudyRunState::Stopped: return "stopped";
    case StudyRunState::Failed: return "failed";
    case StudyRunState::Finished: return "finished";
    }
    return "pending";
}

StudyRunStatus inspectStudyRun(const std::string& runDirectory)
{
    StudyRunStatus status;
    const RunFolder folder(runDirectory);
    if (!folder.exists(RunFolder::kStatus)) {
        return status;
    }
    std::string state;
    try {
        // Typed: a status.json edited into the wrong types is a damaged run, named as such, never
        // nlohmann's raw "type_error.306" escaping as exit 1.
        const RunStatus file = readRunStatus(folder);
        state = file.state;
        status.epochsDone = file.epochsDone;
        status.epochs = file.epochs;
        status.message = file.message;
    } catch (const InputError& error) {
        status.state = StudyRunState::Failed;
        status.message = error.what();
        return status;
    }
    if (state == "finished") {
        // The report is the last file a run writes (after its weights and test probabilities):
        // without it the run did not complete and is resumed; with it, every number is there, and
        // model files that are missing were removed or not copied since.
        status.state = folder.exists(RunFolder::kReport) ? StudyRunState::Finished : StudyRunState::Stopped;
        status.modelFilesMissing = status.state == StudyRunState::Finished
            && !(folder.exists(RunFolder::kTestProbabilities) && folder.exists(RunFolder::kWeights));
    } else if (state == "failed") {
        status.state = StudyRunState::Failed;
    } else if (state == "running") {
        status.state = RunLock::holder(runDirectory) ? StudyRunState::Running : StudyRunState::Stopped;
    } else {
        status.state = StudyRunState::Stopped;
    }
    return status;
}

namespace {

// "Every cell: protocol paper-standard, decided by mean-logit." (or one line per cell when they
// differ), then the definitions of the calibration metrics the table shows.
std::vector<std::string> protocolNotes(const ResolvedStudy& study, const std::vector<std::string>& metricKeys)
{
    std::vector<std::pair<std::string, std::string>> perCell;
    for (const StudyCell& cell : study.cells) {
        if (cell.decisionOnly()) {
            continue; // its own note, after the runs are read (decisionNotes)
        }
        std::string text;
        try {
            const TrainConfig config = trainConfigFromJson(cell.config, "cell");
            text = "protocol " + protocolName(config.protocol) + ", decided by " + decisionRuleName(config.decision.rule);
            if (config.protocol == Protocol::App) {
                text += " with the decision matrix " + config.decision.utility.describe() + " (training utility "
                    + config.objective.utility.describe() + ")";
            }
        } catch (const InputError& error) {
            text = std::string("config not readable: ") + error.what();
        }
        perCell.emplace_back(cell.label, text);
    }
    std::vector<std::string> notes;
    const bool same = std::all_of(perCell.begin(), perCell.end(), [&](const auto& cell) { return cell.second == perCell.front().second; });
    if (same && !perCell.empty()) {
        notes.push_back((perCell.size() < study.cells.size() ? "Every trained cell: " : "Every cell: ") + perCell.front().second + ".");
    } else {
        for (const auto& [label, text] : perCell) {
            notes.push_back(label + ": " + text + ".");
        }
    }
    const auto shows = [&](const char* key) { return std::find(metricKeys.begin(), metricKeys.end(), key) != metricKeys.end(); };
    if (shows("ece") || shows("auroc")) {
        notes.push_back(std::string("ECE / AUROC, ") + kOurCalibrationDefinition + ".");
    }
    if (shows("ece_published") || shows("auroc_published") || shows("accuracy_published")) {
        notes.push_back(std::string("ECE (published) / AUROC (published) / Accuracy (mean-logit), ") + kPublishedMetricsDefinition + ".");
    }
    return notes;
}

// "† CE + post-hoc logit adjustment: decision only (nothing trained): ...".
void addDecisionNotes(StudySummary& summary)
{
    for (const CellSummary& cell : summary.cells) {
        if (cell.decidedFrom.empty()) {
            continue;
        }
        std::string text = "† " + cell.label + ": decision only (nothing trained, no train time): the finished runs of "
            + cell.decidedFrom + " re-decided with " + cell.decision;
        if (!cell.decisions.empty()) {
            text += " (";
            for (size_t i = 0; i < cell.decisions.size(); ++i) {
                text += (i ? "; " : "") + cell.decisions[i];
            }
            text += ")";
        }
        summary.protocolNotes.push_back(text + ".");
    }
}

// "seed 0: prior:0.75 (tau tuned on validation)" from a decision-only run's report.json.
std::string decidedWith(const json& report, const std::string& seed)
{
    const json* utility = find(report, {"utility"});
    const bool tuned = find(report, {"tuning"}) != nullptr;
    return seed + ": " + (utility && utility->is_string() ? utility->get<std::string>() : "?")
        + (tuned ? " (tau tuned on validation)" : "");
}

} // namespace

StudySummary summarizeStudy(const ResolvedStudy& study, const std::string& studyDirectory)
{
    StudySummary summary;
    summary.name = study.spec.name;
    summary.title = study.spec.title;
    summary.paperTable = study.spec.paperTable;
    summary.claim = study.spec.claim;
    summary.seeds = study.seeds;
    for (const StudyFactor& factor : study.spec.factors) {
        summary.factorNames.push_back(factor.name);
    }
    if (study.spec.metrics.empty()) {
        for (const StudyMetric& metric : studyMetrics()) {
            summary.metricKeys.push_back(metric.key);
        }
    } else {
        for (const std::string& key : study.spec.metrics) {
            summary.metricKeys.push_back(studyMetric(key).key);
        }
    }
    for (const StudyCell& cell : study.cells) {
        summary.cells.push_back({cell.id, cell.label, cell.levelLabels, 0, 0, {}, {}, {}});
        if (cell.decisionOnly()) {
            summary.cells.back().decidedFrom = study.cells[cell.decideFrom].label;
            summary.cells.back().decision = describeDecision(cell.decision);
        }
    }
    summary.protocolNotes = protocolNotes(study, summary.metricKeys);
    const auto failures = readStudyFailures(studyDirectory);
    std::vector<std::map<std::string, std::vector<double>>> values(study.cells.size());
    std::vector<std::map<int, std::vector<double>>> curves(study.cells.size());
    for (const StudyRunRef& run : study.runs) {
        CellSummary& cell = summary.cells[run.cell];
        ++cell.runs;
        const std::string directory = (std::filesystem::path(studyDirectory) / run.directory).string();
        const StudyRunStatus status = inspectStudyRun(directory);
        const std::string seed = "seed " + std::to_string(run.seed);
        if (status.state != StudyRunState::Finished) {
            if (status.state == StudyRunState::Failed) {
                cell.problems.push_back(seed + ": failed: " + status.message);
            } else if (const auto failure = failures.find(run.directory); failure != failures.end()) {
                cell.problems.push_back(seed + ": failed: " + failure->second);
            }
            continue;
        }
        json report;
        try {
            report = RunFolder(directory).readJson(RunFolder::kReport);
        } catch (const InputError& error) {
            cell.problems.push_back(seed + ": " + error.what());
            continue;
        }
        checkStudyReport(report, RunFolder(directory).path(RunFolder::kReport)); // or exit 2 naming the field
        ++cell.finished;
        if (!cell.decidedFrom.empty()) {
            cell.decisions.push_back(decidedWith(report, seed));
        }
        for (const StudyMetric& metric : studyMetrics()) {
            if (const auto value = reportMetric(report, metric.key); value && std::isfinite(*value)) {
                values[run.cell][metric.key].push_back(*value);
            }
        }
        if (const json* curve = find(report, {"evaluation", "fhr", "curve"}); curve && curve->is_array()) {
            for (const json& point : *curve) {
                if (const auto rate = number(find(point, {"rate"})); rate && point.contains("head_classes")) {
                    curves[run.cell][point["head_classes"].get<int>()].push_back(*rate);
                }
            }
        }
    }
    for (size_t c = 0; c < summary.cells.size(); ++c) {
        for (const StudyMetric& metric : studyMetrics()) {
            summary.cells[c].metrics[metric.key] = summarizeSample(values[c][metric.key]);
        }
        for (const auto& [headClasses, rates] : curves[c]) {
            summary.cells[c].fhrCurve.push_back({headClasses, summarizeSample(rates)});
        }
    }
    addDecisionNotes(summary);
    summary.verdicts = studyClaimVerdicts(study, studyDirectory);
    return summary;
}

namespace {

json sampleJson(const SampleSummary& s)
{
    const auto finite = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
    return {{"n", s.n}, {"mean", finite(s.mean)}, {"std", finite(s.std)}, {"ci95_low", finite(s.low)},
            {"ci95_high", finite(s.high)}, {"values", s.values}};
}

} // namespace

json toJson(const StudySummary& summary)
{
    json cells = json::array();
    for (const CellSummary& cell : summary.cells) {
        json metrics = json::object();
        for (const auto& [key, sample] : cell.metrics) {
            metrics[key] = sampleJson(sample);
        }
        json curve = json::array();
        for (const FhrCurvePoint& point : cell.fhrCurve) {
            json entry = sampleJson(point.rate);
            entry["head_classes"] = point.headClasses;
            curve.push_back(entry);
        }
        cells.push_back({{"id", cell.id}, {"label", cell.label}, {"levels", cell.levelLabels}, {"runs", cell.runs},
                         {"finished", cell.finished}, {"problems", cell.problems}, {"metrics", metrics},
                         {"fhr_curve", curve}});
        if (!cell.decidedFrom.empty()) {
            cells.back()["decision_only"] = {{"decided_from", cell.decidedFrom}, {"decision", cell.decision},
                                             {"per_seed", cell.decisions}};
        }
    }
    return {{"study", summary.name}, {"title", summary.title}, {"paper_table", summary.paperTable},
            {"claim", summary.claim}, {"factors", summary.factorNames}, {"seeds", summary.seeds},
            {"columns", summary.metricKeys}, {"interval", "95 % Student-t interval of the mean over seeds"},
            {"protocol_notes", summary.protocolNotes},
            {"cells", cells}, {"verdicts", toJson(summary.verdicts)}};
}

std::string formatMeanStd(const SampleSummary& sample, const StudyMetric& metric)
{
    if (sample.n == 0) {
        return "–";
    }
    std::string text = fixed(sample.mean * metric.scale, metric.decimals);
    if (sample.n >= 2) {
        text += " ± " + fixed(sample.std * metric.scale, metric.decimals);
    }
    return text;
}

std::string markdownTable(const StudySummary& summary)
{
    const auto metrics = columns(summary);
    std::ostringstream out;
    out << "| " << markdownEscape(summary.factorNames.size() == 1 ? summary.factorNames[0] : "cell") << " | seeds |";
    for (const StudyMetric* metric : metrics) {
        out << ' ' << header(*metric) << " |";
    }
    out << "\n|---|---:|";
    for (size_t i = 0; i < metrics.size(); ++i) {
        out << "---:|";
    }
    out << '\n';
    for (const CellSummary& cell : summary.cells) {
        out << "| " << markdownEscape(cell.label) << (cell.decidedFrom.empty() ? "" : " †") << " | " << cell.finished << '/' << cell.runs << " |";
        for (const StudyMetric* metric : metrics) {
            out << ' ' << formatMeanStd(cell.metrics.at(metric->key), *metric) << " |";
        }
        out << '\n';
    }
    out << "\nMean ± sample standard deviation over the finished seeds (n shown as finished/planned).\n";
    for (const std::string& note : summary.protocolNotes) {
        out << "\n" << markdownEscape(note) << '\n';
    }
    for (const CellSummary& cell : summary.cells) {
        for (const std::string& problem : cell.problems) {
            out << "\n- " << markdownEscape(cell.label) << ", " << markdownEscape(problem);
        }
    }
    return out.str() + claimVerdictsMarkdown(summary.verdicts);
}

std::string csvTable(const StudySummary& summary)
{
    const auto metrics = columns(summary);
    std::ostringstream out;
    out << "cell,label";
    for (const std::string& factor : summary.factorNames) {
        out << ',' << quoteCsvField(factor);
    }
    out << ",runs,finished";
    for (const StudyMetric* metric : metrics) {
        for (const char* part : {"mean", "std", "ci95_low", "ci95_high", "n"}) {
            out << ',' << metric->key << '_' << part;
        }
    }
    out << '\n';
    const auto cellValue = [](double v) { return std::isfinite(v) ? fixed(v, 6) : std::string(); };
    for (const CellSummary& cell : summary.cells) {
        out << quoteCsvField(cell.id) << ',' << quoteCsvField(cell.label);
        for (const std::string& level : cell.levelLabels) {
            out << ',' << quoteCsvField(level);
        }
        out << ',' << cell.runs << ',' << cell.finished;
        for (const StudyMetric* metric : metrics) {
            const SampleSummary& s = cell.metrics.at(metric->key);
            out << ',' << cellValue(s.mean) << ',' << cellValue(s.std) << ',' << cellValue(s.low) << ','
                << cellValue(s.high) << ',' << s.n;
        }
        out << '\n';
    }
    return out.str();
}

std::string latexTable(const StudySummary& summary)
{
    const auto metrics = columns(summary);
    std::ostringstream out;
    out << "% " << summary.title << " (LBD Studio study '" << summary.name << "')\n";
    out << "% needs \\usepackage{booktabs}; mean $\\pm$ sample std over seeds\n";
    out << "\\begin{tabular}{l" << std::string(metrics.size(), 'r') << "}\n\\toprule\n";
    out << latexEscape(summary.factorNames.size() == 1 ? summary.factorNames[0] : "Cell");
    for (const StudyMetric* metric : metrics) {
        out << " & " << latexEscape(metric->title) << (metric->unit.empty() ? "" : " (" + latexEscape(metric->unit) + ")")
            << (metric->higherIsBetter ? " $\\uparrow$" : " $\\downarrow$");
    }
    out << " \\\\\n\\midrule\n";
    for (const CellSummary& cell : summary.cells) {
        out << latexEscape(cell.label) << (cell.decidedFrom.empty() ? "" : "$^\\dagger$");
        for (const StudyMetric* metric : metrics) {
            const SampleSummary& s = cell.metrics.at(metric->key);
            out << " & ";
            if (s.n == 0) {
                out << "--";
            } else {
                out << '$' << fixed(s.mean * metric->scale, metric->decimals);
                if (s.n >= 2) {
                    out << " \\pm " << fixed(s.std * metric->scale, metric->decimals);
                }
                out << '$';
            }
        }
        out << " \\\\\n";
    }
    out << "\\bottomrule\n\\end{tabular}\n";
    return out.str();
}

void writeStudyResults(const StudySummary& summary, const std::string& studyDirectory)
{
    const std::filesystem::path results = std::filesystem::path(studyDirectory) / "results";
    std::error_code ec;
    std::filesystem::create_directories(results, ec);
    if (ec) {
        throw RunError(fileErrorMessage(results.string(), ec.value()));
    }
    std::string title = "# " + (summary.title.empty() ? summary.name : summary.title) + "\n\n";
    if (!summary.paperTable.empty()) {
        title += "Reproduces: " + summary.paperTable + ". ";
    }
    if (!summary.claim.empty()) {
        title += "The paper's claim: " + summary.claim;
    }
    writeFileAtomically((results / "summary.json").string(), toJson(summary).dump(2) + "\n");
    writeFileAtomically((results / "table.md").string(), title + "\n\n" + markdownTable(summary) + "\n");
    writeFileAtomically((results / "table.csv").string(), csvTable(summary));
    writeFileAtomically((results / "table.tex").string(), latexTable(summary));
}

} // namespace lbd
