#include "app/cli/progressbar.h"

#include <cmath>
#include <cstdio>

#include <unistd.h>

namespace lbd::cli {

std::string formatDuration(double seconds)
{
    const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
    char text[32];
    if (total >= 3600) {
        std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", total / 3600, (total / 60) % 60, total % 60);
    } else {
        std::snprintf(text, sizeof text, "%lld:%02lld", total / 60, total % 60);
    }
    return text;
}

ProgressBar::ProgressBar(bool quiet) : m_quiet(quiet), m_terminal(isatty(STDERR_FILENO) != 0) {}

void ProgressBar::clearLine()
{
    if (m_lineOpen) {
        std::fprintf(stderr, "\r\033[K");
        m_lineOpen = false;
    }
}

void ProgressBar::batch(const BatchProgress& p)
{
    if (m_quiet || !m_terminal) {
        return;
    }
    constexpr int kWidth = 24;
    const double fraction = p.batches > 0 ? static_cast<double>(p.batch) / static_cast<double>(p.batches) : 0.0;
    const int filled = static_cast<int>(fraction * kWidth);
    std::string bar(static_cast<size_t>(filled), '#');
    bar.resize(kWidth, '.');
    std::fprintf(stderr, "\r\033[Kepoch %d/%d [%s] batch %lld/%lld  loss %.4f  lr %.4g  %.0f img/s  ETA %s", p.epoch,
                 p.epochs, bar.c_str(), static_cast<long long>(p.batch), static_cast<long long>(p.batches), p.loss,
                 p.learningRate, p.imagesPerSecond, formatDuration(p.etaSeconds).c_str());
    std::fflush(stderr);
    m_lineOpen = true;
}

void ProgressBar::epoch(const EpochMetrics& m)
{
    if (m_quiet) {
        return;
    }
    clearLine();
    std::fprintf(stderr, "epoch %d/%d  loss %.4f (CE %.4f, utility %.4f, repulsive %.4f x %.3f)  train acc %.2f%%  %.0f img/s  %.1f s",
                 m.epoch, m.epochs, m.objective.total, m.objective.weightedCe, m.objective.utility, m.objective.repulsive,
                 m.objective.annealWeight, 100.0 * m.trainAccuracy, m.imagesPerSecond, m.epochSeconds);
    if (m.evaluation) {
        const auto& regions = m.evaluation->regionsThirds.regions;
        std::fprintf(stderr, "  | test acc %.2f%% (head %.2f, med %.2f, tail %.2f)", 100.0 * m.evaluation->overall.accuracy,
                     100.0 * regions[0].counts.accuracy, 100.0 * regions[1].counts.accuracy, 100.0 * regions[2].counts.accuracy);
    }
    std::fprintf(stderr, "\n");
}

void ProgressBar::message(const std::string& text)
{
    if (m_quiet) {
        return;
    }
    clearLine();
    std::fprintf(stderr, "%s\n", text.c_str());
}

} // namespace lbd::cli
