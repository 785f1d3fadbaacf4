// The streaming batcher (core/data/streamingbatcher): a split streamed from disk gives exactly the
// batches of the same split decoded into memory.
#include "core/data/augmentation.h"
#include "core/data/batchsource.h"
#include "core/data/dataset.h"
#include "core/data/imagedecoder.h"
#include "core/data/syntheticdataset.h"
#include "datasets/imagefolder/imagefolderreader.h"

#include <QDir>
#include <QTemporaryDir>

using namespace lbd;

namespace {

ImageFolderOptions options16()
{
    ImageFolderOptions options;
    options.files.format = {3, 16, 16};
    return options;
}

Dataset loadImageFolder(const std::string& root, const ImageFolderOptions& options)
{
    return toDataset(readImageFolder(root, options));
}

} // namespace

class TestStreamingBatcher : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        if (!imageDecodingAvailable()) {
            QSKIP("built without OpenCV");
        }
    }

    void streamedDataGivesTheSameBatchesAsDecodedData()
    {
        QTemporaryDir dir;
        SyntheticSpec synthetic;
        synthetic.classes = 3;
        synthetic.trainPerClass = 9;
        synthetic.testPerClass = 1;
        synthetic.size = 16;
        const Dataset source = makeSyntheticDataset(synthetic);
        for (int64_t i = 0; i < source.train.size(); ++i) {
            const auto label = source.train.labels[i].item<int64_t>();
            QDir(dir.path()).mkpath(QString("train/c%1").arg(label));
            QDir(dir.path()).mkpath(QString("test/c%1").arg(label));
            const QString name = QString("/c%1/%2.png").arg(label).arg(i, 3, 10, QChar('0'));
            writeImageFile((dir.path() + "/train" + name).toStdString(), source.train.images[i]);
            writeImageFile((dir.path() + "/test" + name).toStdString(), source.train.images[i]);
        }
        ImageFolderOptions inMemory = options16();
        ImageFolderOptions streamed = options16();
        streamed.files.limits.maxInMemoryBytes = 1000;
        const Dataset a = loadImageFolder(dir.path().toStdString(), inMemory);
        const Dataset b = loadImageFolder(dir.path().toStdString(), streamed);
        QVERIFY(!a.train.isStreamed());
        QVERIFY(b.train.isStreamed());
        const Normalization n = computeNormalization(a.train.images);
        BatchOptions options;
        options.batchSize = 5;
        options.seed = 11;
        AugmentSpec augment;
        augment.outputSize = 16;
        auto first = makeBatchSource(a.train, a.format, torch::kCPU, augment, n, options);
        auto second = makeBatchSource(b.train, b.format, torch::kCPU, augment, n, options);
        for (int epoch = 1; epoch <= 2; ++epoch) {
            first->startEpoch(epoch);
            second->startEpoch(epoch);
            Batch x, y;
            int batches = 0;
            while (first->next(x)) {
                QVERIFY(second->next(y));
                QVERIFY(torch::equal(x.labels, y.labels));
                QVERIFY(torch::allclose(x.images, y.images));
                ++batches;
            }
            QVERIFY(!second->next(y));
            QCOMPARE(batches, 6);
        }
        // Two ranks streaming their shares (each decodes only its own files) put together the
        // in-memory batch, augmentation included.
        std::vector<std::unique_ptr<BatchSource>> ranks;
        for (int rank = 0; rank < 2; ++rank) {
            BatchOptions share = options;
            share.shardIndex = rank;
            share.shardCount = 2;
            ranks.push_back(makeBatchSource(b.train, b.format, torch::kCPU, augment, n, share));
        }
        first->startEpoch(3);
        for (auto& rank : ranks) {
            rank->startEpoch(3);
        }
        Batch x, r0, r1;
        while (first->next(x)) {
            QVERIFY(ranks[0]->next(r0) && ranks[1]->next(r1));
            QCOMPARE(r0.labels.size(0), x.labels.size(0) / 2);
            QVERIFY(torch::equal(torch::cat({r0.labels, r1.labels}), x.labels));
            QVERIFY(torch::allclose(torch::cat({r0.images, r1.images}), x.images));
        }
        QVERIFY(!ranks[0]->next(r0));
    }
};

QTEST_APPLESS_MAIN(TestStreamingBatcher)
#include "test_streamingbatcher.moc"
