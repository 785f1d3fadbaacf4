#include "core/data/inputtimings.h"

#include <algorithm>
#include <cstdio>

namespace lbd {

bool inputBound(const InputTimings& timings, double epochSeconds)
{
    return timings.measured() && epochSeconds > 0 && timings.waitSeconds > 0.05 * epochSeconds;
}

std::string describeInputTimings(const InputTimings& t, double epochSeconds)
{
    if (!t.measured()) {
        return {};
    }
    const double perBatch = 1000.0 / static_cast<double>(t.batches);
    const int threads = std::max(1, t.decodeThreads);
    const double work = t.decodeSeconds * perBatch;
    // The rest of each batch's share of the epoch: the training step (and the loop around it).
    const double step = std::max(0.0, epochSeconds * perBatch - (t.waitSeconds + t.copySeconds + t.augmentSeconds) * perBatch);
    char line[320];
    std::snprintf(line, sizeof(line),
                  "input: %s %.1f ms/batch on %d thread%s (%.1f ms of work), wait %.1f ms/batch, copy %.1f ms, "
                  "augment %.1f ms; step %.1f ms; bound by %s",
                  t.fromCache ? "cache read" : "decode", work / threads, threads, threads == 1 ? "" : "s", work,
                  t.waitSeconds * perBatch, t.copySeconds * perBatch, t.augmentSeconds * perBatch, step,
                  inputBound(t, epochSeconds) ? "input" : "device");
    return line;
}

} // namespace lbd
