// Runs trained as one fused model (`lbd study --fuse`, core/train/fusedrungroup.h) train as they
// do alone: each run gets its own batches (the same image sums at every step as in a group of one),
// the same loss curve and test results as the plain `lbd train` run (within float tolerance:
// grouped kernels sum in another order), and a member that diverges ends `failed` alone while the
// others go on with the curves they have alone.
#include "core/train/fusedrungroup.h"
#include "core/train/pythonexport.h"
#include "core/train/runfolder.h"
#include "core/train/trainer.h"
#include "core/util/error.h"
#include "tests/support/tinyconfig.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <thread>
#include <vector>

using namespace lbd;

namespace {

// Three runs that a study would fuse: the seeds of one cell, one of them with another loss
// setting (cells that differ only in the objective).
std::vector<TrainConfig> threeRuns(const std::string& arch, int epochs)
{
    std::vector<TrainConfig> configs;
    for (uint64_t seed : {1, 2, 3}) {
        TrainConfig config = test::tinyConfig(epochs);
        config.model.arch = arch;
        config.train.seed = seed;
        config.train.threads = 1;
        if (seed == 3) {
            config.objective.tau = 1;
        }
        configs.push_back(config);
    }
    return configs;
}

std::string runDirectory(const QTemporaryDir& dir, size_t index)
{
    return dir.path().toStdString() + "/run-" + std::to_string(index);
}

// Each run on a thread of its own through `group`; the error each ended with ("" when none).
std::vector<std::string> trainFused(const std::vector<TrainConfig>& configs, const QTemporaryDir& dir, FusedRunGroup& group)
{
    std::vector<std::string> errors(configs.size());
    std::vector<std::thread> threads;
    for (size_t g = 0; g < configs.size(); ++g) {
        threads.emplace_back([&, g] {
            try {
                Trainer trainer(configs[g], runDirectory(dir, g));
                TrainingCallbacks callbacks;
                callbacks.fused = &group.member(static_cast<int>(g));
                trainer.run(callbacks);
            } catch (const std::exception& error) {
                errors[g] = error.what();
            }
            group.leave(static_cast<int>(g));
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    return errors;
}

void trainAlone(const TrainConfig& config, const std::string& directory)
{
    Trainer trainer(config, directory);
    trainer.run({});
}

std::string state(const std::string& directory)
{
    return RunFolder(directory).readJson(RunFolder::kStatus).at("state").get<std::string>();
}

// The run's curve (per epoch: loss, its terms, train accuracy, test accuracy) and final test
// probabilities equal the reference's within `tolerance` (relative for the curve).
void expectSameRun(const std::string& fused, const std::string& alone, double tolerance, double probabilityTolerance = 1e-4)
{
    const auto fusedLines = RunFolder(fused).readJsonLines(RunFolder::kMetrics);
    const auto aloneLines = RunFolder(alone).readJsonLines(RunFolder::kMetrics);
    QCOMPARE(fusedLines.size(), aloneLines.size());
    for (size_t e = 0; e < fusedLines.size(); ++e) {
        for (const char* key : {"loss", "weighted_ce", "utility", "repulsive", "train_accuracy", "lr"}) {
            const double a = aloneLines[e].at(key).get<double>();
            const double f = fusedLines[e].at(key).get<double>();
            QVERIFY2(std::abs(f - a) <= tolerance * std::max(1.0, std::abs(a)),
                     qPrintable(QString("epoch %1 %2: fused %3, alone %4").arg(e + 1).arg(key).arg(f, 0, 'g', 10).arg(a, 0, 'g', 10)));
        }
        const double a = aloneLines[e].at("evaluation").at("accuracy").at("accuracy").get<double>();
        const double f = fusedLines[e].at("evaluation").at("accuracy").at("accuracy").get<double>();
        QCOMPARE(f, a);
    }
    const auto fusedProbabilities = loadTestProbabilities(RunFolder(fused).path(RunFolder::kTestProbabilities));
    const auto aloneProbabilities = loadTestProbabilities(RunFolder(alone).path(RunFolder::kTestProbabilities));
    const double difference = (fusedProbabilities.probabilities - aloneProbabilities.probabilities).abs().max().item<double>();
    QVERIFY2(difference < probabilityTolerance, qPrintable(QString("final test probabilities differ by %1").arg(difference)));
}

} // namespace

class TestFusedRuns : public QObject {
    Q_OBJECT
private slots:
    void fusedRunsTrainAsTheyDoAlone_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<int>("epochs");
        QTest::addColumn<double>("probabilityTolerance");
        QTest::newRow("smallcnn") << "smallcnn" << 3 << 1e-4;
        // ResNet-32 on these 16x16 images in batches of 32 is chaotic beyond its first epoch: the
        // same run alone with 2 CPU threads instead of 1 (another summation order, nothing else)
        // ends epoch 2 with a loss 3e-3 away (measured 2026-11-28), as the fused run does. One
        // epoch (3 steps, DRW and repulsion on) stays within 1e-5 of the run alone; its test
        // probabilities (batch-norm statistics of 3 tiny batches, a cosine scale of 30) move by
        // 4e-3 when the run alone changes its thread count, and the fused run's are within that.
        QTest::newRow("resnet32") << "resnet32" << 1 << 1e-2;
    }

    void fusedRunsTrainAsTheyDoAlone()
    {
        QFETCH(QString, arch);
        QFETCH(int, epochs);
        QFETCH(double, probabilityTolerance);
        const auto configs = threeRuns(arch.toStdString(), epochs);
        QTemporaryDir alone, fused, single;
        for (size_t g = 0; g < configs.size(); ++g) {
            trainAlone(configs[g], runDirectory(alone, g));
        }
        FusedRunGroup group(3);
        group.recordImageSums(true);
        const auto errors = trainFused(configs, fused, group);
        for (size_t g = 0; g < configs.size(); ++g) {
            QVERIFY2(errors[g].empty(), errors[g].c_str());
            QCOMPARE(state(runDirectory(fused, g)), std::string("finished"));
            expectSameRun(runDirectory(fused, g), runDirectory(alone, g), 1e-4, probabilityTolerance);
        }
        QVERIFY(group.fusedSteps() > 0);
        // Each run trained its own batches: at every step, the images each slot brought are those
        // its run brings in a group of one (the same run trained without other runs beside it).
        for (size_t g = 0; g < configs.size(); ++g) {
            FusedRunGroup one(1);
            one.recordImageSums(true);
            QTemporaryDir dir;
            const auto error = trainFused({configs[g]}, dir, one);
            QVERIFY2(error[0].empty(), error[0].c_str());
            const auto expected = one.imageSums(0);
            const auto seen = group.imageSums(static_cast<int>(g));
            QCOMPARE(seen.size(), expected.size());
            QCOMPARE(static_cast<int64_t>(seen.size()), group.fusedSteps());
            for (size_t step = 0; step < seen.size(); ++step) {
                QVERIFY2(std::abs(seen[step] - expected[step]) <= 1e-6 * std::max(1.0, std::abs(expected[step])),
                         qPrintable(QString("run %1, step %2: %3 vs %4").arg(g).arg(step).arg(seen[step]).arg(expected[step])));
            }
            if (g == 0) {
                expectSameRun(runDirectory(dir, 0), runDirectory(alone, 0), 1e-4, probabilityTolerance); // a group of one is the run alone
            }
        }
        // The seeds differ, so the runs differ: equal curves above are not one run copied thrice.
        const auto first = RunFolder(runDirectory(alone, 0)).readJsonLines(RunFolder::kMetrics);
        const auto second = RunFolder(runDirectory(alone, 1)).readJsonLines(RunFolder::kMetrics);
        QVERIFY(first[0].at("loss").get<double>() != second[0].at("loss").get<double>());
    }

    void aDivergingMemberFailsAlone()
    {
        auto configs = threeRuns("smallcnn", 3);
        // Run 1 trains normally for an epoch, then its learning rate is absurd and it diverges.
        configs[1].optimizer.decayEpochs = {1};
        configs[1].optimizer.decayFactors = {1e37};
        QTemporaryDir alone, fused;
        trainAlone(configs[0], runDirectory(alone, 0));
        trainAlone(configs[2], runDirectory(alone, 2));
        FusedRunGroup group(3);
        const auto errors = trainFused(configs, fused, group);
        QVERIFY2(errors[0].empty(), errors[0].c_str());
        QVERIFY2(errors[2].empty(), errors[2].c_str());
        QVERIFY2(errors[1].find("loss") != std::string::npos, errors[1].c_str());
        QCOMPARE(state(runDirectory(fused, 1)), std::string("failed"));
        QCOMPARE(RunFolder(runDirectory(fused, 1)).readJson(RunFolder::kStatus).at("epochs_done").get<int>(), 1);
        for (size_t g : {size_t(0), size_t(2)}) {
            QCOMPARE(state(runDirectory(fused, g)), std::string("finished"));
            expectSameRun(runDirectory(fused, g), runDirectory(alone, g), 1e-4);
        }
    }

    // Runs whose batches differ in shape (another batch size) cannot share a step: refused with a
    // reason, not trained wrongly.
    void runsOfAnotherShapeAreRefused()
    {
        auto configs = threeRuns("smallcnn", 1);
        configs.resize(2);
        configs[1].train.batchSize = 16;
        QTemporaryDir fused;
        FusedRunGroup group(2);
        const auto errors = trainFused(configs, fused, group);
        for (const auto& error : errors) {
            QVERIFY2(error.find("different shapes") != std::string::npos, error.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestFusedRuns)
#include "test_fusedruns.moc"
