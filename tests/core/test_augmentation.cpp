// Device-side augmentation and batching: shape kept, flip is an exact mirror, rotation by 0 and
// crop offset 0 are the identity, one seed gives one batch, CPU and CUDA agree.
#include "core/data/augmentation.h"
#include "core/data/epochorder.h"
#include "core/data/batchsource.h"
#include "core/data/syntheticdataset.h"

#include <array>
#include <cmath>

using namespace lbd;

namespace {

// mean 0, std 1: the output is pixel / 255, computed exactly as plain() computes it.
const Normalization kUnit{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}};

torch::Tensor plain(const torch::Tensor& uint8Images)
{
    return uint8Images.to(torch::kFloat32).mul_(1.0 / 255.0);
}

torch::Tensor images(int64_t count, int64_t size = 32)
{
    return torch::randint(0, 256, {count, 3, size, size}, torch::TensorOptions().dtype(torch::kInt64)).to(torch::kUInt8);
}

torch::Tensor params(std::initializer_list<std::array<float, 4>> rows)
{
    std::vector<float> values;
    for (const auto& row : rows) {
        values.insert(values.end(), row.begin(), row.end());
    }
    return torch::tensor(values).view({static_cast<int64_t>(rows.size()), 4});
}

} // namespace

namespace {

// 30 synthetic 8x8 images of 3 classes whose labels are their row numbers, to see the order.
Dataset thirtyNumberedImages()
{
    SyntheticSpec synthetic;
    synthetic.classes = 3;
    synthetic.trainPerClass = 10;
    synthetic.testPerClass = 1;
    synthetic.size = 8;
    Dataset data = makeSyntheticDataset(synthetic);
    data.train.labels = torch::arange(30, torch::kInt64);
    return data;
}

} // namespace

class TestAugmentation : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { torch::manual_seed(3); }

    void identityParametersGiveTheImage()
    {
        const auto input = images(2);
        AugmentSpec spec; // rotation on: the bilinear path must also be exact at angle 0
        const auto out = augmentBatch(input, params({{0, 0, 0, 0}, {0, 0, 0, 0}}), spec, kUnit);
        QCOMPARE(out.sizes().vec(), (std::vector<int64_t>{2, 3, 32, 32}));
        QVERIFY(torch::equal(out, plain(input)));
        spec.maxRotationDegrees = 0;
        QVERIFY(torch::equal(augmentBatch(input, params({{0, 0, 0, 0}, {0, 0, 0, 0}}), spec, kUnit), plain(input)));
    }

    void flipIsAnExactMirror()
    {
        const auto input = images(1);
        AugmentSpec spec;
        const auto out = augmentBatch(input, params({{0, 0, 1, 0}}), spec, kUnit);
        QVERIFY(torch::equal(out, plain(input.flip({3}))));
    }

    void cropShiftMovesAndZeroPads()
    {
        const auto input = images(1);
        AugmentSpec spec;
        spec.maxRotationDegrees = 0;
        const auto out = augmentBatch(input, params({{3, -2, 0, 0}}), spec, kUnit);
        // Output (y, x) reads input (y - 2, x + 3); outside reads zero padding.
        using torch::indexing::Slice;
        auto expected = torch::zeros({1, 3, 32, 32}, torch::kUInt8);
        expected.index_put_({Slice(), Slice(), Slice(2, 32), Slice(0, 29)},
                            input.index({Slice(), Slice(), Slice(0, 30), Slice(3, 32)}));
        QVERIFY(torch::equal(out, plain(expected)));
    }

    void rotationBy90DegreesRotatesTheImage()
    {
        const auto input = images(1);
        AugmentSpec spec;
        const auto out = augmentBatch(input, params({{0, 0, 0, static_cast<float>(M_PI / 2)}}), spec, kUnit);
        // Counter-clockwise on screen (y down) sampling: a 90-degree turn equals rot90 up to rounding.
        const bool matches = torch::allclose(out, plain(torch::rot90(input, 1, {2, 3})), 0, 1e-4)
            || torch::allclose(out, plain(torch::rot90(input, -1, {2, 3})), 0, 1e-4);
        QVERIFY(matches);
    }

    void smallerImagesAreCentredInTheOutput()
    {
        const auto input = images(2, 28);
        AugmentSpec spec;
        const auto out = preprocessBatch(input, 32, kUnit);
        QCOMPARE(out.sizes().vec(), (std::vector<int64_t>{2, 3, 32, 32}));
        using torch::indexing::Slice;
        QVERIFY(torch::equal(out.index({Slice(), Slice(), Slice(2, 30), Slice(2, 30)}), plain(input)));
        QCOMPARE(out.index({Slice(), Slice(), Slice(0, 2)}).abs().sum().item<float>(), 0.0f);
    }

    void normalisationUsesMeanAndStd()
    {
        const auto input = torch::full({1, 1, 4, 4}, 255, torch::kUInt8);
        const Normalization n{{0.5f}, {0.25f}};
        const auto out = preprocessBatch(input, 4, n);
        QVERIFY(torch::allclose(out, torch::full({1, 1, 4, 4}, 2.0f)));
    }

    void sameSeedSameBatchDifferentSeedDifferentBatch()
    {
        SyntheticSpec synthetic;
        synthetic.trainPerClass = 20;
        synthetic.testPerClass = 1;
        const Dataset data = makeSyntheticDataset(synthetic);
        const Normalization n = computeNormalization(data.train.images);
        const auto batchOf = [&](uint64_t seed, int64_t epoch) {
            BatchOptions options;
            options.batchSize = 16;
            options.seed = seed;
            auto source = makeBatchSource(data.train, data.format, torch::kCPU, AugmentSpec{}, n, options);
            source->startEpoch(epoch);
            Batch batch;
            source->next(batch);
            return batch;
        };
        const Batch a = batchOf(7, 2), b = batchOf(7, 2), c = batchOf(8, 2), d = batchOf(7, 3);
        QVERIFY(torch::equal(a.images, b.images));
        QVERIFY(torch::equal(a.labels, b.labels));
        QVERIFY(!torch::equal(a.images, c.images));
        QVERIFY(!torch::equal(a.images, d.images));
    }

    // Data-parallel training: the ranks' shares of every batch, put together, are the batch one
    // process takes, augmented alike (batch 7 over 3 ranks: 2, 2 and 3 images; the last batch of
    // 2 images: 0, 1 and 1).
    void theRanksSharesMakeUpTheSingleProcessBatch()
    {
        const Dataset data = thirtyNumberedImages();
        const Normalization n = computeNormalization(data.train.images);
        AugmentSpec augment;
        augment.outputSize = 8;
        const auto sourceOf = [&](int rank, int ranks) {
            BatchOptions options;
            options.batchSize = 7;
            options.seed = 3;
            options.shardIndex = rank;
            options.shardCount = ranks;
            return makeBatchSource(data.train, data.format, torch::kCPU, augment, n, options);
        };
        auto whole = sourceOf(0, 1);
        std::vector<std::unique_ptr<BatchSource>> ranks;
        for (int r = 0; r < 3; ++r) {
            ranks.push_back(sourceOf(r, 3));
        }
        for (int epoch = 1; epoch <= 2; ++epoch) {
            whole->startEpoch(epoch);
            for (auto& rank : ranks) {
                rank->startEpoch(epoch);
            }
            Batch batch;
            int batches = 0;
            while (whole->next(batch)) {
                std::vector<torch::Tensor> images, labels;
                std::vector<int64_t> sizes;
                for (auto& rank : ranks) {
                    Batch share;
                    QVERIFY(rank->next(share));
                    QCOMPARE(share.index, batch.index);
                    images.push_back(share.images);
                    labels.push_back(share.labels);
                    sizes.push_back(share.labels.size(0));
                }
                QVERIFY(torch::equal(torch::cat(labels), batch.labels));
                QVERIFY(torch::allclose(torch::cat(images), batch.images));
                QCOMPARE(sizes, (batch.index < 4 ? std::vector<int64_t>{2, 2, 3} : std::vector<int64_t>{0, 1, 1}));
                ++batches;
            }
            QCOMPARE(batches, 5);
        }
        QCOMPARE(shardOfBatch(128, [] { BatchOptions o; o.shardIndex = 1; o.shardCount = 2; return o; }()).offset, int64_t(64));
    }

    void anEpochVisitsEveryImageOnce()
    {
        const Dataset data = thirtyNumberedImages();
        BatchOptions options;
        options.batchSize = 7;
        AugmentSpec augment;
        augment.outputSize = 8;
        auto source = makeBatchSource(data.train, data.format, torch::kCPU, augment,
                                      computeNormalization(data.train.images), options);
        QCOMPARE(source->batchesPerEpoch(), int64_t(5));
        std::vector<torch::Tensor> seen;
        Batch batch;
        while (source->next(batch)) {
            seen.push_back(batch.labels);
        }
        const auto all = std::get<0>(torch::cat(seen).sort());
        QVERIFY(torch::equal(all, torch::arange(30, torch::kInt64)));
        QVERIFY(!torch::equal(torch::cat(seen), torch::arange(30, torch::kInt64)));
        options.dropLast = true;
        QCOMPARE(makeBatchSource(data.train, data.format, torch::kCPU, augment, computeNormalization(data.train.images), options)
                     ->batchesPerEpoch(),
                 int64_t(4));
    }

    void cudaMatchesCpu()
    {
        if (!torch::cuda::is_available()) {
            QSKIP("no CUDA device");
        }
        const auto input = images(64);
        AugmentSpec spec;
        Rng rng(5);
        const auto p = drawAugmentParams(64, spec, rng);
        const auto cpu = augmentBatch(input, p, spec, kUnit);
        const auto cuda = augmentBatch(input.to(torch::kCUDA), p, spec, kUnit).cpu();
        QVERIFY(torch::allclose(cpu, cuda, 0, 1e-2));
    }
};

QTEST_APPLESS_MAIN(TestAugmentation)
#include "test_augmentation.moc"
