// The streaming batcher (core/data/streamingbatcher): a split streamed from disk gives exactly the
// batches of the same split decoded into memory, with any number of decoding threads, and says
// where its time went (core/data/inputtimings).
#include "core/data/augmentation.h"
#include "core/data/batchsource.h"
#include "core/data/dataset.h"
#include "core/data/imagedecoder.h"
#include "core/data/inputtimings.h"
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

    // Every decoding thread takes chunks of the next batches (data.decode_threads): 1, 3 and 8
    // threads, batches of 7 (chunks of 1..3 images), give the same batches, augmentation included.
    void anyThreadCountGivesTheSameBatches()
    {
        QTemporaryDir dir;
        SyntheticSpec synthetic;
        synthetic.classes = 3;
        synthetic.trainPerClass = 12;
        synthetic.testPerClass = 1;
        synthetic.size = 16;
        const Dataset source = makeSyntheticDataset(synthetic);
        DataSplit split;
        for (int64_t i = 0; i < source.train.size(); ++i) {
            split.files.push_back((dir.path() + QString("/%1.png").arg(i)).toStdString());
            writeImageFile(split.files.back(), source.train.images[i]);
        }
        split.labels = source.train.labels;
        const Normalization n = computeNormalization(source.train.images);
        AugmentSpec augment;
        augment.outputSize = 16;
        std::vector<std::vector<torch::Tensor>> seen;
        for (const int threads : {1, 3, 8}) {
            BatchOptions options;
            options.batchSize = 7;
            options.seed = 5;
            options.decodeThreads = threads;
            auto batches = makeBatchSource(split, source.format, torch::kCPU, augment, n, options);
            std::vector<torch::Tensor> images;
            for (int epoch = 1; epoch <= 2; ++epoch) {
                batches->startEpoch(epoch);
                Batch batch;
                while (batches->next(batch)) {
                    images.push_back(batch.images);
                }
            }
            const InputTimings timings = batches->inputTimings();
            QCOMPARE(timings.batches, int64_t(6)); // this epoch's: 36 images in batches of 7
            QCOMPARE(timings.images, int64_t(36));
            QCOMPARE(timings.decodeThreads, threads);
            QVERIFY(timings.decodeSeconds > 0);
            QVERIFY(!timings.fromCache);
            seen.push_back(images);
        }
        for (size_t run = 1; run < seen.size(); ++run) {
            QCOMPARE(seen[run].size(), seen[0].size());
            for (size_t b = 0; b < seen[0].size(); ++b) {
                QVERIFY(torch::equal(seen[run][b], seen[0][b]));
            }
        }
    }

    void theStageLineSaysWhatBounds()
    {
        InputTimings t;
        QVERIFY(describeInputTimings(t, 1.0).empty()); // data on the device: no line
        t.batches = 10;
        t.decodeSeconds = 2.0; // 200 ms of work a batch, on 4 threads
        t.decodeThreads = 4;
        t.waitSeconds = 0.5;
        t.copySeconds = 0.01;
        t.augmentSeconds = 0.1;
        QCOMPARE(QString::fromStdString(describeInputTimings(t, 4.0)),
                 QStringLiteral("input: decode 50.0 ms/batch on 4 threads (200.0 ms of work), wait 50.0 ms/batch, "
                                "copy 1.0 ms, augment 10.0 ms; step 339.0 ms; bound by input"));
        t.waitSeconds = 0.1; // 2.5 % of the epoch: the device bounds it
        QVERIFY(!inputBound(t, 4.0));
        t.fromCache = true;
        QVERIFY(QString::fromStdString(describeInputTimings(t, 4.0)).startsWith("input: cache read"));
        QVERIFY(QString::fromStdString(describeInputTimings(t, 4.0)).endsWith("bound by device"));
    }
};

QTEST_APPLESS_MAIN(TestStreamingBatcher)
#include "test_streamingbatcher.moc"
