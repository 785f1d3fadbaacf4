#pragma once
// Runs a study's runs: finished ones are skipped, stopped ones resumed from their checkpoint, and
// a failed one is reported without stopping the others. Several runs can train at once as
// threads of this process (`parallel`), each on its own CUDA stream with its own CUDA graph:
// small models leave most of a GPU idle, and separate processes only time-slice it. Runs are
// spread over `devices` (worker w trains on devices[w % size]). A decision-only cell's run
// (decisioncell.h) belongs to the shard of the run it re-decides, and is re-decided after the
// trained runs of the pass, once that run has finished (here or, earlier, in another process).
#include "core/study/studyshard.h"
#include "core/study/studyspec.h"
#include "core/study/studysummary.h"
#include "core/train/trainingcontrol.h"

#include <functional>
#include <string>
#include <vector>

namespace lbd {

struct StudyRunnerOptions {
    int parallel = 1;                 // runs trained at once
    // Runs trained as one fused model, at most this many a group (`--fuse`, fusedgroups.h); each
    // group counts as one of the `parallel` runs. 0: chosen from the device's memory.
    int fuse = 1;
    std::vector<std::string> devices; // empty: each run's own train.device
    int threadsPerRun = 0;            // CPU threads of each run; 0: the cores shared among `parallel`
    bool retryFailed = false;         // train failed runs again (from their last checkpoint)
    // Folders searched for finished runs with the same config and seed: a match is copied into the
    // study instead of trained (core/study/runreuse.h).
    std::vector<std::string> reuseFrom;
    // This process's share of the runs (studyshard.h); the others are neither trained, waited for
    // nor counted here, but results/ summarises every run on disk.
    StudyShard shard;
};

struct StudyProgress {
    int run = 0;            // index into ResolvedStudy::runs
    StudyRunState state = StudyRunState::Pending;
    int epoch = 0;
    int epochs = 0;
    double imagesPerSecond = 0;
    double etaSeconds = 0;
    std::string device;
    std::string message;    // the failure, or the final accuracy
};

struct StudyCallbacks {
    // Called from the worker threads, one call at a time.
    std::function<void(const StudyProgress&)> onProgress;
    std::function<void(const std::string&)> onMessage;
};

struct StudyOutcome {
    int finished = 0;         // finished now or before
    int trainedNow = 0;       // finished in this call
    int reused = 0;           // copied in this call from a --reuse-from folder (counted in finished)
    int trainedElsewhere = 0; // finished by another process on the same folder while this one ran (counted in finished)
    int decidedNow = 0;       // decision-only runs re-decided in this call (counted in finished; nothing trained)
    int failed = 0;
    int stopped = 0;          // left stopped or pending (a stop request, or running elsewhere)
    int inShard = 0;          // runs of this process's shard (every run without one); the counts above are of these
    bool stopRequested = false;
    double seconds = 0;
    double trainedImages = 0; // training images processed in this call (throughput = / seconds)
    StudySummary summary;
};

class StudyRunner {
public:
    StudyRunner(ResolvedStudy study, std::string directory, StudyRunnerOptions options);
    // Writes results/ after the pass (also after a stop). `control` stops every run (within one
    // batch) and starts no new one.
    StudyOutcome run(const StudyCallbacks& callbacks, TrainingControl* control = nullptr);

private:
    ResolvedStudy m_study;
    std::string m_directory;
    StudyRunnerOptions m_options;
};

} // namespace lbd
