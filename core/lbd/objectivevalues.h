#pragma once
// The parts of one minibatch's objective as plain numbers, for logs, epoch metrics and plots.
// Torch-free; LbdObjective::values() fills it from the device tensors.

namespace lbd {

struct ObjectiveValues {
    double total = 0.0;         // L = weightedCe + utilityWeight * utility - annealWeight * repulsive
    double weightedCe = 0.0;    // (1/M) sum_j CEw_j
    double utility = 0.0;       // (1/M) sum_j UT_j, before the 1/alpha factor
    double utilityWeight = 0.0; // 1/alpha while the utility term is applied, else 0
    double repulsive = 0.0;     // R; 0 when there is no repulsion
    double annealWeight = 0.0;  // a(e) = exp(-e/tau); 0 when there is no repulsion
};

} // namespace lbd
