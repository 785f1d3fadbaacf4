#include "ui/runs/rundegeneracy.h"

#include "core/eval/degeneracy.h"
#include "core/eval/reportjson.h"
#include "core/infer/runresults.h"
#include "core/train/runfolder.h"

#include <nlohmann/json.hpp>

#include <QObject>

namespace lbd::ui {

std::vector<std::string> reportClassNames(const RunContext& context, int64_t classCount)
{
    std::vector<std::string> names;
    if (context.classNames.size() == classCount) {
        for (const QString& name : context.classNames) {
            names.push_back(name.toStdString());
        }
        return names;
    }
    if (!context.runDirectory.isEmpty()) {
        try {
            // A run started before the panel had read its folder: run.json (written once the engine
            // read the data, before the first epoch) names its classes.
            names = lbd::loadRunClasses(context.runDirectory.toStdString()).classNames;
        } catch (const std::exception&) {
            names.clear(); // not written (yet): indices stand in
        }
    }
    return static_cast<int64_t>(names.size()) == classCount ? names : std::vector<std::string>();
}

RunDegeneracy degeneracyOf(const lbd::EvaluationReport& report, const std::vector<std::string>& classNames)
{
    RunDegeneracy degeneracy;
    degeneracy.headline = QString::fromStdString(lbd::degeneracyHeadline(report, classNames));
    for (const std::string& warning : lbd::warningsWithClassNames(report, classNames)) {
        degeneracy.warnings << QString::fromStdString(warning);
    }
    return degeneracy;
}

RunDegeneracy readRunDegeneracy(const QString& directory)
{
    try {
        const lbd::RunFolder folder(directory.toStdString());
        if (!folder.exists(lbd::RunFolder::kReport)) {
            return {};
        }
        const lbd::EvaluationReport report =
            lbd::reportFromFile(folder.readJson(lbd::RunFolder::kReport), folder.path(lbd::RunFolder::kReport));
        RunContext context;
        context.runDirectory = directory;
        return degeneracyOf(report, reportClassNames(context, report.classCount));
    } catch (const std::exception&) {
        return {}; // the Runs page names a damaged report
    }
}

QStringList dataCheckWarnings(const QString& directory)
{
    QStringList warnings;
    try {
        const lbd::RunFolder folder(directory.toStdString());
        if (directory.isEmpty() || !folder.exists(lbd::RunFolder::kManifest)) {
            return warnings;
        }
        const nlohmann::json manifest = folder.readJson(lbd::RunFolder::kManifest);
        if (!manifest.is_object() || !manifest.contains("data_check") || !manifest["data_check"].is_object()) {
            return warnings;
        }
        const nlohmann::json& check = manifest["data_check"];
        if (check.contains("warnings") && check["warnings"].is_array()) {
            for (const auto& warning : check["warnings"]) {
                if (warning.is_string()) {
                    warnings << QString::fromStdString(warning.get<std::string>());
                }
            }
        }
    } catch (const std::exception&) {
        warnings.clear(); // a damaged run.json: the Runs page names it
    }
    return warnings;
}

QString degeneracyBannerHtml(const RunDegeneracy& degeneracy, int epoch, const QStringList& dataCheck)
{
    if (!degeneracy.degenerate()) {
        return {};
    }
    // One paragraph, so the plots below keep their room at 700 px: the warning that gave the
    // headline first, then the others; the data check's first warning and how many follow.
    QStringList warnings;
    for (const QString& warning : degeneracy.warnings) {
        if (warning.startsWith(degeneracy.headline)) {
            warnings.prepend(warning.toHtmlEscaped());
        } else {
            warnings << warning.toHtmlEscaped();
        }
    }
    QString html = QObject::tr("<b>\u26a0 Degenerate: the evaluation of epoch %1 would mislead without this.</b> %2.")
                       .arg(epoch)
                       .arg(warnings.join(QStringLiteral("; ")));
    if (!dataCheck.isEmpty()) {
        html += QLatin1Char(' ')
            + (dataCheck.size() == 1
                   ? QObject::tr("The data check warned before training: %1.").arg(dataCheck.front().toHtmlEscaped())
                   : QObject::tr("The data check warned before training: %1 (and %2 more: the run's run.json, "
                                 "data_check, lists them).")
                         .arg(dataCheck.front().toHtmlEscaped())
                         .arg(dataCheck.size() - 1));
    }
    return html;
}

} // namespace lbd::ui
