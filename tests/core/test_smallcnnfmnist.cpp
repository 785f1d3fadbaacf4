// Does the small CNN learn Fashion-MNIST-LT quickly on a CPU? A measurement, not a check:
// skipped unless LBD_MODEL_BENCH=1. Plain CE + LDAM-free SGD, no augmentation; the real
// objective and data pipeline live elsewhere.
#include "core/model/modelfactory.h"

#include <QtTest>

#include <zlib.h>

#include <chrono>
#include <cstdlib>

using namespace lbd;

namespace {

torch::Tensor readIdx(const std::string& path)
{
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) {
        return {};
    }
    std::vector<unsigned char> bytes;
    unsigned char buf[1 << 16];
    int n = 0;
    while ((n = gzread(f, buf, sizeof buf)) > 0) {
        bytes.insert(bytes.end(), buf, buf + n);
    }
    gzclose(f);
    const int dims = bytes[3];
    std::vector<int64_t> shape;
    for (int d = 0; d < dims; ++d) {
        const unsigned char* p = bytes.data() + 4 + 4 * d;
        shape.push_back((int64_t(p[0]) << 24) | (p[1] << 16) | (p[2] << 8) | p[3]);
    }
    const size_t offset = 4 + 4 * dims;
    return torch::from_blob(bytes.data() + offset, shape, torch::kUInt8).clone();
}

} // namespace

class TestSmallCnnFashionMnist : public QObject {
    Q_OBJECT

private slots:
    void learns()
    {
        if (!std::getenv("LBD_MODEL_BENCH")) {
            QSKIP("set LBD_MODEL_BENCH=1 to measure");
        }
        torch::set_num_threads(2);
        torch::manual_seed(1);
        const std::string dir = LBD_FASHION_MNIST_DIR;
        auto trainX = readIdx(dir + "/train-images-idx3-ubyte.gz");
        auto trainY = readIdx(dir + "/train-labels-idx1-ubyte.gz").to(torch::kLong);
        auto testX = readIdx(dir + "/t10k-images-idx3-ubyte.gz");
        auto testY = readIdx(dir + "/t10k-labels-idx1-ubyte.gz").to(torch::kLong);
        if (!trainX.defined()) {
            QSKIP("Fashion-MNIST not installed");
        }
        // Exponential long tail, rho = 100 (lbd-math.md section 1): first n_c images per class.
        std::vector<torch::Tensor> keep;
        for (int c = 0; c < 10; ++c) {
            const auto n = int64_t(6000 * std::pow(0.01, c / 9.0));
            keep.push_back(torch::nonzero(trainY == c).flatten().slice(0, 0, n));
        }
        const auto index = torch::cat(keep);
        auto prep = [](const torch::Tensor& images) {
            auto x = images.to(torch::kFloat).div(255.0).sub(0.286).div(0.353).unsqueeze(1);
            return torch::constant_pad_nd(x, {2, 2, 2, 2}, 0.0);
        };
        const auto x = prep(trainX.index_select(0, index));
        const auto y = trainY.index_select(0, index);
        const auto tx = prep(testX);
        qInfo("training images: %lld", static_cast<long long>(x.size(0)));

        ModelSpec s;
        s.arch = "smallcnn";
        s.particles = std::getenv("LBD_BENCH_M") ? std::atoi(std::getenv("LBD_BENCH_M")) : 3;
        s.inputChannels = 1;
        s.numClasses = 10;
        auto model = makeParticleModel(s);
        // Inverse-frequency weights (what DRW switches on): balanced accuracy is the target.
        auto counts = torch::bincount(y).to(torch::kFloat);
        auto weights = (1.0 / counts);
        weights = weights * 10.0 / weights.sum();
        torch::optim::SGD sgd(model->parameters(),
                              torch::optim::SGDOptions(0.05).momentum(0.9).nesterov(true).weight_decay(5e-4));
        const int epochs = 4;
        const int64_t batch = 128;
        for (int e = 1; e <= epochs; ++e) {
            model->train();
            const auto start = std::chrono::steady_clock::now();
            const auto perm = torch::randperm(x.size(0));
            const auto w = e >= 3 ? weights : torch::ones({10});
            for (int64_t b = 0; b + batch <= x.size(0); b += batch) {
                const auto idx = perm.slice(0, b, b + batch);
                const auto logits = model(x.index_select(0, idx));
                const auto yy = y.index_select(0, idx);
                const auto loss = torch::nn::functional::cross_entropy(
                    logits.flatten(0, 1), yy.repeat({logits.size(0)}),
                    torch::nn::functional::CrossEntropyFuncOptions().weight(w));
                sgd.zero_grad();
                loss.backward();
                sgd.step();
            }
            const double seconds = std::chrono::duration<double>(
                                       std::chrono::steady_clock::now() - start).count();
            model->eval();
            torch::NoGradGuard noGrad;
            std::vector<torch::Tensor> preds;
            for (int64_t b = 0; b < tx.size(0); b += 1000) {
                const auto p = torch::softmax(model(tx.slice(0, b, b + 1000)), -1).mean(0);
                preds.push_back(p.argmax(1));
            }
            const auto pred = torch::cat(preds);
            double balanced = 0.0;
            for (int c = 0; c < 10; ++c) {
                const auto mask = testY == c;
                balanced += (pred.masked_select(mask) == c).to(torch::kFloat).mean().item<double>();
            }
            qInfo("epoch %d: %.1f s, balanced test accuracy %.2f%%", e, seconds, balanced * 10.0);
        }
    }
};

QTEST_APPLESS_MAIN(TestSmallCnnFashionMnist)
#include "test_smallcnnfmnist.moc"
