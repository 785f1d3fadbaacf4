#pragma once
// What a run folder says about its state, in words for the Classify page's header and
// `lbd-studio IMAGE...` ("stopped at epoch 2/20", "finished"), and which run classifies images when
// the user names none: the last *finished* one, never silently a run that stopped early.
#include <optional>
#include <string>

#include "core/train/runsummary.h"

namespace lbd {

// "finished (20 epochs)", "stopped at epoch 2/20", "failed at epoch 3/20", "training: epoch 2/20",
// "interrupted at epoch 2/20", "not trained yet".
std::string runStateText(const RunSummary& summary);

struct RunChoice {
    std::string directory;
    std::string reason; // why this run, in words
};

// `preferred` (the session's last run; may be empty) when it finished, else the newest finished run
// under `runsRoot` (by status.json's time), else `preferred` whatever its state (the reason says
// so), else nothing.
std::optional<RunChoice> chooseRunForImages(const std::string& preferred, const std::string& runsRoot);

} // namespace lbd
