#include "core/infer/predictor.h"

#include "core/data/augmentation.h"
#include "core/data/imagedecoder.h"
#include "core/eval/decisions.h"
#include "core/eval/uncertainty.h"
#include "core/infer/loadedrun.h"
#include "core/util/device.h"
#include "core/util/error.h"

#include <cmath>

namespace lbd {

struct Predictor::State {
    LoadedRun run;
    torch::Device device;
    UtilityMatrix utility;
    DecisionRule rule;
    std::optional<double> deferUtility;

    State(LoadedRun loaded, torch::Device d)
        : run(std::move(loaded))
        , device(d)
        , utility(run.decisions.decisionUtility)
        , rule(run.decisions.rule)
        , deferUtility(run.decisions.deferUtility)
    {
        if (deferUtility && !decisionRuleInfo(rule).supportsDefer) {
            deferUtility.reset(); // cannot happen for a config that validated; stay usable anyway
        }
    }

    Prediction predict(const torch::Tensor& image, const std::string& source, int topK)
    {
        c10::InferenceMode inference;
        const auto input = preprocessBatch(image.unsqueeze(0).to(device), run.manifest.inputSize, run.manifest.normalization);
        const auto probabilities = torch::softmax(run.model->forward(input).to(torch::kFloat32), -1).to(torch::kFloat64).cpu(); // [M,1,C]
        const auto mean = probabilities.mean(0)[0];
        const Decisions decided = decide(probabilities, utility, rule, deferUtility);
        const UncertaintyBatch uncertainty = computeUncertainty(probabilities);

        Prediction prediction;
        prediction.source = source;
        prediction.rule = rule;
        const int64_t classes = mean.size(0);
        prediction.meanProbabilities.assign(mean.data_ptr<double>(), mean.data_ptr<double>() + classes);
        for (int64_t j = 0; j < probabilities.size(0); ++j) {
            const auto row = probabilities[j][0].contiguous();
            prediction.particleProbabilities.emplace_back(row.data_ptr<double>(), row.data_ptr<double>() + classes);
        }
        const auto sorted = mean.sort(0, /*descending=*/true);
        const auto values = std::get<0>(sorted);
        const auto indices = std::get<1>(sorted);
        for (int64_t k = 0; k < std::min<int64_t>(std::max(topK, 1), classes); ++k) {
            prediction.topK.emplace_back(indices[k].item<int64_t>(), values[k].item<double>());
        }
        prediction.argmaxClass = prediction.topK.front().first;
        prediction.decidedClass = decided.undeferred[0].item<int64_t>();
        prediction.decisionConfidence = decided.confidence[0].item<double>();
        prediction.deferUtility = deferUtility;
        prediction.deferred = decided.decisions[0].item<int64_t>() == kDeferred;
        prediction.warning = decisionRuleWarning(rule, utility);
        const auto scores = decided.scores[0].to(torch::kFloat64).contiguous();
        prediction.decisionScores.assign(scores.data_ptr<double>(), scores.data_ptr<double>() + classes);
        prediction.uncertainty = uncertainty.image(0);
        return prediction;
    }

    ImageFormat format() const
    {
        return {run.manifest.imageFormat.channels, run.manifest.imageFormat.height, run.manifest.imageFormat.width};
    }
};

Predictor::Predictor(const std::string& runDirectory, const std::string& device)
{
    const torch::Device torchDevice = parseDevice(device);
    m_state = std::make_unique<State>(loadRun(runDirectory, torchDevice), torchDevice);
}

Predictor::~Predictor() = default;

Prediction Predictor::predictFile(const std::string& path, int topK)
{
    const ImageFormat format = m_state->format();
    auto image = torch::empty({format.channels, format.height, format.width}, torch::kUInt8);
    decodeImageFile(path, format, image.data_ptr<uint8_t>());
    return m_state->predict(image, path, topK);
}

Prediction Predictor::predictBytes(const std::vector<uint8_t>& encoded, const std::string& label, int topK)
{
    const ImageFormat format = m_state->format();
    auto image = torch::empty({format.channels, format.height, format.width}, torch::kUInt8);
    decodeImageBytes(encoded, label, format, image.data_ptr<uint8_t>());
    return m_state->predict(image, label, topK);
}

void Predictor::setUtility(const UtilityMatrix& utility)
{
    if (utility.classCount() != static_cast<int64_t>(m_state->run.manifest.classNames.size())) {
        throw InputError("utility matrix is " + std::to_string(utility.classCount()) + " x " + std::to_string(utility.classCount())
                         + ", the run has " + std::to_string(m_state->run.manifest.classNames.size()) + " classes");
    }
    m_state->utility = utility;
}

void Predictor::setRule(DecisionRule rule)
{
    if (m_state->deferUtility && !decisionRuleInfo(rule).supportsDefer) {
        throw InputError("the " + decisionRuleName(rule) + " rule has no defer option; turn the defer option off first");
    }
    m_state->rule = rule;
}

void Predictor::setDeferUtility(std::optional<double> deferUtility)
{
    if (deferUtility && (!std::isfinite(*deferUtility) || !decisionRuleInfo(m_state->rule).supportsDefer)) {
        throw InputError(!std::isfinite(*deferUtility)
                             ? std::string("the defer utility must be a finite number")
                             : "the " + decisionRuleName(m_state->rule) + " rule has no defer option (use expected or argmax)");
    }
    m_state->deferUtility = deferUtility;
}

const UtilityMatrix& Predictor::utility() const { return m_state->utility; }
DecisionRule Predictor::rule() const { return m_state->rule; }
std::optional<double> Predictor::deferUtility() const { return m_state->deferUtility; }
const RunDecisions& Predictor::runDecisions() const { return m_state->run.decisions; }
const std::vector<std::string>& Predictor::classNames() const { return m_state->run.manifest.classNames; }
int64_t Predictor::particleCount() const { return m_state->run.modelSpec.particles; }

} // namespace lbd
