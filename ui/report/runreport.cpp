#include "ui/report/runreport.h"

#include "ui/report/reportplots.h"
#include "ui/runs/configdiff.h"
#include "ui/runs/runtablemodel.h"
#include "ui/widgets/fhraxes.h"

#include "core/train/runfolder.h"
#include "core/train/runsummary.h"
#include "core/util/jsonfile.h"

#include <QDir>
#include <QFileInfo>

#include <optional>

namespace lbd::ui {
namespace {

using nlohmann::json;

QString fromStd(const std::string& text) { return QString::fromStdString(text); }

std::optional<double> numberAt(const json& object, const char* key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_number() ? std::optional<double>(it->get<double>()) : std::nullopt;
}

QString percentText(const std::optional<double>& fraction)
{
    return fraction ? QStringLiteral("%1 %").arg(100.0 * *fraction, 0, 'f', 2) : QStringLiteral("–");
}

QString numberText(const std::optional<double>& value, int decimals = 4)
{
    return value ? QString::number(*value, 'f', decimals) : QStringLiteral("–");
}

QString countText(const json& object)
{
    const auto correct = numberAt(object, "correct");
    const auto total = numberAt(object, "total");
    return correct && total ? QStringLiteral("%1 / %2").arg(*correct, 0, 'f', 0).arg(*total, 0, 'f', 0) : QStringLiteral("–");
}

const json& member(const json& object, const char* key)
{
    static const json empty = json::object();
    const auto it = object.find(key);
    return it != object.end() && it->is_object() ? *it : empty;
}

ReportTable runTable(const lbd::RunSummary& run, const json& report)
{
    ReportTable table{QObject::tr("Run"), {QObject::tr("Field"), QObject::tr("Value")}, {}, {}};
    const auto seconds = numberAt(report, "train_seconds");
    table.rows = {
        {QObject::tr("Name"), fromStd(run.name)},
        {QObject::tr("Status"), RunTableModel::statusText(run)},
        {QObject::tr("Data set"), fromStd(run.dataset)},
        {QObject::tr("Model"), QObject::tr("%1, M = %2 particles").arg(fromStd(run.model)).arg(run.particles)},
        {QObject::tr("Epochs"), QStringLiteral("%1 / %2").arg(run.epochsDone).arg(run.epochs)},
        {QObject::tr("Device"), fromStd(run.device)},
        {QObject::tr("Training utility"), RunTableModel::trainingText(run)},
        {QObject::tr("Decision"), RunTableModel::decisionText(run)},
        {QObject::tr("Training time"), seconds ? QStringLiteral("%1 s").arg(*seconds, 0, 'f', 1) : QStringLiteral("–")},
        {QObject::tr("Created"), fromStd(run.created)},
    };
    return table;
}

ReportTable accuracyTable(const json& evaluation)
{
    ReportTable table{QObject::tr("Test accuracy (the run's decision rule)"),
                      {QObject::tr("Classes"), QObject::tr("Accuracy"), QObject::tr("Correct / images")}, {}, {}};
    const json& overall = member(evaluation, "accuracy");
    table.rows << QStringList{QObject::tr("all"), percentText(numberAt(overall, "accuracy")), countText(overall)};
    const json& regions = member(evaluation, "regions");
    if (const auto thirds = regions.find("thirds"); thirds != regions.end() && thirds->is_array()) {
        for (const json& region : *thirds) {
            const QString name = region.contains("region") && region["region"].is_string() ? fromStd(region["region"].get<std::string>()) : QString();
            table.rows << QStringList{QObject::tr("%1 (thirds by class index)").arg(name), percentText(numberAt(region, "accuracy")),
                                      countText(region)};
        }
    }
    return table;
}

ReportTable fhrTable(const json& evaluation)
{
    ReportTable table{QObject::tr("False Head Rate (tail images decided as a head class)"),
                      {QObject::tr("Paper point"), QObject::tr("FHR"), QObject::tr("False heads / tail images")}, {}, {}};
    const json& fhr = member(evaluation, "fhr");
    const auto classes = numberAt(evaluation, "classes");
    if (const auto points = fhr.find("points"); points != fhr.end() && points->is_array()) {
        for (const json& point : *points) {
            const auto heads = numberAt(point, "false_heads");
            const auto tail = numberAt(point, "tail_images");
            const auto headClasses = numberAt(point, "head_classes");
            const auto ratio = numberAt(point, "ratio");
            // Named by its head, as the Tail risk page does: "tail 25 %" read as a head of 3 of 10.
            const QString name = headClasses && classes && ratio
                                     ? fhrPointName(int64_t(*headClasses), int64_t(*classes), *ratio)
                                     : percentText(ratio);
            table.rows << QStringList{name, percentText(numberAt(point, "rate")),
                                      heads && tail ? QStringLiteral("%1 / %2").arg(*heads, 0, 'f', 0).arg(*tail, 0, 'f', 0)
                                                    : QStringLiteral("–")};
        }
    }
    table.rows << QStringList{QObject::tr("curve mean (k = 1..C-1)"), percentText(numberAt(fhr, "curve_mean")), QString()};
    return table;
}

ReportTable calibrationTable(const json& evaluation)
{
    ReportTable table{QObject::tr("Calibration and selective prediction"), {QObject::tr("Measure"), QObject::tr("Value")}, {}, {}};
    const json& calibration = member(evaluation, "calibration");
    const json& auroc = member(evaluation, "auroc");
    const json& risk = member(member(evaluation, "risk_coverage"), "all");
    table.rows = {
        {QObject::tr("ECE (15 bins)"), numberText(numberAt(calibration, "ece"))},
        {QObject::tr("MCE"), numberText(numberAt(calibration, "mce"))},
        {QObject::tr("NLL (nats)"), numberText(numberAt(evaluation, "nll"))},
        {QObject::tr("AUROC (confidence)"), numberText(numberAt(auroc, "confidence"))},
        {QObject::tr("AUROC (-entropy)"), numberText(numberAt(auroc, "negative_entropy"))},
        {QObject::tr("AURC"), numberText(numberAt(risk, "aurc"))},
        {QObject::tr("Mean utility"), numberText(numberAt(evaluation, "mean_utility"))},
    };
    return table;
}

} // namespace

bool buildRunReport(const QString& runDirectory, ReportDocument* report, QString* error)
{
    try {
        const lbd::RunSummary run = lbd::readRunSummary(runDirectory.toStdString());
        const json reportJson = lbd::readJsonFile(QDir(runDirectory).filePath(QStringLiteral("report.json")).toStdString());
        const json& evaluation = member(reportJson, "evaluation");
        report->title = QObject::tr("Run report: %1").arg(fromStd(run.name.empty() ? run.folderName : run.name));
        report->folderTitle = QObject::tr("Run folder");
        report->folder = QFileInfo(runDirectory).absoluteFilePath();
        report->tables = {runTable(run, reportJson), accuracyTable(evaluation), fhrTable(evaluation), calibrationTable(evaluation)};
        ReportTable warnings{QObject::tr("Warnings of the report"), {QObject::tr("Warning")}, {}, {}};
        for (const std::string& warning : run.warnings) {
            warnings.rows << QStringList{fromStd(warning)};
        }
        if (warnings.rows.isEmpty()) {
            warnings.rows << QStringList{QObject::tr("none")};
        }
        report->tables << warnings;
        ReportTable config{QObject::tr("Configuration (config.json)"), {QObject::tr("Key"), QObject::tr("Value")}, {}, {}};
        for (const auto& [key, value] : readFlatConfig(runDirectory)) {
            config.rows << QStringList{fromStd(key), fromStd(value)};
        }
        report->tables << config;
    } catch (const std::exception& failure) {
        *error = QObject::tr("No report for %1: %2").arg(runDirectory, QString::fromUtf8(failure.what()));
        return false;
    }
    return true;
}

bool writeRunReport(const QString& runDirectory, const QString& outputDirectory, ReportFiles* files, QString* error)
{
    ReportDocument report;
    if (!buildRunReport(runDirectory, &report, error)) {
        return false;
    }
    QList<ReportPlot> plots;
    try {
        const lbd::RunFolder folder(runDirectory.toStdString());
        const std::vector<json> lines = folder.exists(lbd::RunFolder::kMetrics) ? folder.readJsonLines(lbd::RunFolder::kMetrics)
                                                                                  : std::vector<json>{};
        plots = reportPlots(lines, lbd::readJsonFile(folder.path(lbd::RunFolder::kReport)));
    } catch (const std::exception& failure) {
        *error = QObject::tr("The report was not written: %1").arg(QString::fromUtf8(failure.what()));
        return false;
    }
    return writeReportFiles(report, plots, QDir(outputDirectory).filePath(QStringLiteral("report.md")), files, error);
}

QString defaultReportDirectory(const QString& runDirectory) { return QDir(runDirectory).filePath(QStringLiteral("report")); }

} // namespace lbd::ui
