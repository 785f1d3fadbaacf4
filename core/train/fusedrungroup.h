#pragma once
// Runs that train as one fused model on one device (`lbd study --fuse G`): each run keeps its own
// thread, session and step (data, batch order, objective, loss scaling, optimiser, schedule,
// divergence monitor, checkpoints, metrics and folder: everything `lbd train` does), and hands the
// group its model's forward and backward pass (fusedmember.h). The group meets the runs' steps:
// once every run still in it has brought its batch, one of their threads runs the fused forward
// pass (core/model/fusedrunsmodel.h) with the runs' current weights copied in, and later the
// fused backward pass, adding each run's gradients to its own optimiser's buffer. A run that
// finishes, stops or fails leaves (leave()), and the others go on without it: its slot of the
// fused model is fed zeros from then on, which no other run's kernels read (every fused layer is
// grouped by run or by particle). The runs must bring batches of one shape at every step: the same
// training-set size and batch size (core/study/fusedgroups.h groups them so).
#include "core/train/fusedmember.h"

#include <memory>
#include <string>
#include <vector>

namespace lbd {

class FusedRunGroup {
public:
    explicit FusedRunGroup(int runs);
    ~FusedRunGroup();
    FusedRunGroup(const FusedRunGroup&) = delete;
    FusedRunGroup& operator=(const FusedRunGroup&) = delete;

    int size() const;
    // The member the run in `slot` trains through (TrainingCallbacks::fused).
    FusedMember& member(int slot);
    // The run in `slot` trains no more; the others' steps stop waiting for it. Idempotent.
    void leave(int slot);

    // For tests: keep, per slot, the sum of every batch of images the run trained (a fingerprint of
    // its batch order and augmentation). Off by default (it waits for the device every step).
    void recordImageSums(bool enabled);
    std::vector<double> imageSums(int slot) const;
    int64_t fusedSteps() const; // forward passes of the fused model so far

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace lbd
