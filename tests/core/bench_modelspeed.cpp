// Forward + backward throughput of the particle models, fused and unfused. A measurement, not a
// check: not run by CTest, and skipped unless LBD_MODEL_BENCH=1 (it takes minutes on a small CPU).
//   LBD_MODEL_BENCH=1 build/tests/core_bench_modelspeed   [LBD_BENCH_DEVICE=cuda]
#include "core/model/modelfactory.h"

#include <QtTest>

#include <torch/csrc/autograd/profiler_legacy.h>

#include <chrono>
#include <ctime>
#include <cstdlib>

using namespace lbd;

namespace {

struct Rate {
    double wall = 0.0;  // images per second of wall-clock time
    double cpu = 0.0;   // images per (process CPU seconds / threads): what an idle machine gives
};

Rate imagesPerSecond(ParticleModel& model, const torch::Tensor& x, const torch::Tensor& labels,
                       bool fused, int iterations)
{
    auto step = [&] {
        const auto logits = fused ? model->forward(x) : model->forwardSeparately(x).logits;
        const auto loss = torch::nn::functional::cross_entropy(
            logits.flatten(0, 1), labels.repeat({logits.size(0)}));
        model->zero_grad();
        loss.backward();
    };
    step();  // warm-up: allocator, kernel selection
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpuStart = std::clock();
    for (int i = 0; i < iterations; ++i) {
        step();
    }
    if (x.is_cuda()) {
        (void)x.sum().item<float>();  // wait for queued kernels
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpuSeconds = double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    const double images = double(iterations) * double(x.size(0));
    return {images / seconds, images / (cpuSeconds / torch::get_num_threads())};
}

} // namespace

class TestModelSpeed : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!std::getenv("LBD_MODEL_BENCH")) {
            QSKIP("set LBD_MODEL_BENCH=1 to measure");
        }
        torch::set_num_threads(2);
        qInfo("%s", at::show_config().c_str());
    }

    void throughput_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<int>("particles");
        QTest::addColumn<bool>("fused");
        QTest::newRow("smallcnn M=1 fused") << "smallcnn" << 1 << true;
        QTest::newRow("smallcnn M=3 fused") << "smallcnn" << 3 << true;
        QTest::newRow("smallcnn M=3 separate") << "smallcnn" << 3 << false;
        QTest::newRow("resnet32 M=1 fused") << "resnet32" << 1 << true;
        QTest::newRow("resnet32 M=3 fused") << "resnet32" << 3 << true;
        QTest::newRow("resnet32 M=3 separate") << "resnet32" << 3 << false;
    }

    void throughput()
    {
        QFETCH(QString, arch);
        QFETCH(int, particles);
        QFETCH(bool, fused);
        const char* deviceName = std::getenv("LBD_BENCH_DEVICE");
        const torch::Device device(deviceName ? deviceName : "cpu");
        ModelSpec s;
        s.arch = arch.toStdString();
        s.particles = particles;
        s.inputChannels = 1;
        s.numClasses = 10;
        auto model = makeParticleModel(s);
        model->to(device);
        model->train();
        const int64_t batch = 128;
        const auto x = torch::randn({batch, 1, 32, 32}, device);
        const auto labels = torch::randint(0, 10, {batch}, torch::TensorOptions(device).dtype(torch::kLong));
        const int iterations = device.is_cuda() ? 50 : (arch == "smallcnn" ? 10 : 3);
        if (std::getenv("LBD_BENCH_CHANNELS_LAST")) {
            for (auto& p : model->parameters()) {
                if (p.dim() == 4) {
                    p.set_data(p.contiguous(torch::MemoryFormat::ChannelsLast));
                }
            }
        }
        const auto input = std::getenv("LBD_BENCH_CHANNELS_LAST")
            ? x.contiguous(torch::MemoryFormat::ChannelsLast) : x;
        std::unique_ptr<torch::autograd::profiler::RecordProfile> profile;
        if (const char* path = std::getenv("LBD_BENCH_PROFILE")) {
            profile = std::make_unique<torch::autograd::profiler::RecordProfile>(
                std::string(path) + "." + QTest::currentDataTag() + ".json");
        }
        const Rate rate = imagesPerSecond(model, input, labels, fused, iterations);
        profile.reset();
        qInfo("%s: %.0f images/s forward+backward (%.0f by CPU time; batch %lld, %s, %d threads)",
              QTest::currentDataTag(), rate.wall, rate.cpu, static_cast<long long>(batch),
              device.str().c_str(), torch::get_num_threads());
    }
};

QTEST_APPLESS_MAIN(TestModelSpeed)
#include "bench_modelspeed.moc"
