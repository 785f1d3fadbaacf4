#pragma once
// Flags another thread (the GUI, a signal handler) sets to steer a running Trainer. The trainer
// checks them every batch, so Stop takes effect within one batch.
#include <atomic>

namespace lbd {

struct TrainingControl {
    std::atomic_bool stopRequested{false};
    std::atomic_bool pauseRequested{false};
};

} // namespace lbd
