#pragma once
// Where the time of the input pipeline goes, per epoch: decoding (summed over the decoding
// threads), the training loop waiting for a batch, the host-to-device copy and the augmentation.
// The run log prints describeInputTimings once an epoch; the GUI's training header shows what
// bounds the run. No torch here.
#include <cstdint>
#include <string>

namespace lbd {

struct InputTimings {
    int64_t batches = 0;
    int64_t images = 0;
    double decodeSeconds = 0;  // decode + resize (or cache reads), summed over the threads
    int decodeThreads = 0;     // 0: the batches are not decoded (held in memory / on the device)
    double waitSeconds = 0;    // the training loop blocked until the next batch was decoded
    double copySeconds = 0;    // host -> device copies (CUDA: issuing them; they run on a side stream)
    double augmentSeconds = 0; // augmentation and normalisation (CUDA: issuing the kernels)
    bool fromCache = false;    // images read from a dataset cache instead of decoded from files

    bool measured() const { return batches > 0; }
};

// True when the input held the training back: the loop waited for batches more than 5 % of the
// epoch (otherwise the device's step is what bounds it).
bool inputBound(const InputTimings& timings, double epochSeconds);

// "input: decode 12.3 ms/batch on 16 threads (197 ms of work), wait 4.1 ms/batch, copy 0.8 ms,
// augment 1.2 ms; step 30.0 ms; bound by device"; empty when nothing was measured.
std::string describeInputTimings(const InputTimings& timings, double epochSeconds);

} // namespace lbd
