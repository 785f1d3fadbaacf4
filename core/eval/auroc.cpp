#include "core/eval/auroc.h"

#include "core/util/error.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lbd {

std::optional<double> misclassificationAuroc(const std::vector<double>& score, const std::vector<bool>& correct)
{
    if (score.size() != correct.size()) {
        throw InputError("AUROC: " + std::to_string(score.size()) + " scores but " + std::to_string(correct.size())
                         + " correctness flags");
    }
    const size_t n = score.size();
    if (std::any_of(score.begin(), score.end(), [](double s) { return std::isnan(s); })) {
        throw InputError("AUROC: a score is NaN"); // NaN would break the sort's ordering
    }
    const auto positives = static_cast<double>(std::count(correct.begin(), correct.end(), true));
    const double negatives = static_cast<double>(n) - positives;
    if (positives == 0.0 || negatives == 0.0) {
        return std::nullopt;
    }
    // Rank-sum form of Mann-Whitney: O(N log N) instead of comparing every pair; tied scores
    // share their mean rank, which is the same as counting a tied pair as 1/2.
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t{0});
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return score[a] < score[b]; });
    double positiveRankSum = 0.0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && score[order[j]] == score[order[i]]) {
            ++j;
        }
        const double meanRank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0; // ranks i+1 .. j
        for (size_t t = i; t < j; ++t) {
            positiveRankSum += correct[order[t]] ? meanRank : 0.0;
        }
        i = j;
    }
    const double u = positiveRankSum - positives * (positives + 1.0) / 2.0;
    return u / (positives * negatives);
}

} // namespace lbd
