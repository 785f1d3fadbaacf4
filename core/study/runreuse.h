#pragma once
// Finished runs that a study copies instead of training again. Studies overlap: the paper's LBD
// recipe is a cell of the methods, calibration, discrepancy, repulsion, utility and particle
// studies alike, and a run with the same config and seed learns the same thing wherever it was
// trained. `lbd study --reuse-from DIR` indexes the finished run folders under DIR (a study
// folder, a runs folder, any tree of them) and copies a match into the study's own folder, so the
// study stays self-contained and its tables are computed from its own files. Torch-free.
#include <nlohmann/json_fwd.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lbd {

// What must be equal for two runs to count as the same: every config key (the seeds included)
// except where and how fast the run trained (train.device, train.threads), its labels (name,
// description) and, for a standard data set read from files the catalogue names (Fashion-MNIST,
// CIFAR), the folder those files lie in (data.data_dir).
std::string runReuseKey(const nlohmann::json& runConfig);

class ReusableRuns {
public:
    ReusableRuns() = default;
    // Indexes every finished run folder (config.json, report.json and a finished status.json) at
    // most kMaxDepth folders below each of `folders`. A folder that does not exist is an
    // InputError; an unreadable or foreign run folder inside one is passed over.
    explicit ReusableRuns(const std::vector<std::string>& folders);

    // The finished run folder trained with this config, if one was indexed.
    std::optional<std::string> find(const nlohmann::json& runConfig) const;
    size_t size() const { return m_byKey.size(); }
    // Finished runs that were not indexed, each with the reason (a report.json that is not a
    // readable evaluation report): what `lbd study` prints before it trains them again.
    const std::vector<std::string>& passedOver() const { return m_passedOver; }

    static constexpr int kMaxDepth = 6;

private:
    void indexRun(const std::string& runDirectory);
    std::map<std::string, std::string> m_byKey;
    std::vector<std::string> m_passedOver;
};

// Copies a finished run folder to `target` through a temporary sibling and a rename, so a reader
// never sees half a run. `target` must not exist yet, or be an empty folder. RunError otherwise.
void copyRunFolder(const std::string& source, const std::string& target);

// reused.json in a study folder: run folder (relative) -> the folder it was copied from.
std::map<std::string, std::string> readStudyReuse(const std::string& studyDirectory);
void recordStudyReuse(const std::string& studyDirectory, const std::string& run, const std::string& source);

} // namespace lbd
