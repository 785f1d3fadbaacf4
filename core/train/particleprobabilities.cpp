#include "core/train/particleprobabilities.h"

#include "core/compat/capturegate.h"
#include "core/compat/torchcompat.h"

namespace lbd {

SplitProbabilities particleProbabilities(ParticleModel& model, BatchSource& source, torch::ScalarType autocast)
{
    const bool wasTraining = model->is_training();
    model->eval();
    std::vector<torch::Tensor> probabilities, labels;
    {
        torch::NoGradGuard noGrad;
        source.startEpoch(1);
        Batch batch;
        while (source.next(batch)) {
            compat::yieldToCapture(); // a long evaluation lets another run's capture through between batches
            torch::Tensor logits;
            if (autocast != torch::kFloat32 && batch.images.is_cuda()) {
                compat::setAutocast(batch.images.device(), true, autocast);
                logits = model->forward(batch.images);
                compat::setAutocast(batch.images.device(), false);
                compat::clearAutocastCache();
            } else {
                logits = model->forward(batch.images);
            }
            probabilities.push_back(torch::softmax(logits.to(torch::kFloat32), -1).cpu());
            labels.push_back(batch.labels.cpu());
        }
    }
    model->train(wasTraining);
    return {torch::cat(probabilities, 1), torch::cat(labels, 0)};
}

} // namespace lbd
