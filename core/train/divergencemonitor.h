#pragma once
// Divergence is a failure, not a finish: watches each epoch's objective and accuracies and says
// when training has run away, so that the trainer ends the run as `failed` with a message naming
// the likely cause and keeps the last good checkpoint. Torch-free; the trainer feeds it values.
#include "core/lbd/objectivespec.h"
#include "core/lbd/objectivevalues.h"

#include <optional>
#include <string>
#include <vector>

namespace lbd {

class DivergenceMonitor {
public:
    // Collapse: an accuracy below this share of the best seen before ...
    static constexpr double kCollapseShare = 0.5;
    // ... once that best was at least this multiple of chance (1/C).
    static constexpr double kCollapseMinimumOverChance = 2.0;
    // A held-out collapse alone is not enough: at a high learning rate on long-tailed data the
    // test accuracy of a healthy run swings (measured on an H100, the Fashion-MNIST-LT recipe,
    // seed 1: 76.6 % -> 43.5 % at epoch 20 and 44.3 % at epoch 100, finishing at 90.8 %). It counts
    // when the training accuracy fell too (below this share of its best) ...
    static constexpr double kCorroborationShare = 0.8;
    // ... or when it lasts this many evaluations in a row.
    static constexpr int kPersistentEvaluations = 3;
    // The weighted cross-entropy of the margin-adjusted logits above this multiple of its value
    // before the utility term switched on, and above ln C (worse than a uniform guess).
    static constexpr double kCrossEntropyGrowth = 4.0;

    DivergenceMonitor(const ObjectiveSpec& objective, bool utilityActive, int64_t classCount);

    // One finished epoch: the epoch means of the objective, the training accuracy, and the held-out
    // accuracy when the epoch evaluated (validation when there is one, else test). Returns the
    // failure message when the run diverged.
    std::optional<std::string> observe(int epoch, const ObjectiveValues& objective, double trainAccuracy,
                                       std::optional<double> evaluationAccuracy);

    // The data check's warnings (run.json's data_check): when there are any, every failure message
    // names the data as a possible cause too, before the learning rate is blamed.
    void setDataWarnings(std::vector<std::string> warnings) { m_dataWarnings = std::move(warnings); }
    // "; or the data: ..." when the data check fired, else empty.
    std::string dataCause() const;

private:
    std::string likelyCause() const;
    std::string likelyModelCause() const;
    std::vector<std::string> m_dataWarnings;

    ObjectiveSpec m_objective;
    bool m_utilityActive = false;
    bool m_boundedBelow = true;
    int64_t m_classCount = 0;
    double m_bestTrainAccuracy = 0.0;
    double m_bestEvaluationAccuracy = 0.0;
    int m_collapsedEvaluations = 0; // held-out evaluations in a row below the collapse share
    std::optional<double> m_crossEntropyBeforeUtility; // last epoch without the utility term
};

} // namespace lbd
