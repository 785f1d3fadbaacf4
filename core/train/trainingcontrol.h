#pragma once
// Flags another thread (the GUI, a signal handler) sets to steer a running Trainer. The trainer
// checks them every batch, so Stop takes effect within one batch.
#include <atomic>

namespace lbd {

struct TrainingControl {
    std::atomic_bool stopRequested{false};
    std::atomic_bool pauseRequested{false};
    // Set by the trainer while its epoch loop runs (the only time a stop request is seen within a
    // batch); a caller that must stop at any moment (a signal during set-up) ends the process
    // itself when this is false.
    std::atomic_bool inEpochLoop{false};
};

} // namespace lbd
