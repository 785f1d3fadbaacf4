// `lbd train`: train an LBD particle ensemble from a preset, a config file and/or flags.
#include "app/cli/commands.h"
#include "app/cli/progressbar.h"
#include "app/cli/reportprinter.h"
#include "app/cli/trainoptions.h"

#include "core/train/configjson.h"
#include "core/train/presets.h"
#include "core/train/runfolder.h"
#include "core/train/trainer.h"
#include "core/util/error.h"

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace lbd::cli {
namespace {

TrainingControl* g_control = nullptr;

void onInterrupt(int)
{
    if (g_control) {
        g_control->stopRequested = true; // the trainer stops after this batch, keeping the checkpoint
    }
}

std::string defaultRunsRoot()
{
    if (const char* env = std::getenv("LBD_RUNS_DIR"); env && *env) {
        return env;
    }
    const char* home = std::getenv("HOME");
    return std::string(home && *home ? home : ".") + "/LBDStudio/runs";
}

} // namespace

int runTrain(Args& args)
{
    if (args.flag("list-presets")) {
        args.rejectUnknown();
        for (const auto& preset : listPresets()) {
            std::cout << preset.name << "\n    " << preset.description << "\n";
        }
        return 0;
    }
    const auto resumeDirectory = args.value("resume");
    const bool quiet = args.flag("quiet");
    const auto out = args.value("out");
    const std::string runsRoot = args.value("runs-dir", defaultRunsRoot());
    TrainConfig config;
    std::string directory;
    if (resumeDirectory) {
        directory = *resumeDirectory;
        args.rejectUnknown();
    } else {
        const nlohmann::json json = trainConfigJsonFromArgs(args);
        args.rejectUnknown();
        config = trainConfigFromJson(json, "config");
        directory = out ? *out : newRunDirectory(runsRoot, config.name);
        std::error_code ec;
        if (std::filesystem::exists(std::filesystem::path(directory) / RunFolder::kCheckpoint, ec)) {
            throw InputError(directory + ": already holds a run (use --resume " + directory + " or another --out)");
        }
    }

    Trainer trainer(config, directory, resumeDirectory.has_value());
    ProgressBar progress(quiet);
    TrainingCallbacks callbacks;
    callbacks.onBatch = [&](const BatchProgress& p) { progress.batch(p); };
    callbacks.onEpoch = [&](const EpochMetrics& m) { progress.epoch(m); };
    callbacks.onMessage = [&](const std::string& text) {
        if (text.rfind("warning: ", 0) == 0) {
            std::cerr << "lbd train: " << text << '\n'; // a setting that can give a degenerate result
        } else {
            progress.message(text);
        }
    };
    TrainingControl control;
    g_control = &control;
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    progress.message("run folder: " + directory);
    const TrainingResult result = trainer.run(callbacks, &control);
    g_control = nullptr;
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);

    if (result.alreadyFinished) {
        std::cout << "nothing to do: " << directory << " already finished all " << result.epochsCompleted
                  << " epochs (lbd eval " << directory << " shows its results)\n";
        return 0;
    }
    if (result.finalReport) {
        const RunFolder folder(directory);
        const auto manifest = folder.readJson(RunFolder::kManifest);
        printReport(std::cout, *result.finalReport, manifest.at("class_names").get<std::vector<std::string>>(),
                    "test set after " + std::to_string(result.epochsCompleted) + " epochs");
        for (const std::string& warning : result.finalReport->warnings) {
            std::cerr << "lbd train: warning: " << warning << '\n';
        }
    }
    if (!result.stopped) {
        std::cout << "run folder: " << directory << '\n';
    } else if (result.checkpointEpoch > 0) {
        std::cout << "stopped; lbd train --resume " << directory << " continues after epoch " << result.checkpointEpoch
                  << " (its checkpoint)\n";
    } else {
        std::cout << "stopped before the first checkpoint: " << directory << " cannot be resumed\n";
    }
    return result.stopped ? 130 : 0;
}

} // namespace lbd::cli
