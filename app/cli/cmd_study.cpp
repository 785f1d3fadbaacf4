// `lbd study`: run a grid of runs (a base config x factors x seeds) and aggregate the paper's
// tables over seeds: mean ± std and the 95 % interval, as Markdown, CSV and LaTeX.
#include "app/cli/command.h"
#include "app/cli/configflags.h"
#include "app/cli/progressbar.h"

#include "core/study/studyassembly.h"
#include "core/study/studyfolder.h"
#include "core/study/studyrunner.h"
#include "core/train/runsroot.h"
#include "core/util/atomicfile.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include <unistd.h>

namespace lbd::cli {
namespace {

TrainingControl g_studyControl;
std::atomic<int> g_studySignals{0};

// The first Ctrl+C stops every run after its current batch (each keeps its checkpoint) and
// starts no new one; a second ends the process at once (every file is written atomically).
void onStudyInterrupt(int)
{
    if (++g_studySignals == 1) {
        g_studyControl.stopRequested = true;
        return;
    }
    _exit(130);
}

struct StudyCommandOptions {
    std::string study;
    std::string out;
    std::string runsDir;
    std::string preset;
    std::string devices;
    std::string shard;     // --shard I/N as given
    std::string seedsText; // --seeds as given: parsed and checked by the study file's own rules
    std::vector<int64_t> seeds;
    std::vector<std::string> reuseFrom;
    int parallel = 1;
    std::string fuse = "1";
    int threads = 0;
    bool quick = false;
    bool list = false;
    bool summarize = false;
    bool retryFailed = false;
    bool quiet = false;
    bool json = false;
    ConfigFlags flags;
};

int listStudies()
{
    for (const StudyInfo& study : listBuiltInStudies()) {
        std::cout << study.name << "  " << study.title << (study.paperTable.empty() ? "" : " (" + study.paperTable + ")")
                  << "\n    " << study.claim << '\n';
    }
    return 0;
}

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> items;
    std::stringstream stream(text);
    for (std::string item; std::getline(stream, item, ',');) {
        if (!item.empty()) {
            items.push_back(item);
        }
    }
    return items;
}

// The study and its folder: an existing study folder continues with its own settings.
std::pair<ResolvedStudy, std::string> openStudy(StudyCommandOptions& o)
{
    if (!o.seedsText.empty()) {
        o.seeds = parseStudySeeds(o.seedsText, "--seeds");
    }
    if (isStudyFolder(o.study)) {
        if (o.quick || !o.preset.empty() || !o.seeds.empty() || !o.flags.givenKeys().empty()) {
            throw InputError(o.study + " is a study folder: it continues with its own settings (--quick, --preset, --seeds and "
                             "--set apply when a study starts)");
        }
        if (!o.out.empty() && std::filesystem::path(o.out) != std::filesystem::path(o.study)) {
            throw InputError("--out cannot move a study folder (" + o.study + ")");
        }
        return {openStudyFolder(o.study), o.study};
    }
    StudyOptions options;
    options.quick = o.quick;
    options.preset = o.preset;
    options.set = o.flags.patch();
    options.seeds = o.seeds;
    ResolvedStudy study = resolveStudy(findStudySpec(o.study), options);
    std::string directory = o.out;
    if (directory.empty()) {
        directory = defaultStudyDirectory(o.runsDir.empty() ? defaultRunsRoot() : o.runsDir, study);
    }
    return {std::move(study), directory};
}

std::string runName(const ResolvedStudy& study, int index)
{
    const StudyRunRef& run = study.runs[index];
    return study.cells[run.cell].label + ", seed " + std::to_string(run.seed);
}

int runStudy(StudyCommandOptions& o)
{
    if (o.list) {
        return listStudies();
    }
    if (o.study.empty()) {
        throw InputError("name a study (lbd study --list), a study.json or a study folder");
    }
    // Named references, not a structured binding: C++17 lambdas (clang) cannot capture those.
    auto opened = openStudy(o);
    const ResolvedStudy& study = opened.first;
    const std::string& directory = opened.second;
    for (const std::string& note : study.notes) {
        std::cerr << "lbd study: " << note << "\n";
    }
    if (o.summarize) {
        if (!o.reuseFrom.empty()) {
            // Put together from runs trained elsewhere (core/study/studyassembly.h); nothing trains.
            std::cerr << "lbd study: " << directory << ": "
                      << describeAssembly(assembleStudyFromRuns(study, directory, o.reuseFrom)) << '\n';
        }
        if (!isStudyFolder(directory)) {
            throw InputError(directory + ": no study has run there yet (nothing to summarize)");
        }
        const StudySummary summary = summarizeStudy(study, directory);
        writeStudyResults(summary, directory);
        std::cout << (o.json ? toJson(summary).dump(2) : markdownTable(summary)) << '\n';
        return 0;
    }
    StudyRunnerOptions runnerOptions;
    runnerOptions.parallel = o.parallel;
    if (o.fuse == "auto") {
        runnerOptions.fuse = 0;
    } else {
        try {
            size_t used = 0;
            runnerOptions.fuse = std::stoi(o.fuse, &used);
            if (used != o.fuse.size() || runnerOptions.fuse < 1 || runnerOptions.fuse > 64) {
                throw std::invalid_argument(o.fuse);
            }
        } catch (const std::exception&) {
            throw InputError("--fuse: expected auto or a run count from 1 to 64, got '" + o.fuse + "'");
        }
    }
    runnerOptions.devices = splitList(o.devices);
    runnerOptions.threadsPerRun = o.threads;
    runnerOptions.retryFailed = o.retryFailed;
    runnerOptions.reuseFrom = o.reuseFrom;
    // --shard, else a SLURM job array's task; the log names which, so a mis-set array is seen.
    runnerOptions.shard = o.shard.empty() ? studyShardFromEnvironment() : parseStudyShard(o.shard);
    const StudyShard& shard = runnerOptions.shard;
    StudyRunner runner(study, directory, runnerOptions);

    std::ostream& log = std::cerr;
    if (!o.quiet) {
        log << "study " << study.spec.name << ": " << study.cells.size() << " cells x " << study.seeds.size() << " seeds = "
            << study.runs.size() << " runs in " << directory << '\n';
        if (shard.enabled()) {
            log << "shard " << shard.text() << " (from " << shard.source << "): runs k (from 0) with (k mod " << shard.count
                << ") + 1 = " << shard.index + 1 << ", the other shards' runs are left to their processes\n";
        }
    }
    std::vector<StudyProgress> latest(study.runs.size());
    auto lastSummary = std::chrono::steady_clock::now();
    StudyCallbacks callbacks;
    callbacks.onProgress = [&](const StudyProgress& p) {
        const StudyRunState before = latest[p.run].state;
        latest[p.run] = p;
        if (o.quiet) {
            return;
        }
        const bool changed = before != p.state;
        if (changed && p.state == StudyRunState::Running) {
            log << "started  " << runName(study, p.run) << (p.device.empty() ? "" : " on " + p.device) << '\n';
        } else if (changed && p.state != StudyRunState::Pending && before == StudyRunState::Running) {
            log << stateName(p.state) << (p.state == StudyRunState::Failed ? "   " : " ") << runName(study, p.run)
                << (p.message.empty() ? "" : ": " + p.message) << '\n';
        }
        const auto now = std::chrono::steady_clock::now();
        if (std::chrono::duration<double>(now - lastSummary).count() >= 60) {
            lastSummary = now;
            int finished = 0, running = 0;
            double eta = 0;
            for (const StudyProgress& run : latest) {
                finished += run.state == StudyRunState::Finished;
                if (run.state == StudyRunState::Running) {
                    ++running;
                    eta = std::max(eta, run.etaSeconds);
                }
            }
            log << "progress " << finished << '/' << study.runs.size() << " finished, " << running << " training"
                << (eta > 0 ? ", the current ones done in about " + formatDuration(eta) : std::string()) << '\n';
        }
    };
    callbacks.onMessage = [&](const std::string& text) { log << "lbd study: " << text << '\n'; };

    g_studyControl.stopRequested = false;
    std::signal(SIGINT, onStudyInterrupt);
    std::signal(SIGTERM, onStudyInterrupt);
    const StudyOutcome outcome = runner.run(callbacks, &g_studyControl);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);

    std::cout << (o.json ? toJson(outcome.summary).dump(2) : markdownTable(outcome.summary)) << '\n';
    std::ostream& said = o.json ? std::cerr : std::cout;
    said << outcome.finished << " of " << (shard.enabled() ? std::to_string(outcome.inShard) + " runs of shard " + shard.text()
                                                          : std::to_string(study.runs.size()) + " runs")
         << " finished (" << outcome.trainedNow << " trained and "
         << outcome.reused << " reused in this call, ";
    if (outcome.decidedNow > 0) {
        said << outcome.decidedNow << " decision-only runs re-decided without training, ";
    }
    if (outcome.trainedElsewhere > 0) {
        said << outcome.trainedElsewhere << " trained by another process on this folder, ";
    }
    said << formatDuration(outcome.seconds);
    if (outcome.trainedImages > 0 && outcome.seconds > 0) {
        said << ", " << static_cast<long long>(outcome.trainedImages / outcome.seconds) << " training images/s together";
    }
    said << "), " << outcome.failed << " failed; results in " << directory << "/results";
    if (shard.enabled()) {
        // results/ counts what is on disk: the other shards' runs as far as they have come.
        int onDisk = 0;
        for (const CellSummary& cell : outcome.summary.cells) {
            onDisk += cell.finished;
        }
        said << " (" << onDisk << " of " << study.runs.size() << " runs of every shard finished so far)";
    }
    said << '\n';
    if (outcome.stopRequested) {
        said << "stopped; `lbd study " << directory << "` continues it\n";
        return 130;
    }
    return outcome.failed > 0 ? 1 : 0;
}

} // namespace

Command addStudyCommand(CLI::App& lbd)
{
    auto o = std::make_shared<StudyCommandOptions>();
    CLI::App* c = lbd.add_subcommand("study", "run a study (a config x factors x seeds) and aggregate its tables over seeds");
    c->footer("A study folder holds study.json, one run folder per cell and seed (runs/CELL/seed-N) and results/ (summary.json, "
              "table.md, table.csv, table.tex: mean ± std and the 95 % interval over seeds). Running it again skips finished "
              "runs and resumes stopped ones.\nExit status: 0 every run finished, 1 some run failed (the others ran), 2 bad "
              "input, 130 stopped (run the same command, or lbd study DIR, to continue).");
    c->add_option("study", o->study, "a built-in study (lbd study --list), a study.json, or a study folder to continue")
        ->type_name("STUDY");
    c->add_flag("--list", o->list, "list the built-in studies with the paper's table and claim each reproduces");
    c->add_option("--out", o->out, "the study folder (default: RUNS/studies/NAME, NAME-quick with --quick)")->type_name("DIR");
    c->add_option("--runs-dir", o->runsDir, "the runs folder (default: $LBD_RUNS_DIR, the app's choice, ~/LBDStudio/runs)")
        ->type_name("DIR");
    c->add_flag("--quick", o->quick, "the study's quick scale: small models, few epochs and seeds (minutes on a CPU)");
    c->add_option("--preset", o->preset, "start every cell from this preset instead of the study's (e.g. cifar10-lt)")
        ->type_name("NAME");
    c->add_option("--seeds", o->seedsText, "the seeds, replacing the study's (e.g. --seeds 0,1,2: distinct integers from 0 to "
                  "2147483647, as in a study file)")->type_name("LIST");
    c->add_option("--device", o->devices,
                  "where runs train: cpu, cuda:0, a list (cuda:0,cuda:1: runs are spread over them) or all-gpus "
                  "(default: each run's config)")
        ->type_name("LIST");
    c->add_option("--parallel", o->parallel,
                  "runs trained at once in this process, each on its own CUDA stream (measured on one H100: 4 at "
                  "once trained 1.4x the images/s of one; default 1)")
        ->check(CLI::Range(1, 64));
    c->add_option("--fuse", o->fuse,
                  "train up to G runs that share model, data, image size and batch size (the seeds of a cell, cells that "
                  "differ only in the objective) as one fused model on one device, each keeping its own objective, "
                  "optimiser, checkpoints and folder; auto: from the GPU's memory (1 on the CPU); default 1. Measured on an "
                  "H200: 3 fused runs trained 0.78x the images/s of one run alone (no CUDA graph yet)")
        ->type_name("G|auto");
    c->add_option("--threads", o->threads, "CPU threads per run (default: the cores shared among --parallel runs)")
        ->check(CLI::Range(0, 1024));
    c->add_option("--reuse-from", o->reuseFrom,
                  "copy finished runs with the same config and seed from this folder (a study, a runs folder, any tree; "
                  "repeatable) instead of training them again; reused.json in the study says from where")
        ->type_name("DIR");
    c->add_option("--shard", o->shard,
                  "train only shard I of N, I from 1 to N (run k of the study, counting from 0, belongs to shard (k mod N) + 1), for several "
                  "hosts on one shared study folder; default: SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT where a "
                  "job array sets them. Exit status 0 when this shard's runs finished; results/ counts every run on disk")
        ->type_name("I/N");
    c->add_flag("--retry-failed", o->retryFailed, "train failed runs again (from their last good checkpoint)");
    c->add_flag("--summarize", o->summarize, "only aggregate what has finished and write results/ (no training); with --reuse-from, first "
                "copy in the matching finished runs (decision-only ones too) from those folders");
    c->add_flag("--quiet", o->quiet, "no progress lines");
    c->add_flag("--json", o->json, "print results/summary.json instead of the Markdown table");
    o->flags.addSwitch(*c, "--cache", "data.cache", "auto",
                       "every run reads streamed images from one dataset cache, built by the first (lbd data cache)");
    o->flags.addSet(*c);
    return {c, [o] { return runStudy(*o); }};
}

} // namespace lbd::cli
