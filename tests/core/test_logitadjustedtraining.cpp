// The logit-adjusted loss and Balanced Softmax end to end: a tiny run trained with each baseline
// finishes with a finite objective, records the switch in config.json, and is evaluated with the
// plain logits (the adjustment is training-only, as in Menon et al. and Ren et al.): the cached
// test probabilities equal a fresh forward pass of the trained model through the Predictor, and
// differ visibly from what the adjusted logits would give.
#include "core/data/imagedecoder.h"
#include "core/infer/predictor.h"
#include "core/infer/runresults.h"
#include "core/lbd/objectivespec.h"
#include "core/train/configjson.h"
#include "core/train/runfolder.h"
#include "core/train/trainer.h"
#include "tests/support/tinyconfig.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace lbd;

class TestLogitAdjustedTraining : public QObject {
    Q_OBJECT

private slots:
    void trainsAndEvaluatesWithPlainLogits_data()
    {
        QTest::addColumn<QString>("baseline");
        QTest::newRow("logit-adjusted") << QStringLiteral("logit-adjusted");
        QTest::newRow("balanced-softmax") << QStringLiteral("balanced-softmax");
    }

    void trainsAndEvaluatesWithPlainLogits()
    {
        QFETCH(QString, baseline);
        nlohmann::json json = toJson(test::tinyConfig(2));
        setBaselineInConfigJson(json, baseline.toStdString(), false);
        const TrainConfig config = trainConfigFromJson(json);
        QVERIFY(config.objective.logitAdjustment);
        QCOMPARE(config.model.particles, int64_t(1));

        QTemporaryDir run;
        int epochs = 0;
        TrainingCallbacks callbacks;
        callbacks.onEpoch = [&](const EpochMetrics& m) {
            ++epochs;
            QVERIFY(std::isfinite(m.objective.total) && m.objective.total > 0.0);
        };
        Trainer trainer(config, run.path().toStdString(), false);
        const TrainingResult result = trainer.run(callbacks, nullptr);
        QCOMPARE(result.epochsCompleted, 2);
        QCOMPARE(epochs, 2);
        QVERIFY(result.finalReport.has_value());
        const RunFolder folder(run.path().toStdString());
        const TrainConfig stored = loadTrainConfig(folder.path(RunFolder::kConfig));
        QVERIFY(stored.objective.logitAdjustment);
        QCOMPARE(stored.objective.logitAdjustTau, 1.0);

        if (!imageDecodingAvailable()) {
            QSKIP("built without OpenCV: cannot write PNGs to re-classify");
        }
        const RunResults results = loadRunResults(run.path().toStdString());
        const TestImages images = loadTestImages(results);
        double total = 0.0;
        for (const int64_t count : results.trainCounts) {
            total += double(count);
        }
        Predictor predictor(run.path().toStdString(), "cpu");
        QTemporaryDir pngs;
        double adjustedGap = 0.0;
        for (int64_t n : {0, 9, 21, 39}) {
            const std::vector<uint8_t> pixels = testImagePixels(images, n);
            const torch::Tensor image =
                torch::from_blob(const_cast<uint8_t*>(pixels.data()), {16, 16, 1}, torch::kUInt8).permute({2, 0, 1}).contiguous();
            const std::string path = pngs.filePath(QStringLiteral("img%1.png").arg(n)).toStdString();
            writeImageFile(path, image);
            const Prediction prediction = predictor.predictFile(path, 4);
            // softmax(log p + log pi): what an evaluation that added the adjustment would cache.
            std::vector<double> adjusted(size_t(results.classes));
            double norm = 0.0;
            for (int64_t c = 0; c < results.classes; ++c) {
                adjusted[size_t(c)] = results.distribution(0, n)[c] * double(results.trainCounts[size_t(c)]) / total;
                norm += adjusted[size_t(c)];
            }
            for (int64_t c = 0; c < results.classes; ++c) {
                const double cached = results.distribution(0, n)[c];
                const double plain = prediction.particleProbabilities[0][size_t(c)];
                QVERIFY2(std::abs(cached - plain) < 1e-4,
                         qPrintable(QStringLiteral("image %1 class %2: cached %3, plain forward %4").arg(n).arg(c).arg(cached).arg(plain)));
                adjustedGap = std::max(adjustedGap, std::abs(adjusted[size_t(c)] / norm - cached));
            }
        }
        // The long tail (ratio 4) moves the adjusted probabilities far more than the tolerance.
        QVERIFY2(adjustedGap > 1e-2, qPrintable(QString::number(adjustedGap)));
    }
};

QTEST_APPLESS_MAIN(TestLogitAdjustedTraining)
#include "test_logitadjustedtraining.moc"
