#include "core/infer/predictor.h"

#include "core/data/augmentation.h"
#include "core/data/imagedecoder.h"
#include "core/eval/decisions.h"
#include "core/eval/uncertainty.h"
#include "core/eval/oodfitfile.h"
#include "core/infer/inputdescription.h"
#include "core/infer/loadedrun.h"
#include "core/train/runfolder.h"
#include "core/util/device.h"
#include "core/util/error.h"
#include "core/util/numbertext.h"


#include <cmath>
#include <filesystem>

namespace lbd {

namespace {

// A pixel whose channels differ by more than this makes an image colour (JPEG noise in a grey
// picture stays below it).
constexpr int kColourSpread = 12;

bool hasColour(const torch::Tensor& rgb) // uint8 [3, H, W]
{
    const auto wide = rgb.to(torch::kInt16);
    return (std::get<0>(wide.max(0)) - std::get<0>(wide.min(0))).max().item<int>() > kColourSpread;
}

} // namespace

struct Predictor::State {
    LoadedRun run;
    torch::Device device;
    UtilityMatrix utility;
    DecisionRule rule;
    std::optional<double> deferUtility;
    std::optional<OodFit> ood; // absent: oodNote says why
    std::string oodNote;

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
        loadOod();
    }

    // A missing, damaged or stale fit leaves the run usable: every prediction then says that
    // unfamiliar images are not flagged, and why.
    void loadOod()
    {
        const std::string path = RunFolder(run.directory).path(kOodFitFile);
        const std::string refit = " (fit it: lbd ood " + run.directory + " --fit); unfamiliar images are not flagged";
        std::error_code ec;
        if (!std::filesystem::exists(path, ec)) {
            oodNote = "this run has no out-of-distribution fit" + refit;
            return;
        }
        try {
            OodFit fit = loadOodFit(path, oodModelShape(*run.model));
            if (fit.checkpointEpoch != run.epoch) {
                oodNote = path + " was fitted on the model of epoch " + std::to_string(fit.checkpointEpoch)
                          + ", the checkpoint is of epoch " + std::to_string(run.epoch) + refit;
                return;
            }
            ood = std::move(fit);
        } catch (const InputError& error) {
            oodNote = std::string(error.what()) + refit;
        }
    }

    Prediction predict(const torch::Tensor& image, const std::string& source, int topK, std::string inputDescription)
    {
        c10::InferenceMode inference;
        const auto input = preprocessBatch(image.unsqueeze(0).to(device), run.manifest.inputSize, run.manifest.normalization);
        // The stages' pooled outputs too: the caution's feature ensemble (oodscore.h).
        const ParticleStageFeatures output = run.model->forwardWithStageFeatures(input);
        const auto probabilities = torch::softmax(output.logits.to(torch::kFloat32), -1).to(torch::kFloat64).cpu(); // [M,1,C]
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
        prediction.inputDescription = std::move(inputDescription);
        if (ood) {
            OodCheck check;
            check.method = oodMethodName(ood->method);
            OodFeatures features;
            for (const auto& stage : output.stages) {
                features.stages.push_back(stage.to(torch::kFloat64).cpu());
            }
            features.logits = output.logits.to(torch::kFloat64).cpu();
            check.score = oodScores(*ood, ood->method, features).item<double>();
            check.threshold = ood->threshold();
            check.caution = check.score > check.threshold;
            check.fittedOn = ood->source;
            check.passRate = ood->passRate;
            prediction.ood = check;
        } else {
            prediction.oodNote = oodNote;
        }
        return prediction;
    }

    // Decodes with `decode(format, out, info)` at the run's format, says what was done (decoding
    // again as 3 channels to tell colour from grey when the run's own format is grey) and predicts,
    // keeping the pixels the model was given for the Classify page's preview.
    template <typename Decode>
    Prediction decodeAndPredict(const std::string& source, int topK, Decode decode)
    {
        const ImageFormat f = format();
        auto image = torch::empty({f.channels, f.height, f.width}, torch::kUInt8);
        DecodedImageInfo info;
        decode(f, image.data_ptr<uint8_t>(), &info);
        torch::Tensor rgb = image;
        if (f.channels != 3) {
            ImageFormat colour = f;
            colour.channels = 3;
            rgb = torch::empty({3, f.height, f.width}, torch::kUInt8);
            decode(colour, rgb.data_ptr<uint8_t>(), nullptr);
        }
        Prediction prediction = predict(image, source, topK, describeInput(info, hasColour(rgb), f, run.manifest.inputSize));
        prediction.inputChannels = f.channels;
        prediction.inputHeight = f.height;
        prediction.inputWidth = f.width;
        prediction.inputPixels.assign(image.data_ptr<uint8_t>(), image.data_ptr<uint8_t>() + image.numel());
        return prediction;
    }

    // The run's image format, with the background its training images' transparency was composited on.
    ImageFormat format() const
    {
        ImageFormat f{run.manifest.imageFormat.channels, run.manifest.imageFormat.height, run.manifest.imageFormat.width};
        f.background = run.config.data.alphaBackground;
        return f;
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
    return m_state->decodeAndPredict(path, topK, [&](const ImageFormat& format, uint8_t* out, DecodedImageInfo* info) {
        decodeImageFile(path, format, out, {}, info);
    });
}

Prediction Predictor::predictBytes(const std::vector<uint8_t>& encoded, const std::string& label, int topK)
{
    return m_state->decodeAndPredict(label, topK, [&](const ImageFormat& format, uint8_t* out, DecodedImageInfo* info) {
        decodeImageBytes(encoded, label, format, out, {}, info);
    });
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

std::string Predictor::oodSummary() const
{
    const auto& ood = m_state->ood;
    if (!ood) {
        return m_state->oodNote;
    }
    return oodMethodName(ood->method) + " score fitted on " + std::to_string(ood->images) + " " + ood->source
           + "; images scoring above " + numberText(ood->threshold(), 4) + " (which "
           + std::to_string(static_cast<int>(std::lround(ood->passRate * 100))) + " % of them pass) get a caution";
}

bool Predictor::hasOodFit() const { return m_state->ood.has_value(); }

} // namespace lbd
