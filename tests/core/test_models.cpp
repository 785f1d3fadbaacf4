// Particle models: shapes, the cosine bound, parameter counts, fused == unfused, and that a few
// SGD steps actually learn.
#include "core/model/modelfactory.h"
#include "core/util/error.h"

#include <QtTest>

#include <map>

using namespace lbd;

namespace {

ModelSpec spec(const std::string& arch, int64_t particles, int64_t channels, int64_t classes,
               int64_t size)
{
    ModelSpec s;
    s.arch = arch;
    s.particles = particles;
    s.inputChannels = channels;
    s.numClasses = classes;
    s.inputSize = size;
    return s;
}

int64_t parameterCount(const ParticleModel& model)
{
    int64_t n = 0;
    for (const auto& p : model->parameters()) {
        n += p.numel();
    }
    return n;
}

double maxAbsDiff(const torch::Tensor& a, const torch::Tensor& b)
{
    return (a - b).abs().max().item<double>();
}

// Makes BatchNorm non-trivial (running statistics, affine parameters) so that slicing mistakes
// in the unfused path cannot hide behind weight = 1, bias = 0, mean = 0, var = 1.
void scrambleBatchNorm(ParticleModel& model)
{
    torch::NoGradGuard noGrad;
    for (auto& module : model->modules(/*include_self=*/false)) {
        if (auto* bn = module->as<torch::nn::BatchNorm2dImpl>()) {
            bn->weight.uniform_(0.5, 1.5);
            bn->bias.uniform_(-0.2, 0.2);
            bn->running_mean.uniform_(-0.3, 0.3);
            bn->running_var.uniform_(0.5, 2.0);
        }
    }
}

std::map<std::string, torch::Tensor> cloneBuffers(const ParticleModel& model)
{
    std::map<std::string, torch::Tensor> out;
    for (const auto& item : model->named_buffers()) {
        out[item.key()] = item.value().clone();
    }
    return out;
}

void restoreBuffers(ParticleModel& model, const std::map<std::string, torch::Tensor>& saved)
{
    torch::NoGradGuard noGrad;
    for (auto& item : model->named_buffers()) {
        item.value().copy_(saved.at(item.key()));
    }
}

double particleMeanCrossEntropy(const torch::Tensor& logits, const torch::Tensor& labels)
{
    return torch::nn::functional::cross_entropy(logits.flatten(0, 1),
                                                labels.repeat({logits.size(0)}))
        .item<double>();
}

// Class-dependent blobs plus noise: learnable, but not in one step.
std::pair<torch::Tensor, torch::Tensor> syntheticBatch(int64_t batch, int64_t channels,
                                                       int64_t size, int64_t classes)
{
    auto labels = torch::arange(batch) % classes;
    auto prototypes = torch::randn({classes, channels, size, size});
    auto x = prototypes.index_select(0, labels) + 0.5 * torch::randn({batch, channels, size, size});
    return {x, labels};
}

// Runs `steps` SGD steps on one batch; returns the loss before the first and after the last
// step (both in training mode, i.e. with batch statistics).
std::pair<double, double> trainSteps(ParticleModel& model, const torch::Tensor& x,
                                     const torch::Tensor& labels, int steps, double lr)
{
    model->train();
    torch::optim::SGD sgd(model->parameters(),
                          torch::optim::SGDOptions(lr).momentum(0.9).nesterov(true));
    double first = 0.0, last = 0.0;
    for (int i = 0; i < steps; ++i) {
        auto logits = model(x);
        auto loss = torch::nn::functional::cross_entropy(logits.flatten(0, 1),
                                                         labels.repeat({logits.size(0)}));
        if (i == 0) {
            first = loss.item<double>();
        }
        sgd.zero_grad();
        loss.backward();
        sgd.step();
    }
    {
        torch::NoGradGuard noGrad;
        last = particleMeanCrossEntropy(model(x), labels);
    }
    return {first, last};
}

} // namespace

class TestModels : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        torch::set_num_threads(2);
        torch::manual_seed(7);
    }

    void specValidation_data()
    {
        QTest::addColumn<QString>("field");
        QTest::newRow("particles") << "particles";
        QTest::newRow("numClasses") << "numClasses";
        QTest::newRow("arch") << "arch";
        QTest::newRow("inputChannels") << "inputChannels";
        QTest::newRow("cosineScale") << "cosineScale";
        QTest::newRow("inputSize") << "inputSize";
    }

    void specValidation()
    {
        QFETCH(QString, field);
        ModelSpec s;
        QVERIFY_THROWS_NO_EXCEPTION(s.validate());
        if (field == "particles") {
            s.particles = 0;
        } else if (field == "numClasses") {
            s.numClasses = 1;
        } else if (field == "arch") {
            s.arch = "vgg16";
        } else if (field == "inputChannels") {
            s.inputChannels = 0;
        } else if (field == "cosineScale") {
            s.cosineScale = 0.0;
        } else if (field == "inputSize") {
            s.arch = "resnet50";
            s.inputSize = 16;
        }
        bool thrown = false;
        try {
            (void)makeParticleModel(s);
        } catch (const InputError& e) {
            thrown = true;
            const std::string message = e.what();
            QVERIFY2(message.find("model." + field.toStdString()) != std::string::npos,
                     message.c_str());
        }
        QVERIFY(thrown);
    }

    void shapesAndCosineBound_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<int>("particles");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("featureDim");
        QTest::newRow("resnet32 M=3") << "resnet32" << 3 << 3 << 32 << 64;
        QTest::newRow("resnet32 M=1 gray") << "resnet32" << 1 << 1 << 32 << 64;
        QTest::newRow("smallcnn M=3") << "smallcnn" << 3 << 1 << 32 << 128;
        QTest::newRow("resnet50 M=2") << "resnet50" << 2 << 3 << 64 << 2048;
    }

    void shapesAndCosineBound()
    {
        QFETCH(QString, arch);
        QFETCH(int, particles);
        QFETCH(int, channels);
        QFETCH(int, size);
        QFETCH(int, featureDim);
        const int64_t classes = 7, batch = 5;
        auto model = makeParticleModel(spec(arch.toStdString(), particles, channels, classes, size));
        QCOMPARE(model->particleCount(), int64_t(particles));
        QCOMPARE(model->numClasses(), classes);
        QCOMPARE(model->featureDim(), int64_t(featureDim));

        const auto x = torch::randn({batch, channels, size, size}) * 3.0;
        const auto out = model->forwardWithFeatures(x);
        QCOMPARE(out.logits.sizes().vec(), (std::vector<int64_t>{particles, batch, classes}));
        QCOMPARE(out.features.sizes().vec(),
                 (std::vector<int64_t>{particles, batch, featureDim}));
        QCOMPARE(model(x).sizes().vec(), out.logits.sizes().vec());
        QCOMPARE(model->classifierWeights().sizes().vec(),
                 (std::vector<int64_t>{particles, classes, featureDim}));
        const double s = model->spec().cosineScale;
        QVERIFY(out.logits.abs().max().item<double>() <= s * (1.0 + 1e-5));
        QVERIFY(torch::isfinite(out.logits).all().item<bool>());
        // Features after ReLU + average pooling are non-negative.
        QVERIFY(out.features.min().item<double>() >= 0.0);
    }

    void resnet32ParameterCount()
    {
        auto one = makeParticleModel(spec("resnet32", 1, 3, 10, 32));
        const int64_t n1 = parameterCount(one);
        qInfo("ResNet-32, M = 1, 10 classes: %lld parameters", static_cast<long long>(n1));
        QVERIFY(n1 > 455000 && n1 < 470000);

        // Only the stem (3x3 conv 3 -> 16 and its BN) is shared: every other parameter is
        // replicated once per particle.
        const int64_t stem = 3 * 16 * 9 + 2 * 16;
        auto three = makeParticleModel(spec("resnet32", 3, 3, 10, 32));
        QCOMPARE(parameterCount(three), stem + 3 * (n1 - stem));
    }

    void classifierWeightsCarryGradient()
    {
        auto model = makeParticleModel(spec("smallcnn", 3, 1, 5, 32));
        const auto w = model->classifierWeights();
        // The repulsive term of the objective: R = 1/2 mean_k log(Var_k + eps), across particles.
        const auto r = 0.5 * (w.flatten(1).var(0, /*unbiased=*/false) + 1e-8).log().mean();
        r.backward();
        const auto grad = model->classifierWeights().grad();
        QVERIFY(grad.defined());
        QVERIFY(torch::isfinite(grad).all().item<bool>());
        QVERIFY(grad.abs().sum().item<double>() > 0.0);
    }

    void fusedMatchesSeparate_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<int>("particles");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("size");
        QTest::addColumn<bool>("training");
        QTest::newRow("resnet32 M=3 eval") << "resnet32" << 3 << 3 << 32 << false;
        QTest::newRow("resnet32 M=3 train") << "resnet32" << 3 << 3 << 32 << true;
        QTest::newRow("smallcnn M=3 eval") << "smallcnn" << 3 << 1 << 32 << false;
        QTest::newRow("smallcnn M=3 train") << "smallcnn" << 3 << 1 << 32 << true;
        QTest::newRow("resnet50 M=2 eval") << "resnet50" << 2 << 3 << 64 << false;
        QTest::newRow("resnet50 M=2 train") << "resnet50" << 2 << 3 << 64 << true;
    }

    void fusedMatchesSeparate()
    {
        QFETCH(QString, arch);
        QFETCH(int, particles);
        QFETCH(int, channels);
        QFETCH(int, size);
        QFETCH(bool, training);
        auto model = makeParticleModel(spec(arch.toStdString(), particles, channels, 10, size));
        scrambleBatchNorm(model);
        model->train(training);
        const auto x = torch::randn({4, channels, size, size});

        torch::NoGradGuard noGrad;
        const auto before = cloneBuffers(model);
        const auto fused = model->forwardWithFeatures(x);
        const auto fusedBuffers = cloneBuffers(model);
        restoreBuffers(model, before);
        const auto separate = model->forwardSeparately(x);

        const double dLogits = maxAbsDiff(fused.logits, separate.logits);
        const double dFeatures = maxAbsDiff(fused.features, separate.features);
        // Features are unbounded (ResNet-50's reach ~10 with scrambled BN statistics), so their
        // tolerance is relative; logits are bounded by s and compared absolutely.
        const double featureScale = std::max(1.0, fused.features.abs().max().item<double>());
        qInfo("max |fused - separate|: logits %.3g, features %.3g (features up to %.3g)",
              dLogits, dFeatures, featureScale);
        QVERIFY2(dLogits <= 1e-5, std::to_string(dLogits).c_str());
        QVERIFY2(dFeatures <= 1e-5 * featureScale, std::to_string(dFeatures).c_str());

        // Training mode: both paths update the same running statistics the same way.
        for (const auto& item : model->named_buffers()) {
            const auto& name = item.key();
            if (name.find("num_batches_tracked") != std::string::npos) {
                continue;
            }
            const double d = maxAbsDiff(item.value(), fusedBuffers.at(name));
            QVERIFY2(d <= 1e-5, (name + " differs by " + std::to_string(d)).c_str());
            if (training) {
                QVERIFY2(maxAbsDiff(item.value(), before.at(name)) > 0.0,
                         (name + " was not updated").c_str());
            }
        }
    }

    void sgdReducesLoss_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<int>("particles");
        QTest::newRow("resnet32 M=2") << "resnet32" << 2;
        QTest::newRow("smallcnn M=3") << "smallcnn" << 3;
    }

    void sgdReducesLoss()
    {
        QFETCH(QString, arch);
        QFETCH(int, particles);
        torch::manual_seed(11);
        const int64_t classes = 4, size = 16;
        auto model = makeParticleModel(spec(arch.toStdString(), particles, 1, classes, size));
        const auto [x, labels] = syntheticBatch(16, 1, size, classes);
        const auto [first, last] = trainSteps(model, x, labels, 8, 0.05);
        qInfo("cross-entropy %.4f -> %.4f", first, last);
        QVERIFY(std::isfinite(last));
        QVERIFY2(last < 0.5 * first, (std::to_string(first) + " -> " + std::to_string(last)).c_str());
    }

    // Which layers are per particle: ResNet-32 shares only the stem; ResNet-50 shares the stem,
    // layer1 and layer2, and splits layer3 and layer4 (the published ImageNet-LT split).
    void particleSplitOfTheResNets()
    {
        const auto rows = [](ParticleModel& model, const std::string& name) {
            for (const auto& item : model->named_parameters()) {
                if (item.key() == name) {
                    return item.value().size(0);
                }
            }
            return int64_t{-1};
        };
        auto resnet32 = makeParticleModel(spec("resnet32", 3, 1, 10, 32));
        QCOMPARE(rows(resnet32, "conv1.weight"), int64_t{16});
        QCOMPARE(rows(resnet32, "layer1.0.conv1.conv.weight"), int64_t{3 * 16});
        auto resnet50 = makeParticleModel(spec("resnet50", 3, 3, 10, 64));
        QCOMPARE(rows(resnet50, "layer2.0.conv1.conv.weight"), int64_t{128});
        QCOMPARE(rows(resnet50, "layer3.0.conv1.conv.weight"), int64_t{3 * 256});
        QCOMPARE(rows(resnet50, "layer3.0.downsample.conv.weight"), int64_t{3 * 1024});
        QCOMPARE(rows(resnet50, "layer4.2.conv3.conv.weight"), int64_t{3 * 2048});
        // The fused and the one-particle-at-a-time paths agree on the split.
        resnet50->eval();
        const auto x = torch::randn({2, 3, 64, 64});
        QVERIFY(maxAbsDiff(resnet50->forwardWithFeatures(x).logits, resnet50->forwardSeparately(x).logits) < 1e-3);
    }

    void resnet50TrainsOn224()
    {
        torch::manual_seed(3);
        auto model = makeParticleModel(spec("resnet50", 2, 3, 5, 224));
        const auto x = torch::randn({2, 3, 224, 224});
        const auto labels = torch::tensor({1, 3}, torch::kLong);
        const auto headBefore = model->classifierWeights().clone();
        const auto [first, last] = trainSteps(model, x, labels, 2, 0.01);
        qInfo("ResNet-50 M=2 cross-entropy %.4f -> %.4f", first, last);
        QVERIFY(std::isfinite(first));
        QVERIFY(std::isfinite(last));
        QVERIFY(maxAbsDiff(model->classifierWeights(), headBefore) > 0.0);
    }
};

QTEST_APPLESS_MAIN(TestModels)
#include "test_models.moc"
