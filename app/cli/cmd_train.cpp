// `lbd train`: train an LBD particle ensemble from a preset, a config file and/or options.
#include "app/cli/command.h"
#include "core/util/jsonfile.h"
#include "app/cli/configflags.h"
#include "app/cli/progressbar.h"
#include "app/cli/ranklauncher.h"
#include "app/cli/reportprinter.h"

#include "core/eval/reportjson.h"
#include "core/data/datapreparation.h"
#include "core/train/configjson.h"
#include "core/train/presets.h"
#include "core/train/runfolder.h"
#include "core/train/runsroot.h"
#include "core/train/schedulefit.h"
#include "core/train/trainer.h"
#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/scratchfolder.h"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>

#include <unistd.h>

namespace lbd::cli {
namespace {

TrainingControl* g_control = nullptr;
std::atomic<int> g_signals{0};

// SIGINT / SIGTERM are honoured at any moment: inside the epoch loop the first one stops the run
// after the current batch (keeping the checkpoint, exit 130); during set-up or evaluation, or at a
// second signal, the process ends at once with 130 (every file it writes is atomic).
void onInterrupt(int)
{
    const int count = ++g_signals;
    if (count == 1 && g_control && g_control->inEpochLoop.load()) {
        g_control->stopRequested = true;
        return;
    }
    _exit(130);
}

struct TrainOptions {
    std::string preset;
    std::string config;
    std::string out;
    std::string runsDir;
    std::string resume;
    bool quiet = false;
    bool json = false;
    bool listPresets = false;
    int processes = 1;
    int gpus = 0;
    ConfigFlags flags;
    CLI::Option* seed = nullptr;
    CLI::Option* trainSeed = nullptr;
    CLI::Option* baseline = nullptr;
    std::string baselineName;
};

nlohmann::json configJson(const TrainOptions& o)
{
    nlohmann::json config;
    if (!o.config.empty()) {
        config = readJsonFile(o.config);
        // The file on its own first: an invalid value in it is an error even where a flag would
        // override it (a config that fails alone must not train by luck), and the message names
        // the file rather than a merged whole.
        try {
            trainConfigFromJson(config, "the file");
        } catch (const InputError& error) {
            throw InputError(o.config + ": " + error.what());
        }
    } else {
        config = loadPresetJson(o.preset.empty() ? "quick-cpu" : o.preset);
    }
    nlohmann::json patch = o.flags.patch();
    // --seed draws the split and, unless --train-seed says otherwise, seeds the training too.
    if (o.seed->count() > 0 && o.trainSeed->count() == 0 && !o.flags.given("train.seed")) {
        patch["train"]["seed"] = patch["data"]["seed"];
    }
    // --baseline replaces what the method defines (and the particle count, unless --particles is
    // given too); the preset's other values (alpha, tau, the utility, ...) stay.
    if (o.baseline->count() > 0) {
        setBaselineInConfigJson(config, o.baselineName, o.flags.given("model.particles"));
    }
    if (const auto note = mergeOverrides(config, patch)) {
        std::cerr << "lbd train: " << *note << "\n";
    }
    return config;
}

// A preset's long tail and name are its own data set's: on a user's folder or list the data is
// trained as given (profile none) unless --profile or --imbalance-ratio asks for a long tail, and
// the run is named after the data ("digits-folder-...") unless --set name=... names it.
void useOwnDataAsGiven(const TrainOptions& o, TrainConfig& config)
{
    if (!config.data.isUsersOwnImages()) {
        return;
    }
    if (!o.flags.given("data.profile") && !o.flags.given("data.imbalance_ratio")) {
        config.data.useAsGiven();
    }
    if (!o.flags.given("name")) {
        config.name = config.data.runName();
    }
    // A preset's epochs on a small folder are too few steps to learn (schedulefit.h): stretch
    // them, unless --epochs says how many, and say so.
    if (!o.flags.given("train.epochs")) {
        const PreparedData data = prepareData(config.data);
        const int64_t images = std::accumulate(data.trainCounts.begin(), data.trainCounts.end(), int64_t(0));
        const int epochs = epochsForSmallData(config.train.epochs, images, config.train.batchSize);
        if (epochs != config.train.epochs) {
            std::cerr << "lbd train: " << images << " training images: " << config.train.epochs << " epochs would be "
                      << config.train.epochs * ((images + config.train.batchSize - 1) / config.train.batchSize)
                      << " optimizer steps; training " << epochs << " epochs (at least " << kMinTrainingSteps
                      << " steps), the schedule stretched alike (--epochs N sets them)\n";
            stretchSchedule(config, epochs);
        }
    }
}

int printPresets()
{
    for (const auto& preset : listPresets()) {
        std::cout << preset.name << "\n    " << preset.description << "\n";
    }
    return 0;
}

// --resume RUN [--epochs N]: the run's own config.json; only the epoch count may grow.
std::string prepareResume(const TrainOptions& o)
{
    for (const std::string& key : o.flags.givenKeys()) {
        if (key != "train.epochs") {
            throw InputError("--resume continues the run with its own config.json; only --epochs can change (got a value "
                             "for " + key + ")");
        }
    }
    if (!o.preset.empty() || !o.config.empty() || !o.out.empty() || o.baseline->count() > 0) {
        throw InputError("--resume cannot be combined with --preset, --config, --out or --baseline");
    }
    if (o.flags.given("train.epochs")) {
        const RunFolder folder(o.resume);
        TrainConfig config = loadTrainConfig(folder.path(RunFolder::kConfig));
        const int epochs = o.flags.patch()["train"]["epochs"].get<int>();
        const int done = folder.exists(RunFolder::kStatus) ? readRunStatus(folder).checkpointEpoch : 0;
        if (epochs < done) {
            throw InputError("--epochs " + std::to_string(epochs) + ": the run already trained " + std::to_string(done)
                             + " epochs");
        }
        config.train.epochs = epochs;
        config.validate();
        folder.writeJson(RunFolder::kConfig, toJson(config));
    }
    return o.resume;
}

// A rank other than 0 trains in a scratch folder of its own (rank 0 owns the run folder,
// trainingsession.h). Ranks that `lbd` launched make it in their launcher's folder
// (LBD_RANK_SCRATCH_ROOT), which the launcher removes also when a rank was killed.
std::filesystem::path rankScratchParent()
{
    const char* launcherFolder = std::getenv("LBD_RANK_SCRATCH_ROOT");
    return launcherFolder != nullptr && launcherFolder[0] != '\0' ? std::filesystem::path(launcherFolder)
                                                                  : std::filesystem::path();
}

int runTrain(TrainOptions& o)
{
    if (o.listPresets) {
        return printPresets();
    }
    if (const auto status = launchRanksIfAsked(o.processes, o.gpus, static_cast<int>(torch::cuda::device_count()))) {
        return *status;
    }
    const DistributedSpec distributed = distributedSpecFromEnvironment();
    if (distributed.enabled() && std::getenv("RANK") == nullptr) {
        // Said once per rank, so that a job step read wrongly (a task per node, not per GPU) is seen.
        std::cerr << "lbd train: rank " << distributed.rank << " of " << distributed.worldSize << ", GPU " << distributed.localRank
                  << " on this machine, from SLURM's SLURM_PROCID, SLURM_NTASKS and SLURM_LOCALID (RANK and WORLD_SIZE "
                     "are not set)\n";
    }
    static TrainingControl control;
    g_control = &control;
    std::signal(SIGINT, onInterrupt); // from before the set-up, which can take long (a large model)
    std::signal(SIGTERM, onInterrupt);
    TrainConfig config;
    std::string directory;
    const bool resume = !o.resume.empty();
    if (resume) {
        directory = prepareResume(o);
    } else {
        config = trainConfigFromJson(configJson(o), o.config.empty() ? "preset" : o.config);
        if (!config.model.initFrom.empty()) { // recorded absolute: config.json reruns from anywhere
            config.model.initFrom = std::filesystem::absolute(config.model.initFrom).lexically_normal().string();
        }
        if (o.config.empty()) {
            useOwnDataAsGiven(o, config);
        }
        directory = !o.out.empty() ? o.out : newRunDirectory(o.runsDir.empty() ? defaultRunsRoot() : o.runsDir, config.name);
        std::error_code ec;
        if (std::filesystem::exists(std::filesystem::path(directory) / RunFolder::kCheckpoint, ec)) {
            throw InputError(directory + ": already holds a run (use --resume " + directory + " or another --out)");
        }
    }

    std::optional<ScratchFolder> scratch;
    if (distributed.rank > 0) {
        // Rank 0's config (a resumed run's, with --epochs applied as rank 0 applies it), trained in
        // a scratch folder; rank 0 sends its state when training starts.
        if (resume) {
            config = loadTrainConfig(RunFolder(directory).path(RunFolder::kConfig));
            if (o.flags.given("train.epochs")) {
                config.train.epochs = o.flags.patch()["train"]["epochs"].get<int>();
            }
        }
        scratch.emplace("lbd-rank-" + std::to_string(distributed.rank), rankScratchParent());
        directory = scratch->path();
    }
    Trainer trainer(config, directory, resume && distributed.rank == 0);
    trainer.setDistributed(distributed);
    ProgressBar progress(o.quiet);
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
    progress.message("run folder: " + directory);
    const TrainingResult result = trainer.run(callbacks, g_control);
    g_control = nullptr;
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);

    if (distributed.rank > 0) {
        return result.stopped ? 130 : 0; // rank 0 reports the run
    }
    if (result.alreadyFinished) {
        std::cerr << "nothing to do: " << directory << " already finished all " << result.epochsCompleted
                  << " epochs (lbd eval " << directory << " shows its results)\n";
        return 0;
    }
    if (result.finalReport) {
        const RunFolder folder(directory);
        if (o.json) {
            std::cout << folder.readJson(RunFolder::kReport).dump(2) << '\n';
        } else {
            const auto manifest = folder.readJson(RunFolder::kManifest);
            printReport(std::cout, *result.finalReport, manifest.at("class_names").get<std::vector<std::string>>(),
                        "test set after " + std::to_string(result.epochsCompleted) + " epochs");
        }
        for (const std::string& warning : result.finalReport->warnings) {
            std::cerr << "lbd train: warning: " << warning << '\n';
        }
    }
    std::ostream& said = o.json ? std::cerr : std::cout;
    if (!result.stopped) {
        said << "run folder: " << directory << '\n';
    } else if (result.checkpointEpoch > 0) {
        said << "stopped; lbd train --resume " << directory << " continues after epoch " << result.checkpointEpoch
             << " (its checkpoint)\n";
    } else {
        said << "stopped before the first checkpoint: " << directory << " cannot be resumed\n";
    }
    return result.stopped ? 130 : 0;
}

} // namespace

Command addTrainCommand(CLI::App& lbd)
{
    auto o = std::make_shared<TrainOptions>();
    CLI::App* c = lbd.add_subcommand("train", "train an LBD particle ensemble from a preset, a config file and options");
    c->footer("Every config key can be set with --set KEY=VALUE; the options above are shortcuts for the common ones.\n"
              "Exit status: 0 trained, 1 the run failed (the last good checkpoint is kept), 2 bad input, 130 stopped "
              "(--resume RUN continues from the last checkpoint).");
    const std::string run = "Run";
    auto* preset = c->add_option("--preset", o->preset, "start from a shipped preset (lbd train --list-presets)")->group(run);
    choices(preset, [] {
        std::vector<std::string> names;
        for (const auto& p : listPresets()) {
            names.push_back(p.name);
        }
        return names;
    }());
    c->add_option("--config", o->config, "start from a config file (a run's config.json reruns it)")
        ->group(run)
        ->type_name("FILE")
        ->excludes(preset);
    c->add_option("--out", o->out, "the run folder (default: a new folder under the runs folder)")->group(run)->type_name("DIR");
    c->add_option("--runs-dir", o->runsDir, "the runs folder (default: $LBD_RUNS_DIR, the app's choice, ~/LBDStudio/runs)")
        ->group(run)
        ->type_name("DIR");
    c->add_option("--resume", o->resume, "continue a stopped or failed run from its last checkpoint (with --epochs N: train "
                                         "up to epoch N)")
        ->group(run)
        ->type_name("RUN_DIR");
    c->add_option("--processes", o->processes,
                  "data-parallel training over N processes of this machine (with --device cuda, one GPU each; "
                  "gradients averaged through c10d): each trains 1/N of every batch. A launcher such as torchrun can "
                  "start the ranks instead (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT)")
        ->check(CLI::Range(1, 64))
        ->group(run);
    c->add_option("--gpus", o->gpus, "data-parallel training on the first N GPUs, a process each (--processes N --device cuda)")
        ->check(CLI::Range(1, 64))
        ->excludes("--processes")
        ->group(run);
    c->add_flag("--list-presets", o->listPresets, "list the shipped presets and exit")->group(run);
    c->add_flag("--quiet", o->quiet, "no progress output")->group(run);
    c->add_flag("--json", o->json, "print the final report.json on stdout (messages go to stderr)")->group(run);

    ConfigFlags& f = o->flags;
    f.add(*c, "--name", "name")->group(run);
    const std::string training = "Training";
    f.add(*c, "--device", "train.device")->group(training);
    f.add(*c, "--epochs", "train.epochs")->group(training);
    f.add(*c, "--batch-size", "train.batch_size")->group(training);
    f.add(*c, "--eval-every", "train.eval_every")->group(training);
    f.add(*c, "--checkpoint-every", "train.checkpoint_every")->group(training);
    f.add(*c, "--threads", "train.threads")->group(training);
    o->trainSeed = f.add(*c, "--train-seed", "train.seed")->group(training);
    f.add(*c, "--precision", "train.precision")->group(training);
    f.addSwitch(*c, "--no-cuda-graph", "train.cuda_graph", false, "do not capture the step in a CUDA graph")->group(training);
    f.addSwitch(*c, "--sync-bn", "train.sync_bn", true,
                "data-parallel runs: batch norm over the global batch, not each rank's share")->group(training);
    f.add(*c, "--lr", "optimizer.lr")->group(training);
    f.add(*c, "--weight-decay", "optimizer.weight_decay")->group(training);
    const std::string model = "Model and objective";
    f.add(*c, "--arch", "model.arch")->group(model);
    f.add(*c, "--particles", "model.particles")->group(model);
    f.add(*c, "--init-from", "model.init_from")->group(model)->type_name("FILE");
    o->baseline = c->add_option("--baseline", o->baselineName,
                                "a method of the paper's comparisons: sets its switches and particle count, keeps the rest")
                      ->group(model);
    choices(o->baseline, {"lbd", "ce", "cb", "ldam-drw", "ensemble", "logit-adjusted", "balanced-softmax"});
    f.add(*c, "--discrepancy", "objective.discrepancy")->group(model);
    f.add(*c, "--drw-epoch", "objective.drw_epoch")->group(model);
    f.add(*c, "--alpha", "objective.alpha")->group(model);
    f.add(*c, "--tau", "objective.tau")->group(model);
    f.add(*c, "--logit-tau", "objective.logit_adjust_tau")->group(model);
    f.add(*c, "--train-utility", "objective.utility")->group(model);
    f.add(*c, "--utility-form", "objective.utility_form")->group(model);
    const std::string decisions = "Decisions";
    f.add(*c, "--utility", "decision.utility")->group(decisions);
    f.add(*c, "--rule", "decision.rule")->group(decisions);
    f.add(*c, "--defer", "decision.defer")->group(decisions);
    addDataFlags(*c, f);
    f.addSwitch(*c, "--cache", "data.cache", "auto",
                "read streamed images from a dataset cache, built on first use (lbd data cache)")->group("Data set");
    o->seed = c->get_option("--seed");
    o->seed->description(o->seed->get_description() + "; also seeds the training unless --train-seed is given");
    f.addSet(*c)->group("Any setting");
    return {c, [o] { return runTrain(*o); }};
}

} // namespace lbd::cli
