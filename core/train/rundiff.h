#pragma once
// What differs between runs: their settings (config.json), their provenance (run.json: build,
// command line, machine, data fingerprint) and their results (report.json's headline metrics).
// One function for `lbd diff` and the Runs page's comparison table, so both show the same.
// Torch-free: the GUI reads hundreds of runs with it.
#include <map>
#include <string>
#include <vector>

namespace lbd {

using FlatValues = std::map<std::string, std::string>; // "optimizer.learning_rate" -> "0.1"

// config.json read by the config reader of lbd eval and lbd train (loadTrainConfig: the same
// limits and refusals) and flattened to "section.key" -> value (strings bare, the rest as JSON
// text; an array, such as a stored matrix, is one value; a value over 120 characters is shown by
// its start, length and hash). Empty when the run has no config.json; InputError naming the file
// and key when it cannot be read.
FlatValues readRunConfigValuesChecked(const std::string& runDirectory);
// The same, empty when the file is missing or unreadable (the Runs page; readRunSummary names
// the damage).
FlatValues readRunConfigValues(const std::string& runDirectory);
// run.json's provenance (runprovenance.h) and the device it trained on; "unknown" for each key
// a run made before provenance was recorded lacks. Checked: InputError naming run.json when it is
// there but not readable; the other: empty then.
FlatValues readRunEnvironmentChecked(const std::string& runDirectory);
FlatValues readRunEnvironment(const std::string& runDirectory);
// The final evaluation's headline numbers (accuracy, tail accuracy, FHR, AURC, ECE, ...) and the
// run's state and epochs, as text with full precision.
FlatValues readRunMetrics(const std::string& runDirectory);

// Keys, sorted, whose value differs between the maps or is missing from some; empty for fewer
// than two.
std::vector<std::string> differingKeys(const std::vector<FlatValues>& runs);

struct RunDifference {
    std::string key;
    std::string first;  // "(absent)" where that run lacks the key
    std::string second;
};

struct RunDifferences {
    std::vector<RunDifference> config;
    std::vector<RunDifference> environment;
    std::vector<RunDifference> metrics;
};

// InputError naming the folder when either is not a run folder (no config.json or run.json), and
// naming the file and field when a run's report.json is there but cannot be read.
RunDifferences diffRuns(const std::string& firstRun, const std::string& secondRun);

} // namespace lbd
