#pragma once
// One row of a runs list: what a run folder says about itself (config.json, run.json,
// status.json, report.json), read without torch so the GUI's runs page and any tool can list
// hundreds of runs quickly. Reading never throws for a damaged or partial folder: every file
// that is missing where it should exist, or cannot be parsed, becomes a `problems` entry naming
// the file, and the rest of the summary is filled from the files that could be read.
#include <optional>
#include <string>
#include <vector>

#include "core/train/epochmetrics.h"

namespace lbd {

struct RunSummary {
    std::string directory;
    std::string folderName;  // last path component ("tiny-20250101-120000")
    std::string name;        // config.json's name (empty when config.json cannot be read)
    // status.json's state: "running", "finished", "stopped", "failed"; "created" when the folder
    // exists but training has not written its status yet; "interrupted" when status.json says
    // running but no process holds the run's lock (the trainer died without updating it).
    std::string state = "created";
    std::string statusMessage; // status.json's message (why a run failed)
    std::vector<std::string> problems; // damaged or missing files, each naming the file

    std::string dataset;       // run.json's data set name, else config.json's data kind
    std::string model;         // config.json's model.arch
    int particles = 0;         // M
    int epochs = 0;            // planned (config / status)
    int epochsDone = 0;        // status.json
    int checkpointEpoch = 0;   // status.json: the epoch a resume continues after (0: none)
    std::string device;        // run.json (where it trained), else the config's request
    std::string created;       // run.json, ISO 8601 UTC
    std::string updated;       // status.json, ISO 8601 UTC
    std::string trainingUtility;     // the training matrix ("onehot", "tail:1", "matrix from u.csv")
    std::string trainingUtilityForm; // "bounded", "published", "paper" ("" when the term is off)
    std::string decisionUtility;     // the decision matrix
    std::string decisionRule;        // the run's rule (registry name)
    std::string protocol = "app";    // the named protocol (lbd-math.md section 8) its config follows
    std::optional<double> deferUtility;
    int classCount = 0;
    bool hasCheckpoint = false;
    bool hasReport = false;

    // The final evaluation under the run's rule and utility (report.json), when there is one.
    std::optional<double> accuracy;       // overall test accuracy in [0, 1]
    std::optional<double> headAccuracy;   // thirds by class index (lbd-math.md section 2)
    std::optional<double> mediumAccuracy;
    std::optional<double> tailAccuracy;
    std::optional<double> fhrPointsMean;  // mean of the paper's three FHR points (tail 25/50/75 %)
    std::optional<double> fhrCurveMean;   // mean of the whole FHR curve (k = 1 .. C-1)
    std::optional<double> aurc;           // area under the risk-coverage curve
    // report.json's warnings: the evaluation is degenerate (a region at 0 %, near chance,
    // decisions piled into a few classes, eq7 with negative utilities). Never shown as "best".
    std::vector<std::string> warnings;
    std::optional<double> ece;            // expected calibration error, 15 bins
    std::optional<double> meanUtility;
    std::optional<double> trainSeconds;

    bool damaged() const { return !problems.empty(); }
    // Stopped or failed with a checkpoint to continue from (`lbd train --resume`, Runs > Continue).
    bool resumable() const
    {
        return (state == "stopped" || state == "failed" || state == "interrupted") && hasCheckpoint && checkpointEpoch > 0
            && checkpointEpoch < epochs;
    }
};

// Reads what it can of one run folder; never throws for bad run files.
RunSummary readRunSummary(const std::string& directory);

// Sub-folders of `runsRoot` that are runs: ones holding any run file, and empty ones (a run
// that has just been created). Sorted by name. Empty when `runsRoot` does not exist.
std::vector<std::string> findRunFolders(const std::string& runsRoot);

// Every epoch of metrics.jsonl in order (empty when the file does not exist yet); throws
// InputError naming the file and line when a line is damaged.
std::vector<EpochMetrics> readRunHistory(const std::string& directory);

} // namespace lbd
