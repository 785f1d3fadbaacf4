// A preset's epochs stretched to a small data set (core/train/schedulefit.h): the quick preset's 6
// epochs on a 517-image folder are 30 optimizer steps; the schedule keeps its fractions.
#include "core/train/schedulefit.h"

#include <QtTest>

using namespace lbd;

class TestScheduleFit : public QObject {
    Q_OBJECT
private slots:
    void smallDataGetsEnoughSteps()
    {
        // 517 images at batch 128: 5 steps an epoch (the last batch of 5 too); 300 steps need 60 epochs.
        QCOMPARE(epochsForSmallData(6, 517, 128), 60);
        // Fashion-MNIST-LT's 14,886 images: 117 steps an epoch, 6 epochs are enough.
        QCOMPARE(epochsForSmallData(6, 14886, 128), 6);
        // Never fewer than asked, never more than the cap.
        QCOMPARE(epochsForSmallData(100, 517, 128), 100);
        QCOMPARE(epochsForSmallData(6, 10, 128), kMaxStretchedEpochs);
        QCOMPARE(epochsForSmallData(6, 0, 128), 6);
    }

    void theScheduleKeepsItsFractions()
    {
        TrainConfig config;
        config.train.epochs = 6;
        config.objective.drwEpoch = 4;
        config.optimizer.decayEpochs = {5};
        config.optimizer.decayFactors = {0.1};
        config.optimizer.warmupEpochs = 1;
        config.objective.tau = 2;
        stretchSchedule(config, 60);
        QCOMPARE(config.train.epochs, 60);
        QCOMPARE(config.objective.drwEpoch, 40);
        QCOMPARE(config.optimizer.decayEpochs, std::vector<int>{50});
        QCOMPARE(config.optimizer.warmupEpochs, 10);
        QCOMPARE(config.objective.tau, 20.0);
        config.validate();
    }
};

QTEST_APPLESS_MAIN(TestScheduleFit)
#include "test_schedulefit.moc"
