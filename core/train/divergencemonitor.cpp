#include "core/train/divergencemonitor.h"

#include <cmath>
#include <cstdio>

namespace lbd {
namespace {

std::string number(double value, const char* format = "%.4g")
{
    char text[48];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

std::string percent(double fraction)
{
    return number(100.0 * fraction, "%.1f") + " %";
}

} // namespace

DivergenceMonitor::DivergenceMonitor(const ObjectiveSpec& objective, bool utilityActive, int64_t classCount)
    : m_objective(objective)
    , m_utilityActive(utilityActive)
    , m_boundedBelow(!utilityActive || objective.utilityForm == UtilityForm::Bounded)
    , m_classCount(classCount)
{
}

std::string DivergenceMonitor::dataCause() const
{
    if (m_dataWarnings.empty()) {
        return {};
    }
    return "; or the data as read: the check before the run warned that " + m_dataWarnings.front()
        + (m_dataWarnings.size() > 1 ? " (and " + std::to_string(m_dataWarnings.size() - 1) + " more warnings, run.json data_check)" : "")
        + ", which no learning rate fixes";
}

std::string DivergenceMonitor::likelyCause() const
{
    return likelyModelCause() + dataCause();
}

std::string DivergenceMonitor::likelyModelCause() const
{
    if (m_utilityActive && m_objective.utilityForm != UtilityForm::Bounded) {
        return "likely cause: the " + utilityFormName(m_objective.utilityForm)
            + " utility term is unbounded below with negative utilities, and alpha " + number(m_objective.alpha)
            + " is too small for this utility form (objective.utility_form = bounded, or a larger objective.alpha)";
    }
    if (m_utilityActive) {
        return "likely cause: the utility term dominates the objective (alpha " + number(m_objective.alpha)
            + " is too small; raise objective.alpha) or the learning rate is too high";
    }
    return "likely cause: the learning rate is too high (lower optimizer.lr)";
}

std::optional<std::string> DivergenceMonitor::observe(int epoch, const ObjectiveValues& objective, double trainAccuracy,
                                                      std::optional<double> evaluationAccuracy)
{
    const std::string at = "training diverged in epoch " + std::to_string(epoch) + ": ";
    if (!std::isfinite(objective.total)) {
        return at + "the objective became " + number(objective.total) + "; " + likelyCause();
    }
    // total = CEw + (1/alpha) UT - a R: without R the bounded objective cannot go below 0.
    const double dataPart = objective.total + objective.annealWeight * objective.repulsive;
    if (m_boundedBelow && dataPart < -1e-3) {
        return at + "the objective without the repulsive term is " + number(dataPart)
            + ", below its bound 0 (a numerical failure); " + likelyCause();
    }
    const double chance = m_classCount > 0 ? 1.0 / static_cast<double>(m_classCount) : 0.0;
    const double meaningful = kCollapseMinimumOverChance * chance;
    if (m_bestTrainAccuracy >= meaningful && trainAccuracy < kCollapseShare * m_bestTrainAccuracy) {
        return at + "training accuracy fell from " + percent(m_bestTrainAccuracy) + " to " + percent(trainAccuracy) + "; "
            + likelyCause();
    }
    if (evaluationAccuracy) {
        const bool collapsed = m_bestEvaluationAccuracy >= meaningful && *evaluationAccuracy < kCollapseShare * m_bestEvaluationAccuracy;
        m_collapsedEvaluations = collapsed ? m_collapsedEvaluations + 1 : 0;
        const bool trainingFellToo = trainAccuracy < kCorroborationShare * m_bestTrainAccuracy;
        if (collapsed && (trainingFellToo || m_collapsedEvaluations >= kPersistentEvaluations)) {
            return at + "held-out accuracy fell from " + percent(m_bestEvaluationAccuracy) + " to "
                + percent(*evaluationAccuracy)
                + (trainingFellToo ? " and training accuracy from " + percent(m_bestTrainAccuracy) + " to " + percent(trainAccuracy)
                                   : " for " + std::to_string(m_collapsedEvaluations) + " evaluations in a row")
                + "; " + likelyCause();
        }
    }
    const bool utilityOn = objective.utilityWeight > 0.0;
    if (utilityOn && m_crossEntropyBeforeUtility && m_classCount > 1) {
        const double reference = *m_crossEntropyBeforeUtility;
        const double uniform = std::log(static_cast<double>(m_classCount));
        if (objective.weightedCe > kCrossEntropyGrowth * reference && objective.weightedCe > uniform) {
            return at + "the weighted cross-entropy rose from " + number(reference) + " to " + number(objective.weightedCe)
                + " after the utility term switched on (worse than a uniform guess, ln C = " + number(uniform) + "); "
                + likelyCause();
        }
    }
    if (!utilityOn) {
        m_crossEntropyBeforeUtility = objective.weightedCe;
    }
    m_bestTrainAccuracy = std::max(m_bestTrainAccuracy, trainAccuracy);
    if (evaluationAccuracy) {
        m_bestEvaluationAccuracy = std::max(m_bestEvaluationAccuracy, *evaluationAccuracy);
    }
    return std::nullopt;
}

} // namespace lbd
