// The out-of-distribution caution and what Classify says about a run and an image: the score on
// clusters whose answer is known (95 % of fresh in-distribution points pass, far points do not),
// ood.json written at the end of a real tiny run and read back, a run without a fit (or with a
// damaged or stale one) saying so in every prediction, the words for a colour image reduced to a
// grey run's input, a stopped run's state, and the last finished run chosen for images.
#include "core/data/imagedecoder.h"
#include "core/eval/oodfitfile.h"
#include "core/eval/oodimages.h"
#include "core/eval/oodscore.h"
#include "core/infer/predictor.h"
#include "core/infer/runood.h"
#include "core/infer/runstate.h"
#include "core/train/runfolder.h"
#include "core/train/trainer.h"
#include "core/util/error.h"
#include "tests/support/tinyconfig.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace lbd;

namespace {

// M particles see C Gaussian clusters in D dimensions (the same centres, particle-specific noise).
OodFeatures clusters(int64_t perClass, double spread, uint64_t seed, double shift = 0.0)
{
    torch::manual_seed(seed);
    const int64_t m = 2, c = 3, d = 8;
    const auto centres = torch::eye(d, torch::kFloat32).slice(0, 0, c) * 10.0; // [C, D]
    const auto labels = torch::arange(c, torch::kInt64).repeat_interleave(perClass);
    const auto features = centres.index_select(0, labels).unsqueeze(0).expand({m, -1, -1})
                          + spread * torch::randn({m, labels.size(0), d}) + shift;
    // Logits: closeness to each centre, as a classifier's.
    const auto logits = -torch::cdist(features, centres.unsqueeze(0).expand({m, -1, -1}));
    OodFeatures out;
    out.stages = {features.contiguous()};
    out.logits = logits.contiguous();
    out.labels = labels;
    return out;
}

OodFitInput unseen(const OodFeatures& features, int epoch)
{
    OodFitInput input;
    input.unseen = features;
    input.heldOut.source = kOodSourceValidation;
    input.heldOut.perClass = countPerClass(features.labels, features.logits.size(2));
    input.checkpointEpoch = epoch;
    return input;
}

// tinyConfig: 2 particles, 4 classes, a small CNN (stem 16, then 32, 64, 128 features).
const OodModelShape kTinyShape{2, 4, {16, 32, 64, 128}};

TrainingResult trainTiny(const std::string& directory, int epochs)
{
    Trainer trainer(test::tinyConfig(epochs), directory);
    return trainer.run({});
}

void writeColourPng(const std::string& path, int width, int height)
{
    auto image = torch::zeros({3, height, width}, torch::kUInt8);
    image[0].fill_(220);
    image[1].slice(1, 0, width / 2).fill_(40);
    image[2].slice(0, height / 2).fill_(160);
    writeImageFile(path, image);
}

} // namespace

class TestOod : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_run = m_dir.filePath(QStringLiteral("runs/tiny-finished")).toStdString();
        const TrainingResult result = trainTiny(m_run, 2);
        QVERIFY(!result.stopped);
    }

    void mahalanobisPassesNinetyFivePercentAndFlagsFarPoints()
    {
        const OodFit fit = fitOod(unseen(clusters(400, 1.0, 1), 3));
        QVERIFY(fit.hasMahalanobis());
        QCOMPARE(fit.method, kDefaultOodMethod);
        QCOMPARE(fit.images, int64_t(1200));
        const OodFeatures fresh = clusters(2000, 1.0, 2);
        const double passed =
            (mahalanobisScores(fit, fresh.stages) <= fit.mahalanobisThreshold).to(torch::kFloat64).mean().item<double>();
        QVERIFY2(passed > 0.92 && passed < 0.98, qPrintable(QString::number(passed)));
        const double energyPassed =
            (energyScores(fresh.logits) <= fit.energyThreshold).to(torch::kFloat64).mean().item<double>();
        QVERIFY2(energyPassed > 0.92 && energyPassed < 0.98, qPrintable(QString::number(energyPassed)));
        // Points far from every centre: all flagged.
        const OodFeatures far = clusters(100, 1.0, 3, 25.0);
        QVERIFY((mahalanobisScores(fit, far.stages) > fit.mahalanobisThreshold).all().item<bool>());
    }

    void tooFewImagesIsAnError()
    {
        QVERIFY_THROWS_EXCEPTION(InputError, fitOod(unseen(clusters(3, 1.0, 1), 1)));
    }

    void trainingWritesTheFitAndItReadsBack()
    {
        const std::string path = RunFolder(m_run).path(kOodFitFile);
        QVERIFY2(std::filesystem::exists(path), path.c_str());
        const OodFit fit = loadOodFit(path, kTinyShape);
        QCOMPARE(fit.checkpointEpoch, 2);
        // tinyConfig keeps 40, 25, 15, 10 of the 40 images a class: the 0, 15, 25, 30 left out are
        // the fit's unseen images, and the head class's mean comes from its training images.
        QCOMPARE(QString::fromStdString(fit.source), QString::fromLatin1(kOodSourceLeftOut));
        QCOMPARE(fit.heldOut.perClass, (std::vector<int64_t>{0, 15, 25, 30}));
        QCOMPARE(fit.images, int64_t(70));
        QCOMPARE(fit.heldOut.trainingRows.size(), size_t(70));
        QCOMPARE(fit.heldOut.meansFromTraining, std::vector<int64_t>{0});
        QVERIFY(fit.hasMahalanobis());
        QCOMPARE(fit.spaces.front().classMeans.size(1), int64_t(4));
        QVERIFY(!fit.selection.corruptions.empty());
        QCOMPARE(fit.selection.steps.size(), fit.spaces.size());
        QVERIFY(std::isfinite(fit.threshold()));
        // The wrong model is named, not half-read.
        try {
            loadOodFit(path, OodModelShape{3, 4, {16, 32, 64, 128}});
            QFAIL("a fit for 2 particles was read for 3");
        } catch (const InputError& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QString::fromStdString(path)), error.what());
        }
        Predictor predictor(m_run);
        QVERIFY(predictor.hasOodFit());
        QVERIFY2(predictor.oodSummary().find(kOodSourceLeftOut) != std::string::npos, predictor.oodSummary().c_str());
    }

    void colourImageIsDescribedAndChecked()
    {
        const std::string png = m_dir.filePath(QStringLiteral("colour.png")).toStdString();
        writeColourPng(png, 64, 40);
        Predictor predictor(m_run);
        const Prediction p = predictor.predictFile(png);
        // tinyConfig: 16x16 grey images, input 16.
        QCOMPARE(QString::fromStdString(p.inputDescription),
                 QStringLiteral("colour PNG 64x40, reduced to 16x16 grey (stretched: the aspect ratio is not kept)"));
        QVERIFY(p.ood.has_value());
        QVERIFY(p.oodNote.empty());
        QCOMPARE(QString::fromStdString(p.ood->method), QStringLiteral("mahalanobis"));
        QCOMPARE(p.ood->caution, p.ood->score > p.ood->threshold);

        // A grey image of the run's own size: kept, grey.
        const std::string grey = m_dir.filePath(QStringLiteral("grey.png")).toStdString();
        writeImageFile(grey, torch::full({1, 16, 16}, 90, torch::kUInt8));
        QCOMPARE(QString::fromStdString(predictor.predictFile(grey).inputDescription), QStringLiteral("grey PNG 16x16, kept at 16x16 grey"));
    }

    void aRunWithoutAFitSaysSo()
    {
        const std::string copy = m_dir.filePath(QStringLiteral("runs/tiny-nofit")).toStdString();
        std::filesystem::copy(m_run, copy, std::filesystem::copy_options::recursive);
        const std::string path = RunFolder(copy).path(kOodFitFile);
        std::filesystem::remove(path);
        const std::string png = m_dir.filePath(QStringLiteral("colour.png")).toStdString();
        {
            Predictor predictor(copy);
            QVERIFY(!predictor.hasOodFit());
            const Prediction p = predictor.predictFile(png);
            QVERIFY(!p.ood.has_value());
            QVERIFY2(p.oodNote.find("no out-of-distribution fit") != std::string::npos
                         && p.oodNote.find("lbd ood") != std::string::npos,
                     p.oodNote.c_str());
        }
        // Damaged: the note names the file.
        std::ofstream(path) << "{\"format\": \"lbd-ood-1\", \"method\": ";
        {
            Predictor predictor(copy);
            QVERIFY(!predictor.hasOodFit());
            QVERIFY2(predictor.predictFile(png).oodNote.find(path) != std::string::npos, predictor.oodSummary().c_str());
        }
        // Fitted again for the run folder, as `lbd ood RUN --fit` does.
        const OodFit fit = fitRunOod(copy);
        QCOMPARE(fit.checkpointEpoch, 2);
        {
            Predictor predictor(copy);
            QVERIFY(predictor.hasOodFit());
        }
        // Stale: fitted on another checkpoint than the one the model comes from.
        OodFit stale = loadOodFit(path, kTinyShape);
        stale.checkpointEpoch = 1;
        saveOodFit(stale, path);
        Predictor predictor(copy);
        QVERIFY(!predictor.hasOodFit());
        QVERIFY2(predictor.oodSummary().find("epoch 1") != std::string::npos, predictor.oodSummary().c_str());
    }

    void stoppedRunStateAndTheLastFinishedRunIsChosen()
    {
        RunSummary stopped;
        stopped.state = "stopped";
        stopped.epochsDone = 2;
        stopped.epochs = 20;
        QCOMPARE(QString::fromStdString(runStateText(stopped)), QStringLiteral("stopped at epoch 2/20"));
        const RunSummary finished = readRunSummary(m_run);
        QCOMPARE(QString::fromStdString(runStateText(finished)), QStringLiteral("finished (2 epochs)"));

        // A later run that stopped at epoch 1 of 20 is the session's last: images still go to the
        // finished one, and the reason says why.
        const std::string root = m_dir.filePath(QStringLiteral("runs")).toStdString();
        const std::string later = root + "/tiny-stopped";
        trainTiny(later, 1);
        RunFolder(later).writeStatus("stopped", 1, 20, {}, 1);
        QCOMPARE(QString::fromStdString(runStateText(readRunSummary(later))), QStringLiteral("stopped at epoch 1/20"));
        const auto choice = chooseRunForImages(later, root);
        QVERIFY(choice.has_value());
        QVERIFY2(choice->directory != later, choice->reason.c_str());
        QVERIFY2(readRunSummary(choice->directory).state == "finished", choice->directory.c_str());
        QVERIFY2(choice->reason.find("last finished run") != std::string::npos
                     && choice->reason.find("stopped at epoch 1/20") != std::string::npos,
                 choice->reason.c_str());
        // The session's last run, when finished, is kept.
        const auto kept = chooseRunForImages(m_run, root);
        QVERIFY(kept.has_value());
        QCOMPARE(QString::fromStdString(kept->directory), QString::fromStdString(m_run));
        // Nothing finished anywhere: the stopped run, said as such.
        const auto onlyStopped = chooseRunForImages(later, m_dir.filePath(QStringLiteral("empty")).toStdString());
        QVERIFY(onlyStopped.has_value());
        QVERIFY2(onlyStopped->reason.find("no finished run") != std::string::npos, onlyStopped->reason.c_str());
    }

private:
    QTemporaryDir m_dir;
    std::string m_run;
};

QTEST_APPLESS_MAIN(TestOod)
#include "test_ood.moc"
