#include "ui/app/recordedrun.h"

#include "core/infer/runresults.h"
#include "core/train/configjson.h"
#include "core/train/epochmetricsjson.h"
#include "core/train/runfolder.h"

#include <nlohmann/json.hpp>

namespace lbd::ui {

RecordedRun readRecordedRun(const QString& directory, int lastEpoch)
{
    RecordedRun run;
    const lbd::RunFolder folder(directory.toStdString());
    run.config = lbd::loadTrainConfig(folder.path(lbd::RunFolder::kConfig));
    if (folder.exists(lbd::RunFolder::kMetrics)) {
        for (const auto& line : folder.readJsonLines(lbd::RunFolder::kMetrics)) {
            auto metrics = lbd::epochMetricsFromJson(line);
            if (lastEpoch < 0 || metrics.epoch <= lastEpoch) {
                run.epochs.push_back(std::move(metrics));
            }
        }
    }
    return run;
}

bool readRecordedClasses(const QString& directory, RunContext& context)
{
    try {
        const lbd::RunClasses recorded = lbd::loadRunClasses(directory.toStdString());
        QStringList names;
        for (const std::string& name : recorded.classNames) {
            names << QString::fromStdString(name);
        }
        context.classNames = names;
        context.trainCounts = recorded.trainCounts;
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

} // namespace lbd::ui
