#pragma once
// The files of one run directory, each written atomically (temp file + rename):
//   config.json            the TrainConfig (what to rerun)
//   split.json             the long-tailed split (which training images)
//   run.json               manifest: class names, train/test counts, image format, normalisation, device, versions
//   status.json            running / finished / stopped / failed (+ message), epochs done
//   metrics.jsonl          one line per finished epoch (EpochMetrics)
//   checkpoint.pt          model, optimiser, epoch, metric history (LibTorch archive)
//   report.json            final evaluation under the run's decision utility and rule (+ argmax, + validation)
//   test_probabilities.pt  per-particle test probabilities [M, N, C] + labels (re-deciding without retraining)
//   val_probabilities.pt   the same for the validation split, when the run has one (tuning without the test set)
//   weights.pt             torch.load-readable dict of CPU tensors + class names, for Python users
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace lbd {

class RunFolder {
public:
    // Only names the folder: reading a run must not create it. Writers call create() first.
    explicit RunFolder(std::string directory);
    void create() const; // InputError naming the folder when it cannot be made

    const std::string& directory() const { return m_directory; }
    std::string path(const std::string& file) const;
    bool exists(const std::string& file) const;

    void writeJson(const std::string& file, const nlohmann::json& json) const;
    nlohmann::json readJson(const std::string& file) const; // InputError naming the file
    void writeJsonLines(const std::string& file, const std::vector<nlohmann::json>& lines) const;
    std::vector<nlohmann::json> readJsonLines(const std::string& file) const;

    // `checkpointEpoch`: the epoch of the newest checkpoint (0: none), which a resume continues from.
    void writeStatus(const std::string& state, int epochsDone, int epochs, const std::string& message = {},
                     int checkpointEpoch = 0) const;

    static const char* kConfig;
    static const char* kSplit;
    static const char* kManifest;
    static const char* kStatus;
    static const char* kMetrics;
    static const char* kCheckpoint;
    static const char* kReport;
    static const char* kTestProbabilities;
    static const char* kValidationProbabilities;
    static const char* kWeights;

private:
    std::string m_directory;
};

// status.json, every field typed (readRunStatus).
struct RunStatus {
    std::string state;        // "running", "finished", "stopped", "failed"
    int epochsDone = 0;
    int epochs = 0;
    int checkpointEpoch = 0;  // older folders lack it: epochsDone (a checkpoint per epoch, the default then)
    std::string message;
    std::string updated;
};
// InputError naming status.json and the field when the file is not JSON, not an object, a field
// has the wrong type, or a value is outside what the trainer writes: state one of the four above,
// 0 <= checkpoint_epoch <= epochs_done <= epochs <= kMaxEpochs.
RunStatus readRunStatus(const RunFolder& folder);

// A new run folder name under `runsRoot`: "<name>-YYYYMMDD-HHMMSS" (with a suffix if taken).
std::string newRunDirectory(const std::string& runsRoot, const std::string& name);

// The error for a folder that is not a run: "DIR: not a run folder (WHY)", or, for a study's
// decision-only row (its report.json names the run it re-decided), what it is and the command that
// gives its numbers from that run, since nothing was trained there.
std::string notARunFolderMessage(const std::string& directory, const std::string& why);

} // namespace lbd
