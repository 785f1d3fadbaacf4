#include "core/lbd/objective.h"

#include "core/lbd/discrepancyratio.h"
#include "core/util/error.h"

#include <cmath>
#include <utility>

namespace lbd {

namespace {

// 1 - p(k) is clamped to this before the log in the bounded form: at most -log(1e-6) = 13.8 per
// term, representable in float32 next to probabilities of order 1.
constexpr double kComplementFloor = 1e-6;

torch::Tensor deviceTensor(const std::vector<double>& values, const std::vector<int64_t>& shape,
                           const torch::Device& device)
{
    // Built in double on the host, stored in float32 (the dtype the losses run in).
    return torch::tensor(values, torch::dtype(torch::kDouble)).reshape(shape).to(device, torch::kFloat);
}

} // namespace

LbdObjective::LbdObjective(ObjectiveSpec spec, std::vector<int64_t> trainCounts, torch::Device device)
    : m_spec(std::move(spec))
    , m_trainCounts(std::move(trainCounts))
    , m_device(device)
{
    m_classCount = static_cast<int64_t>(m_trainCounts.size());
    m_spec.validateFor(m_classCount);
    // Also checks the counts (at least one class, every count >= 1).
    m_classWeightValues = classWeights(m_trainCounts, m_spec.discrepancy);

    const int64_t classes = m_classCount;
    m_marginValues.assign(m_trainCounts.size(), 0.0);
    if (m_spec.ldamMargins) {
        // LDAM: m_c = K n_c^(-1/4) with K chosen so that the rarest class gets maxMargin.
        double largest = 0.0;
        for (size_t c = 0; c < m_trainCounts.size(); ++c) {
            m_marginValues[c] = std::pow(static_cast<double>(m_trainCounts[c]), -0.25);
            largest = std::max(largest, m_marginValues[c]);
        }
        for (double& m : m_marginValues) {
            m *= m_spec.maxMargin / largest;
        }
    }
    // Logit adjustment: log pi_c rather than log n_c (the same softmax: the shift by log N
    // cancels), so the offsets are <= 0 and small next to the logits whatever the data size.
    m_logitAdjustmentValues.assign(m_trainCounts.size(), 0.0);
    if (m_spec.logitAdjustment) {
        double total = 0.0;
        for (int64_t n : m_trainCounts) {
            total += static_cast<double>(n);
        }
        for (size_t c = 0; c < m_trainCounts.size(); ++c) {
            m_logitAdjustmentValues[c] = m_spec.logitAdjustTau * std::log(static_cast<double>(m_trainCounts[c]) / total);
        }
    }
    std::vector<double> marginRows(static_cast<size_t>(classes * classes), 0.0);
    for (int64_t c = 0; c < classes; ++c) {
        marginRows[static_cast<size_t>(c * classes + c)] = m_spec.scale * m_marginValues[c];
    }

    // U_off: the diagonal is dropped because the cross-entropy already holds log p(y).
    std::vector<double> utilityOff(static_cast<size_t>(classes * classes), 0.0);
    bool offDiagonal = false;
    if (!m_spec.utilityMatrix.empty()) {
        for (int64_t t = 0; t < classes; ++t) {
            for (int64_t d = 0; d < classes; ++d) {
                const auto i = static_cast<size_t>(t * classes + d);
                if (t != d && m_spec.utilityMatrix[i] != 0.0) {
                    utilityOff[i] = m_spec.utilityMatrix[i];
                    offDiagonal = true;
                }
            }
        }
    }
    m_utilityActive = m_spec.utilityTerm && offDiagonal;

    m_deferredWeights = deviceTensor(m_classWeightValues, {classes}, m_device);
    m_unitWeights = torch::ones({classes}, torch::dtype(torch::kFloat).device(m_device));
    m_marginRows = deviceTensor(marginRows, {classes, classes}, m_device);
    if (m_spec.logitAdjustment) {
        m_logitAdjustment = deviceTensor(m_logitAdjustmentValues, {classes}, m_device);
    }
    if (m_utilityActive) {
        m_utilityOff = deviceTensor(utilityOff, {classes, classes}, m_device);
        m_utilityPenalty = (-m_utilityOff).clamp_min(0.0);
        m_utilityReward = m_utilityOff.clamp_min(0.0);
    }
    m_zero = torch::zeros({}, torch::dtype(torch::kFloat).device(m_device));
    m_currentWeights = torch::empty({classes}, torch::dtype(torch::kFloat).device(m_device));
    m_utilityWeight = torch::zeros({}, torch::dtype(torch::kFloat).device(m_device));
    m_annealWeight = torch::zeros({}, torch::dtype(torch::kFloat).device(m_device));
    setEpoch(1);
}

void LbdObjective::setEpoch(int epoch)
{
    if (epoch < 1) {
        throw InputError("objective: 'epoch' is 1-based (got " + std::to_string(epoch) + ")");
    }
    m_epoch = epoch;
    const bool deferredOn = epoch > m_spec.drwEpoch;
    // In-place: a captured graph keeps reading the same storage.
    m_currentWeights.copy_(deferredOn ? m_deferredWeights : m_unitWeights);
    const bool utilityOn = m_utilityActive && (!m_spec.utilityAfterDrwOnly || deferredOn);
    m_utilityWeight.fill_(utilityOn ? 1.0 / m_spec.alpha : 0.0);
    m_annealWeight.fill_(m_spec.repulsive ? std::exp(-static_cast<double>(epoch) / m_spec.tau) : 0.0);
}

torch::Tensor LbdObjective::marginAdjusted(const torch::Tensor& logits, const torch::Tensor& labels) const
{
    if (!m_spec.ldamMargins) {
        return logits;
    }
    // Row y of diag(s * m) is s * m_y at column y and 0 elsewhere: one gather instead of a
    // one-hot build, and the same shape [B, C] broadcasts over the particles.
    return logits - m_marginRows.index_select(0, labels);
}

torch::Tensor LbdObjective::lossLogits(const torch::Tensor& logits, const torch::Tensor& labels) const
{
    const torch::Tensor margins = marginAdjusted(logits, labels);
    // [C] broadcasts over [M, B, C]: one add, no host branch on the epoch.
    return m_spec.logitAdjustment ? margins + m_logitAdjustment : margins;
}

torch::Tensor LbdObjective::repulsiveTerm(const torch::Tensor& classifierWeights, int64_t particles) const
{
    if (!classifierWeights.defined() || classifierWeights.dim() < 2 || classifierWeights.size(0) != particles) {
        throw InputError("objective: 'classifierWeights' must be [M, ...] with M = " + std::to_string(particles)
                         + " particles for the repulsive term");
    }
    const torch::Tensor flat = classifierWeights.reshape({particles, -1});
    // Centred form of mean(theta^2) - mean(theta)^2 (the paper's SWAG-diagonal variance): the
    // same value, without the cancellation.
    const torch::Tensor centred = flat - flat.mean(0, /*keepdim=*/true);
    const torch::Tensor variance = centred.pow(2).mean(0);
    return 0.5 * torch::log(variance + m_spec.eps).mean();
}

ObjectiveTerms LbdObjective::compute(const torch::Tensor& logits, const torch::Tensor& labels,
                                     const torch::Tensor& classifierWeights, const GlobalBatch* global) const
{
    if (!logits.defined() || logits.dim() != 3 || logits.size(2) != m_classCount) {
        throw InputError("objective: 'logits' must be [M, B, C] with C = " + std::to_string(m_classCount));
    }
    if (!labels.defined() || labels.dim() != 1 || labels.size(0) != logits.size(1)
        || labels.scalar_type() != torch::kLong) {
        throw InputError("objective: 'labels' must be int64 [B] with B = " + std::to_string(logits.size(1)));
    }
    if (global != nullptr
        && (!global->classCounts.defined() || global->classCounts.dim() != 1 || global->classCounts.size(0) != m_classCount
            || global->classCounts.scalar_type() != torch::kFloat || global->classCounts.device().type() != m_device.type()
            || global->ranks < 1)) {
        throw InputError("objective: the global batch's 'classCounts' must be float [C] with C = " + std::to_string(m_classCount)
                         + " on the objective's device, and 'ranks' at least 1");
    }
    const int64_t particles = logits.size(0);
    const int64_t batch = logits.size(1);

    torch::Tensor z = logits;
    if (z.scalar_type() == torch::kHalf || z.scalar_type() == torch::kBFloat16) {
        z = z.to(torch::kFloat); // softmax statistics in 16 bits lose the tail classes
    }
    const torch::Tensor logProbs = torch::log_softmax(lossLogits(z, labels), -1); // [M, B, C]
    const torch::Tensor sampleWeights = m_currentWeights.index_select(0, labels);     // [B]

    ObjectiveTerms terms;
    // Weighted mean, as torch's cross_entropy(weight=...): sum_b w_b ce_b / sum_b w_b. A rank's
    // share divides by the global batch's sum of weights over `ranks` (device values: no sync,
    // and a captured graph reads the counts' storage).
    const torch::Tensor ce = -logProbs.gather(2, labels.view({1, batch, 1}).expand({particles, batch, 1})).squeeze(2);
    const torch::Tensor weightSum = global != nullptr
                                        ? (global->classCounts * m_currentWeights).sum() / static_cast<double>(global->ranks)
                                        : sampleWeights.sum();
    terms.particleCe = (ce * sampleWeights).sum(1) / weightSum;
    // The utility term's mean over the batch: 1/B, or a share's ranks / B_global.
    const auto perImage = [&](const torch::Tensor& sum) {
        return global != nullptr ? sum * (static_cast<double>(global->ranks) / global->classCounts.sum())
                                 : sum * (1.0 / static_cast<double>(batch));
    };
    terms.weightedCe = terms.particleCe.mean();
    terms.total = terms.weightedCe;

    terms.utilityWeight = m_utilityWeight;
    if (m_utilityActive) {
        // On the same margin- (and logit-) adjusted log-probabilities as the cross-entropy (the paper's
        // objective has one p(y'|x, theta) for both; the published code does the same).
        switch (m_spec.utilityForm) {
        case UtilityForm::Published: {
            // UT_j = -(1/B) sum_b sum_k w_k U_off[y_b, k] log p_j(k | x_b): each class k weighted
            // by its own ratio, as the published loss.py does.
            const torch::Tensor rows = m_utilityOff.index_select(0, labels) * m_currentWeights.unsqueeze(0); // [B, C]
            terms.particleUtility = perImage(-(logProbs * rows).sum({1, 2}));
            break;
        }
        case UtilityForm::Paper: {
            // UT_j = -(1/B) sum_b w_{y_b} sum_k U_off[y_b, k] log p_j(k | x_b) (paper Eq. 8).
            const torch::Tensor rows = m_utilityOff.index_select(0, labels) * sampleWeights.unsqueeze(1); // [B, C]
            terms.particleUtility = perImage(-(logProbs * rows).sum({1, 2}));
            break;
        }
        case UtilityForm::Bounded: {
            // UT_j = (1/B) sum_b w_{y_b} sum_{k != y_b} [u+ (-log p(k)) + u- (-log(1 - p(k)))]:
            // a penalty pushes p(k) to 0 with a finite reward ("negative learning"), a positive
            // utility pulls p(k) up like a soft label. Every term is >= 0.
            // log(1 - p) as log(-expm1(log p)), in double: for a wrong class near p = 1, 1 - p is
            // below float32's resolution of log p (an absolute error of ~1e-6 at logits of 30).
            // The tensors are [M, B, C], small next to the network. The floor keeps p = 1 finite.
            const torch::Tensor logComplement =
                torch::log((-torch::expm1(torch::log_softmax(lossLogits(z, labels).to(torch::kDouble), -1)))
                               .clamp_min(kComplementFloor))
                    .to(logProbs.scalar_type());
            const torch::Tensor penalty = m_utilityPenalty.index_select(0, labels) * sampleWeights.unsqueeze(1); // [B, C]
            const torch::Tensor reward = m_utilityReward.index_select(0, labels) * sampleWeights.unsqueeze(1);
            terms.particleUtility = perImage(-(logComplement * penalty + logProbs * reward).sum({1, 2}));
            break;
        }
        }
        terms.utility = terms.particleUtility.mean();
        // Multiplying by a device scalar (0 before the DRW epoch) instead of branching keeps
        // the step's graph identical across epochs.
        terms.total = terms.total + m_utilityWeight * terms.utility;
    } else {
        terms.utility = m_zero;
    }

    terms.annealWeight = m_annealWeight;
    if (m_spec.repulsive && particles > 1) {
        terms.repulsive = repulsiveTerm(classifierWeights, particles);
        terms.total = terms.total - m_annealWeight * terms.repulsive;
    } else {
        terms.repulsive = m_zero;
        if (particles == 1) {
            terms.annealWeight = m_zero; // a(e) means nothing with one particle
        }
    }
    return terms;
}

torch::Tensor LbdObjective::pack(const ObjectiveTerms& terms)
{
    return torch::stack({terms.total.detach().reshape({}), terms.weightedCe.detach().reshape({}),
                         terms.utility.detach().reshape({}), terms.utilityWeight.detach().reshape({}),
                         terms.repulsive.detach().reshape({}), terms.annealWeight.detach().reshape({})})
        .to(torch::kDouble);
}

ObjectiveValues LbdObjective::unpack(const torch::Tensor& packed)
{
    const torch::Tensor host = packed.detach().to(torch::kDouble).cpu().contiguous();
    const double* v = host.data_ptr<double>();
    ObjectiveValues values;
    values.total = v[0];
    values.weightedCe = v[1];
    values.utility = v[2];
    values.utilityWeight = v[3];
    values.repulsive = v[4];
    values.annealWeight = v[5];
    return values;
}

ObjectiveValues LbdObjective::values(const ObjectiveTerms& terms)
{
    return unpack(pack(terms));
}

} // namespace lbd
