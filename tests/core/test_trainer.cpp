// The trainer on tiny synthetic runs: a complete run folder, exact resume, stop within one
// batch keeping the last checkpoint, a diverging run failing cleanly, bad input named.
#include "core/data/longtail.h"
#include "core/eval/reportjson.h"
#include "core/infer/predictor.h"
#include "core/infer/runresults.h"
#include "core/lbd/utilitymatrix.h"
#include "core/train/checkpoint.h"
#include "core/train/configjson.h"
#include "core/train/flatsgd.h"
#include "core/train/pythonexport.h"
#include "core/train/runfolder.h"
#include "core/train/trainer.h"
#include "core/util/error.h"
#include "tests/support/expect.h"
#include "tests/support/tinyconfig.h"

#include <QDir>
#include <QFile>

#include <algorithm>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

using namespace lbd;

namespace {

TrainingResult train(const TrainConfig& config, const QString& directory, TrainingCallbacks callbacks = {},
                     TrainingControl* control = nullptr, bool resume = false)
{
    Trainer trainer(config, directory.toStdString(), resume);
    return trainer.run(callbacks, control);
}

} // namespace

class TestTrainer : public QObject {
    Q_OBJECT
private slots:
    void aRunLeavesACompleteFolder()
    {
        QTemporaryDir dir;
        int epochsSeen = 0;
        TrainingCallbacks callbacks;
        callbacks.onEpoch = [&](const EpochMetrics& m) {
            ++epochsSeen;
            QVERIFY(m.evaluation.has_value());
            QVERIFY(m.argmaxEvaluation.has_value());
            QVERIFY(std::isfinite(m.objective.total));
        };
        const TrainingResult result = train(test::tinyConfig(2), dir.path(), callbacks);
        QCOMPARE(epochsSeen, 2);
        QCOMPARE(result.epochsCompleted, 2);
        QVERIFY(!result.stopped);
        QVERIFY(result.finalReport.has_value());
        const RunFolder folder(dir.path().toStdString());
        for (const char* file : {RunFolder::kConfig, RunFolder::kSplit, RunFolder::kManifest, RunFolder::kStatus,
                                 RunFolder::kMetrics, RunFolder::kCheckpoint, RunFolder::kReport,
                                 RunFolder::kTestProbabilities, RunFolder::kWeights}) {
            QVERIFY2(folder.exists(file), file);
        }
        QCOMPARE(folder.readJsonLines(RunFolder::kMetrics).size(), size_t(2));
        QCOMPARE(folder.readJson(RunFolder::kStatus).at("state").get<std::string>(), std::string("finished"));
        const auto cached = loadTestProbabilities(folder.path(RunFolder::kTestProbabilities));
        QCOMPARE(cached.probabilities.sizes().vec(), (std::vector<int64_t>{2, 40, 4}));
        QVERIFY(torch::allclose(cached.probabilities.sum(-1), torch::ones({2, 40}), 1e-4, 1e-4));
        // No temporary files are left behind by the atomic writes.
        for (const auto& name : QDir(dir.path()).entryList(QDir::Files)) {
            QVERIFY2(!name.contains(".tmp."), qPrintable(name));
        }
        // The config round-trips through config.json.
        const TrainConfig reloaded = loadTrainConfig(folder.path(RunFolder::kConfig));
        QCOMPARE(toJson(reloaded).dump(), toJson(test::tinyConfig(2)).dump());
    }

    void resumeContinuesExactly()
    {
        QTemporaryDir straight, interrupted;
        train(test::tinyConfig(3), straight.path());

        TrainingControl control;
        TrainingCallbacks stopAfterFirst;
        stopAfterFirst.onEpoch = [&](const EpochMetrics& m) {
            if (m.epoch == 1) {
                control.stopRequested = true;
            }
        };
        const TrainingResult first = train(test::tinyConfig(3), interrupted.path(), stopAfterFirst, &control);
        QVERIFY(first.stopped);
        QCOMPARE(first.epochsCompleted, 1);
        QCOMPARE(RunFolder(interrupted.path().toStdString()).readJson(RunFolder::kStatus).at("state").get<std::string>(),
                 std::string("stopped"));
        const TrainingResult resumed = train(test::tinyConfig(3), interrupted.path(), {}, nullptr, true);
        QCOMPARE(resumed.epochsCompleted, 3);
        const auto a = loadTestProbabilities(straight.path().toStdString() + "/test_probabilities.pt");
        const auto b = loadTestProbabilities(interrupted.path().toStdString() + "/test_probabilities.pt");
        QVERIFY(torch::allclose(a.probabilities, b.probabilities, 1e-5, 1e-6));
        QCOMPARE(RunFolder(interrupted.path().toStdString()).readJsonLines(RunFolder::kMetrics).size(), size_t(3));
    }

    void checkpointKeepsTheLossScaler()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/checkpoint.pt";
        torch::nn::Linear model(3, 2);
        FlatSgd optimizer(model->parameters(), 0.9, true, 5e-4, false);
        CheckpointState state{4, "{}\n{}\n{}\n{}\n", "{}", torch::tensor({1024.0f, 7.0f, 3.0f})};
        saveCheckpoint(path, *model, optimizer, state);
        const CheckpointState loaded = loadCheckpoint(path, *model, &optimizer, 4);
        QCOMPARE(loaded.epoch, 4);
        QVERIFY(loaded.lossScaler.defined());
        QVERIFY(torch::equal(loaded.lossScaler, state.lossScaler));
        // A checkpoint written before the scaler was saved still loads; the scaler starts afresh.
        state.lossScaler = torch::Tensor();
        saveCheckpoint(path, *model, optimizer, state);
        QVERIFY(!loadCheckpoint(path, *model, &optimizer, 4).lossScaler.defined());
    }

    void stopTakesEffectWithinOneBatchAndKeepsTheCheckpoint()
    {
        QTemporaryDir dir;
        TrainingControl control;
        int batchesAfterStop = 0;
        bool stopSent = false;
        TrainingCallbacks callbacks;
        TrainConfig config = test::tinyConfig(3);
        config.data.synthetic.trainPerClass = 400; // enough batches for progress reports
        // Stop is asked for as epoch 1 ends (not at a progress report, which comes a few times a
        // second and so depends on the machine's speed); no batch of epoch 2 may run after it.
        callbacks.onBatch = [&](const BatchProgress&) {
            if (stopSent) {
                ++batchesAfterStop;
            }
        };
        callbacks.onEpoch = [&](const EpochMetrics& m) {
            if (m.epoch == 1) {
                control.stopRequested = true;
                stopSent = true;
            }
        };
        const TrainingResult result = train(config, dir.path(), callbacks, &control);
        QVERIFY(stopSent);
        QVERIFY(result.stopped);
        QCOMPARE(result.epochsCompleted, 1);
        QCOMPARE(result.checkpointEpoch, 1);
        QCOMPARE(batchesAfterStop, 0);
        // The epoch-1 checkpoint opens and predicts.
        Predictor predictor(dir.path().toStdString());
        QCOMPARE(predictor.classNames().size(), size_t(4));
    }

    // With checkpoint_every > 1 the newest checkpoint can be older than the last finished epoch,
    // or missing: the result and the message say which, instead of promising a resume.
    void stopBeforeTheFirstCheckpointSaysSo()
    {
        QTemporaryDir dir;
        TrainingControl control;
        TrainConfig config = test::tinyConfig(4);
        config.train.checkpointEvery = 3;
        std::vector<std::string> messages;
        TrainingCallbacks callbacks;
        callbacks.onEpoch = [&](const EpochMetrics& m) {
            if (m.epoch == 2) {
                control.stopRequested = true;
            }
        };
        callbacks.onMessage = [&](const std::string& text) { messages.push_back(text); };
        const TrainingResult result = train(config, dir.path(), callbacks, &control);
        QVERIFY(result.stopped);
        QCOMPARE(result.epochsCompleted, 2);
        QCOMPARE(result.checkpointEpoch, 0);
        QVERIFY(!QFile::exists(dir.filePath(QString::fromStdString(RunFolder::kCheckpoint))));
        const bool said = std::any_of(messages.begin(), messages.end(), [](const std::string& m) {
            return m.find("before the first checkpoint") != std::string::npos && m.find("starts it again from epoch 1") != std::string::npos;
        });
        QVERIFY2(said, "no message that the stopped run starts again from epoch 1");
        // Its config and split are kept: --resume trains it from epoch 1 on the same split.
        const TrainingResult resumed = Trainer(config, dir.path().toStdString(), true).run(TrainingCallbacks{});
        QVERIFY(!resumed.stopped);
        QCOMPARE(resumed.epochsCompleted, config.train.epochs);
        QVERIFY(QFile::exists(dir.filePath(QString::fromStdString(RunFolder::kCheckpoint))));
    }

    void divergingRunFailsCleanlyAndKeepsTheLastCheckpoint()
    {
        QTemporaryDir dir;
        TrainConfig config = test::tinyConfig(4);
        // Epoch 1 trains normally; after it the learning rate is absurd and the loss diverges.
        config.optimizer.decayEpochs = {1};
        config.optimizer.decayFactors = {1e37};
        bool failed = false;
        try {
            train(config, dir.path());
        } catch (const RunError& error) {
            failed = true;
            QVERIFY2(std::string(error.what()).find("loss") != std::string::npos, error.what());
        }
        QVERIFY(failed);
        const RunFolder folder(dir.path().toStdString());
        QCOMPARE(folder.readJson(RunFolder::kStatus).at("state").get<std::string>(), std::string("failed"));
        QCOMPARE(folder.readJson(RunFolder::kStatus).at("epochs_done").get<int>(), 1);
        Predictor predictor(dir.path().toStdString()); // the epoch-1 checkpoint is intact
        QCOMPARE(predictor.particleCount(), int64_t(2));
        for (const auto& name : QDir(dir.path()).entryList(QDir::Files)) {
            QVERIFY2(!name.contains(".tmp."), qPrintable(name));
        }
    }

    // The run folder keeps both matrices by value: editing or deleting the user's file after
    // training changes nothing about the run (config.json, lbd eval, the Decision lab).
    void utilityFilesAreCopiedIntoTheRun()
    {
        QTemporaryDir dir;
        const std::string file = dir.path().toStdString() + "/mine.csv";
        saveUtilityCsv(UtilityMatrix::tailSensitive(4, 3.0), file);
        TrainConfig config = test::tinyConfig(1);
        config.objective.utility = utilityFromSpec(file);
        config.decision.utility = utilityFromSpec(file);
        const QString run = dir.path() + "/run";
        train(config, run);
        const RunFolder folder(run.toStdString());
        const TrainConfig stored = loadTrainConfig(folder.path(RunFolder::kConfig));
        QVERIFY(stored.objective.utility.byValue());
        QVERIFY(stored.decision.utility.byValue());
        QCOMPARE(stored.decision.utility.origin, file);
        QCOMPARE(stored.decision.utility.matrix, UtilityMatrix::tailSensitive(4, 3.0));
        const EvaluationReport before = evaluateRunResults(loadRunResults(run.toStdString()));
        saveUtilityCsv(UtilityMatrix::oneHot(4), file); // edited ...
        const EvaluationReport edited = evaluateRunResults(loadRunResults(run.toStdString()));
        QFile::remove(QString::fromStdString(file)); // ... then deleted
        const RunResults reopened = loadRunResults(run.toStdString());
        QVERIFY(reopened.decisions.notes.empty());
        const EvaluationReport after = evaluateRunResults(reopened);
        QCOMPARE(reportToJson(edited).dump(), reportToJson(before).dump());
        QCOMPARE(reportToJson(after).dump(), reportToJson(before).dump());
    }

    // A validation split is held out of the long-tailed training images, evaluated with the
    // test set, and cached for tuning.
    void validationSplitIsEvaluatedAndCached()
    {
        QTemporaryDir dir;
        TrainConfig config = test::tinyConfig(2);
        config.data.longTail.validationFraction = 0.25;
        bool sawValidation = false;
        TrainingCallbacks callbacks;
        callbacks.onEpoch = [&](const EpochMetrics& m) { sawValidation = m.validationEvaluation.has_value(); };
        train(config, dir.path(), callbacks);
        QVERIFY(sawValidation);
        const RunFolder folder(dir.path().toStdString());
        QVERIFY(folder.exists(RunFolder::kValidationProbabilities));
        QVERIFY(folder.readJson(RunFolder::kReport).contains("evaluation_validation"));
        const RunResults validation = loadRunResults(dir.path().toStdString(), ResultSplit::Validation);
        const LongTailSplit split = loadLongTailSplit(folder.path(RunFolder::kSplit));
        QCOMPARE(validation.images, static_cast<int64_t>(split.validationIndices.size()));
        QVERIFY(validation.hasValidation);
        // A run without one says how to get one.
        QTemporaryDir plain;
        train(test::tinyConfig(1), plain.path());
        QVERIFY(test::throwsInputError([&] { loadRunResults(plain.path().toStdString(), ResultSplit::Validation); },
                                       {"--val-fraction"}));
    }

    void marginScaleComesFromTheModel()
    {
        TrainConfig config = test::tinyConfig(1);
        config.model.cosineScale = 16.0;
        QCOMPARE(trainingObjective(config, UtilityMatrix::oneHot(4)).scale, 16.0);
        QCOMPARE(trainingObjective(config, UtilityMatrix::tailSensitive(4, 1.0)).utilityMatrix,
                 UtilityMatrix::tailSensitive(4, 1.0).values());
    }

    void badInputIsNamed()
    {
        QTemporaryDir dir;
        TrainConfig config = test::tinyConfig(1);
        config.data.dataset = "fashion-mnist";
        config.data.directory = "/no/such/fashion";
        QVERIFY(test::throwsInputError([&] { train(config, dir.path()); }, {"/no/such/fashion"}));
        config = test::tinyConfig(1);
        config.objective.utility = lbd::utilityFromSpec("tail:abc");
        QVERIFY(test::throwsInputError([&] { train(config, dir.path()); }, {"tail:abc"}));
        config = test::tinyConfig(1);
        config.train.device = "cuda:7";
        if (!torch::cuda::is_available()) {
            QVERIFY(test::throwsInputError([&] { train(config, dir.path()); }, {"cuda:7"}));
        }
        QVERIFY(test::throwsInputError([&] { Trainer(test::tinyConfig(1), dir.path().toStdString() + "/none", true); },
                                       {"checkpoint"}));
    }
};

QTEST_APPLESS_MAIN(TestTrainer)
#include "test_trainer.moc"
