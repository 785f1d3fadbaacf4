#pragma once
// A training config that runs in about a second on two CPU cores: 4 synthetic classes of 16x16
// images, a small CNN with 2 particles, the full LBD objective.
#include "core/train/trainconfig.h"

namespace lbd::test {

inline TrainConfig tinyConfig(int epochs = 2)
{
    TrainConfig config;
    config.name = "tiny";
    config.data.dataset = "synthetic";
    config.data.synthetic.classes = 4;
    config.data.synthetic.trainPerClass = 40;
    config.data.synthetic.testPerClass = 10;
    config.data.synthetic.channels = 1;
    config.data.synthetic.size = 16;
    config.data.longTail.imbalanceRatio = 4;
    config.augment.outputSize = 16;
    config.augment.padding = 2;
    config.model.arch = "smallcnn";
    config.model.particles = 2;
    config.objective.drwEpoch = 1;
    config.objective.alpha = 1.0;
    config.objective.tau = 2;
    config.optimizer.learningRate = 0.05;
    config.optimizer.warmupEpochs = 1;
    config.optimizer.decayEpochs = {};
    config.optimizer.decayFactors = {};
    config.train.epochs = epochs;
    config.train.batchSize = 32;
    config.train.evalEvery = 1;
    config.train.device = "cpu";
    config.train.threads = 2;
    config.objective.utility = lbd::utilityFromSpec("tail:0.5");
    config.decision.utility = lbd::utilityFromSpec("tail:0.5");
    return config;
}

} // namespace lbd::test
