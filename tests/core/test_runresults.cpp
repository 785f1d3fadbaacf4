// RunResults, the torch-free view of a finished run used by the decision lab and the gallery:
// a tiny run trained with the real Trainer is re-evaluated exactly as `lbd eval` does it, its
// uncertainties match the batch computation, its test images come back in the cached order
// (checked by classifying some of them again with the trained model), and damaged runs are named.
#include "core/data/datapreparation.h"
#include "core/data/imagedecoder.h"
#include "core/eval/degeneracy.h"
#include "core/eval/evaluator.h"
#include "core/eval/reportjson.h"
#include "core/eval/uncertainty.h"
#include "core/infer/predictor.h"
#include "core/infer/runresults.h"
#include "core/train/configjson.h"
#include "core/train/pythonexport.h"
#include "core/train/runfolder.h"
#include "core/train/trainer.h"
#include "core/util/error.h"
#include "tests/support/tinyconfig.h"

#include <QFile>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using namespace lbd;

namespace {

template <typename Function>
QString errorOf(Function&& function)
{
    try {
        function();
    } catch (const InputError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

} // namespace

class TestRunResults : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_run.isValid());
        Trainer trainer(test::tinyConfig(3), m_run.path().toStdString(), false);
        const TrainingResult result = trainer.run({}, nullptr);
        QCOMPARE(result.epochsCompleted, 3);
    }

    void loadsTheCachedProbabilities()
    {
        const RunResults results = loadRunResults(m_run.path().toStdString());
        const RunFolder folder(m_run.path().toStdString());
        const TestProbabilities cached = loadTestProbabilities(folder.path(RunFolder::kTestProbabilities));
        QCOMPARE(results.particles, int64_t(2));
        QCOMPARE(results.images, int64_t(40));
        QCOMPARE(results.classes, int64_t(4));
        QCOMPARE(results.classNames.size(), size_t(4));
        QCOMPARE(results.trainCounts.size(), size_t(4));
        QVERIFY(results.trainCounts.front() > results.trainCounts.back()); // head to tail, ratio 4
        const torch::Tensor flat = cached.probabilities.to(torch::kFloat32).contiguous().view(-1);
        QCOMPARE(results.probabilities.size(), size_t(flat.numel()));
        for (int64_t i = 0; i < flat.numel(); ++i) {
            QCOMPARE(results.probabilities[size_t(i)], flat[i].item<float>()); // bit-identical copy
        }
        // distribution(j, n) is particle j's row for image n.
        QCOMPARE(results.distribution(1, 7)[2], cached.probabilities[1][7][2].item<float>());
        for (int64_t n = 0; n < results.images; ++n) {
            QCOMPARE(results.labels[size_t(n)], cached.labels[n].item<int64_t>());
        }
    }

    void evaluationEqualsTheCoreEvaluator()
    {
        const RunResults results = loadRunResults(m_run.path().toStdString());
        const RunFolder folder(m_run.path().toStdString());
        const TestProbabilities cached = loadTestProbabilities(folder.path(RunFolder::kTestProbabilities));
        for (const UtilityMatrix& utility : {UtilityMatrix::oneHot(4), UtilityMatrix::tailSensitive(4, 1.0),
                                             UtilityMatrix::tailSensitive(4, 5.0)}) {
            for (DecisionRule rule : {DecisionRule::Argmax, DecisionRule::Eq7, DecisionRule::Expected}) {
                const EvaluationReport mine = evaluateRunResults(results, utility, rule);
                EvaluationReport core = evaluate(cached.probabilities, cached.labels, results.trainCounts, utility, rule);
                // A run's results name the piled-up classes of a degenerate decision by the run's
                // class names (degeneracy.h), where the core evaluator knows only indices: the same
                // warnings, worded for the user. Everything else must be equal as computed.
                QVERIFY(!core.warnings.empty() || mine.warnings.empty());
                core.warnings = warningsWithClassNames(core, results.classNames);
                QCOMPARE(QString::fromStdString(reportToJson(mine).dump()), QString::fromStdString(reportToJson(core).dump()));
                QCOMPARE(mine.imageCount, int64_t(40));
            }
        }
    }

    // Mean utility = (1/N) sum_n U[y_n, d_n], computed here from the confusion matrix.
    void meanUtilityIsTheMeanOfUOverDecisions()
    {
        const RunResults results = loadRunResults(m_run.path().toStdString());
        const UtilityMatrix utility = UtilityMatrix::tailSensitive(4, 2.0);
        for (DecisionRule rule : {DecisionRule::Argmax, DecisionRule::Expected}) {
            const EvaluationReport report = evaluateRunResults(results, utility, rule);
            double sum = 0.0;
            int64_t count = 0;
            for (int64_t t = 0; t < 4; ++t) {
                for (int64_t d = 0; d < 4; ++d) {
                    sum += double(report.confusion[size_t(t)][size_t(d)]) * utility(t, d);
                    count += report.confusion[size_t(t)][size_t(d)];
                }
            }
            QCOMPARE(count, int64_t(40));
            QVERIFY(std::abs(report.meanUtility - sum / 40.0) < 1e-12);
        }
        // Under one-hot the mean utility is the accuracy.
        const EvaluationReport oneHot = evaluateRunResults(results, UtilityMatrix::oneHot(4), DecisionRule::Argmax);
        QVERIFY(std::abs(oneHot.meanUtility - oneHot.overall.accuracy) < 1e-12);
    }

    void uncertaintiesMatchTheBatchComputation()
    {
        const RunResults results = loadRunResults(m_run.path().toStdString());
        const std::vector<ImageUncertainty> mine = imageUncertainties(results);
        const RunFolder folder(m_run.path().toStdString());
        const UncertaintyBatch batch =
            computeUncertainty(loadTestProbabilities(folder.path(RunFolder::kTestProbabilities)).probabilities);
        QCOMPARE(mine.size(), size_t(40));
        for (int64_t n = 0; n < 40; ++n) {
            const ImageUncertainty expected = batch.image(n);
            const ImageUncertainty& got = mine[size_t(n)];
            QCOMPARE(got.total, expected.total);
            QCOMPARE(got.epistemic, expected.epistemic);
            QCOMPARE(got.aleatoric, expected.aleatoric);
            QCOMPARE(got.voteDisagreement, expected.voteDisagreement);
            QCOMPARE(got.particleTop1, expected.particleTop1);
            QCOMPARE(got.particleTop1Probability, expected.particleTop1Probability);
            QVERIFY(got.epistemic >= 0.0);
        }
    }

    void testImagesComeInTheCachedOrder()
    {
        const RunResults results = loadRunResults(m_run.path().toStdString());
        const TestImages images = loadTestImages(results);
        QCOMPARE(images.count, int64_t(40));
        QCOMPARE(images.channels, int64_t(1));
        QCOMPARE(images.height, int64_t(16));
        QCOMPARE(images.width, int64_t(16));
        QVERIFY(!images.isStreamed());
        QCOMPARE(images.labels, results.labels);
        QCOMPARE(images.pixels.size(), size_t(40 * 16 * 16));

        // The pixels are the data set's test images in file order, interleaved H x W x C.
        const Dataset dataset = loadDataset(test::tinyConfig(3).data);
        for (int64_t n : {0, 13, 39}) {
            const std::vector<uint8_t> pixels = testImagePixels(images, n);
            QCOMPARE(pixels.size(), size_t(256));
            const torch::Tensor expected = dataset.test.images[n].permute({1, 2, 0}).contiguous();
            QVERIFY(std::equal(pixels.begin(), pixels.end(), expected.data_ptr<uint8_t>()));
        }

        // Classifying image n again with the trained model gives the cached probabilities of image n:
        // the images and the cached rows are in the same order.
        if (!imageDecodingAvailable()) {
            QSKIP("built without OpenCV: cannot write PNGs to re-classify");
        }
        Predictor predictor(m_run.path().toStdString(), "cpu");
        QTemporaryDir pngs;
        for (int64_t n : {0, 11, 22, 39}) {
            const std::vector<uint8_t> pixels = testImagePixels(images, n);
            const torch::Tensor image = torch::from_blob(const_cast<uint8_t*>(pixels.data()), {16, 16, 1}, torch::kUInt8)
                                            .permute({2, 0, 1})
                                            .contiguous();
            const std::string path = pngs.filePath(QStringLiteral("img%1.png").arg(n)).toStdString();
            writeImageFile(path, image);
            const Prediction prediction = predictor.predictFile(path, 4);
            for (int64_t j = 0; j < results.particles; ++j) {
                for (int64_t c = 0; c < results.classes; ++c) {
                    const double cached = results.distribution(j, n)[c];
                    const double again = prediction.particleProbabilities[size_t(j)][size_t(c)];
                    QVERIFY2(std::abs(cached - again) < 1e-4,
                             qPrintable(QStringLiteral("image %1 particle %2 class %3: cached %4, again %5")
                                            .arg(n).arg(j).arg(c).arg(cached).arg(again)));
                }
            }
        }
    }

    void aChangedDataSetIsRefusedByName()
    {
        QTemporaryDir copy;
        const RunFolder source(m_run.path().toStdString());
        for (const char* file : {RunFolder::kConfig, RunFolder::kManifest, RunFolder::kTestProbabilities}) {
            QVERIFY(QFile::copy(QString::fromStdString(source.path(file)), copy.filePath(QString::fromLatin1(file))));
        }
        // A data set with more test images than were cached.
        TrainConfig changed = test::tinyConfig(3);
        changed.data.synthetic.testPerClass = 11;
        RunFolder(copy.path().toStdString()).writeJson(RunFolder::kConfig, toJson(changed));
        const RunResults results = loadRunResults(copy.path().toStdString());
        const QString error = errorOf([&] { loadTestImages(results); });
        QVERIFY2(error.contains(QStringLiteral("44 images")) && error.contains(QStringLiteral("40")), qPrintable(error));

        // Labels that differ from the cached ones: the first difference is named.
        RunResults shuffled = results;
        shuffled.config = test::tinyConfig(3);
        QVERIFY(shuffled.labels.front() != shuffled.labels.back());
        std::swap(shuffled.labels.front(), shuffled.labels.back());
        const QString labelError = errorOf([&] { loadTestImages(shuffled); });
        QVERIFY2(labelError.contains(QStringLiteral("test image 0 has label")), qPrintable(labelError));
    }

    void missingOrDamagedFilesAreNamed()
    {
        QTemporaryDir empty;
        QVERIFY(errorOf([&] { loadRunResults(empty.filePath(QStringLiteral("nothing")).toStdString()); })
                    .contains(QStringLiteral("run folder not found")));
        const QString missing = errorOf([&] { loadRunResults(empty.path().toStdString()); });
        QVERIFY2(missing.contains(QStringLiteral("not a run folder (config.json is missing)")), qPrintable(missing));

        QTemporaryDir damaged;
        const RunFolder source(m_run.path().toStdString());
        for (const char* file : {RunFolder::kConfig, RunFolder::kManifest}) {
            QVERIFY(QFile::copy(QString::fromStdString(source.path(file)), damaged.filePath(QString::fromLatin1(file))));
        }
        std::ofstream(damaged.filePath(QStringLiteral("test_probabilities.pt")).toStdString()) << "not a tensor file";
        const QString bad = errorOf([&] { loadRunResults(damaged.path().toStdString()); });
        QVERIFY2(bad.contains(QStringLiteral("test_probabilities.pt")), qPrintable(bad));

        // A manifest with another class count than the probabilities.
        nlohmann::json manifest = source.readJson(RunFolder::kManifest);
        manifest["class_names"] = {"a", "b", "c"};
        manifest["train_counts"] = {3, 2, 1};
        manifest["test_counts"] = {1, 1, 1};
        QVERIFY(QFile::copy(QString::fromStdString(source.path(RunFolder::kTestProbabilities)),
                            damaged.filePath(QStringLiteral("test_probabilities.pt.good"))));
        QFile::remove(damaged.filePath(QStringLiteral("test_probabilities.pt")));
        QVERIFY(QFile::rename(damaged.filePath(QStringLiteral("test_probabilities.pt.good")),
                              damaged.filePath(QStringLiteral("test_probabilities.pt"))));
        RunFolder(damaged.path().toStdString()).writeJson(RunFolder::kManifest, manifest);
        const QString classes = errorOf([&] { loadRunResults(damaged.path().toStdString()); });
        QVERIFY2(classes.contains(QStringLiteral("run.json")) && classes.contains(QStringLiteral("3 classes")),
                 qPrintable(classes));
    }

private:
    QTemporaryDir m_run;
};

QTEST_APPLESS_MAIN(TestRunResults)
#include "test_runresults.moc"
