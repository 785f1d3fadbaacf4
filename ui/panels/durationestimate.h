#pragma once
// The duration the experiment panel shows before Start: epochs x training images / a per-image
// training speed for the device and model. The speed is the one this app recorded during the
// last run with the same device, model, particle count, image size and batch (QSettings), else a
// reference figure measured on a 2-core CPU (docs/results/speed.md) scaled by particles and
// pixels. Evaluations are not counted. An estimate either way, and the text says which.
#include <QString>

#include "core/train/trainconfig.h"

namespace lbd::ui {

struct DurationEstimate {
    double seconds = -1;        // < 0: no speed known for this device and model
    double imagesPerSecond = 0;
    bool recorded = false;      // measured here by an earlier run, not a reference figure
};

class DurationEstimator {
public:
    static DurationEstimate estimate(const lbd::TrainConfig& config, int64_t trainImages);
    // Called with each finished epoch's speed of a run trained in this app.
    static void recordSpeed(const lbd::TrainConfig& config, double imagesPerSecond);
    // "Estimated duration: about 25 s (6 epochs x 14,886 images at ~4,700 img/s, ...)".
    static QString text(const lbd::TrainConfig& config, int64_t trainImages);
    // "~25 s", or "duration unknown" without a speed for this device and model: for a one-line summary.
    static QString shortText(const lbd::TrainConfig& config, int64_t trainImages);
    // "45 s", "12 min", "3.4 h".
    static QString formatDuration(double seconds);
};

} // namespace lbd::ui
