#pragma once
// ImageUncertainty: how unsure the particle ensemble is about one image (lbd-math.md section 6),
// as the classify page and `lbd predict` show it. A plain value type without torch.
#include <cstdint>
#include <vector>

namespace lbd {

struct ImageUncertainty {
    double total = 0.0;            // H(pbar), natural log
    double aleatoric = 0.0;        // (1/M) sum_j H(p_j)
    double epistemic = 0.0;        // mutual information = total - aleatoric
    double voteDisagreement = 0.0; // 1 - (largest number of particles agreeing on top-1) / M
    std::vector<int64_t> particleTop1;           // per particle: its top-1 class
    std::vector<double> particleTop1Probability; // per particle: p_j of that class
};

} // namespace lbd
