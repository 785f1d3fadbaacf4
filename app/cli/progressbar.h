#pragma once
// The terminal progress line of `lbd train` (stderr): epoch, batch, loss, images/s and ETA,
// redrawn in place on a terminal and printed once per epoch otherwise.
#include "core/train/epochmetrics.h"

namespace lbd::cli {

class ProgressBar {
public:
    explicit ProgressBar(bool quiet);
    void batch(const BatchProgress& progress);
    void epoch(const EpochMetrics& metrics);
    void message(const std::string& text);

private:
    void clearLine();
    bool m_quiet;
    bool m_terminal;
    bool m_lineOpen = false;
};

std::string formatDuration(double seconds); // "1:05:09", "4:03", "0:07"

} // namespace lbd::cli
