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
    run.model = makeParticleModel(run.modelSpec);
    try {
        run.epoch = loadCheckpoint(folder.path(RunFolder::kCheckpoint), *run.model, nullptr, run.config.train.epochs).epoch;
    } catch (const CheckpointMismatch& error) {
        // The model was built from run.json and config.json: a mismatch means one of them is not
        // this checkpoint's.
        throw InputError(std::string(error.what()) + "; " + folder.path(RunFolder::kManifest) + " names "
                         + std::to_string(run.manifest.classNames.size()) + " classes of "
                         + std::to_string(run.manifest.imageFormat.channels) + "-channel images: is it this run's?");
    }
    run.decisions = openRunDecisions(run.config, run.manifest.classNames, folder.path(RunFolder::kConfig));
    run.model->to(device);
    run.model->eval();
    return run;
}

} // namespace lbd
