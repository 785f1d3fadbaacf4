// A short training run on the real Fashion-MNIST-LT data (imbalance ratio 100) must reach an
// accuracy floor that a broken objective, model, data pipeline or optimiser does not reach.
// How the floors were chosen is written next to them.
#include "core/train/trainer.h"
#include "core/util/error.h"

#include <QTemporaryDir>

using namespace lbd;

constexpr double kOverallFloor = 0.76;
constexpr double kTailFloor = 0.60;

class TestFashionMnistFloor : public QObject {
    Q_OBJECT
private slots:
    void shortRunReachesTheFloor()
    {
        if (!QFile::exists(LBD_FASHION_MNIST_DIR "/train-images-idx3-ubyte.gz")) {
            QSKIP("dataset-fashion-mnist is not installed");
        }
        TrainConfig config; // Fashion-MNIST-LT, rho = 100, the full LBD objective
        config.name = "floor";
        config.augment.maxRotationDegrees = 0; // cheaper on two CPU cores
        config.augment.padding = 2;
        config.model.arch = "smallcnn";
        config.model.particles = 2;
        config.objective.drwEpoch = 2;   // re-weighting in the last epoch, as DRW intends
        config.objective.tau = 1;
        config.optimizer.learningRate = 0.05;
        config.optimizer.warmupEpochs = 1;
        config.optimizer.decayEpochs = {2}; // lr x0.1 in the third epoch
        config.optimizer.decayFactors = {0.1};
        config.train.epochs = 3;
        config.train.batchSize = 128;
        config.train.evalEvery = 3;
        config.train.device = "cpu";
        QTemporaryDir dir;
        Trainer trainer(config, dir.path().toStdString());
        const TrainingResult result = trainer.run({});
        QVERIFY(result.finalReport.has_value());
        const auto& report = *result.finalReport;
        const double overall = report.overall.accuracy;
        const double tail = report.regionsThirds.regions[2].counts.accuracy;
        qInfo("Fashion-MNIST-LT after 3 epochs: overall %.4f, tail %.4f", overall, tail);
        // Floors: this run is deterministic on the CPU; on the 2-core development machine it
        // measured overall 0.799 and tail (classes 6-9) 0.714 (2026-11-26). The floors sit a few
        // points below that so thread-count rounding cannot trip them, and far above what a
        // broken pipeline reaches: chance is 0.10, and a model that learns only the head
        // classes scores about 0.6 overall with a tail near 0.
        QVERIFY2(overall >= kOverallFloor, qPrintable(QString::number(overall)));
        QVERIFY2(tail >= kTailFloor, qPrintable(QString::number(tail)));
    }
};

QTEST_APPLESS_MAIN(TestFashionMnistFloor)
#include "test_fashionmnistfloor.moc"
