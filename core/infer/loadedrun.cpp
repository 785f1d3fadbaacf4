#include "core/infer/loadedrun.h"

#include "core/model/modelfactory.h"
#include "core/train/checkpoint.h"
#include "core/train/configjson.h"
#include "core/train/runfolder.h"
#include "core/util/error.h"

#include <filesystem>

namespace lbd {

LoadedRun loadRun(const std::string& directory, const torch::Device& device)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(directory, ec)) {
        throw InputError(directory + ": run folder not found");
    }
    const RunFolder folder(directory);
    if (!folder.exists(RunFolder::kCheckpoint)) {
        throw InputError(folder.path(RunFolder::kCheckpoint) + ": not found (is this a run folder that finished an epoch?)");
    }
    LoadedRun run;
    run.directory = directory;
    run.config = loadTrainConfig(folder.path(RunFolder::kConfig));
    run.manifest = readRunManifest(folder);
    run.modelSpec = runModelSpec(run.config, run.manifest.imageFormat.channels,
                                 static_cast<int64_t>(run.manifest.classNames.size()));
    run.decisions = openRunDecisions(run.config, run.manifest.classNames, folder.path(RunFolder::kConfig));
    run.model = makeParticleModel(run.modelSpec);
    run.epoch = loadCheckpoint(folder.path(RunFolder::kCheckpoint), *run.model, nullptr).epoch;
    run.model->to(device);
    run.model->eval();
    return run;
}

} // namespace lbd
