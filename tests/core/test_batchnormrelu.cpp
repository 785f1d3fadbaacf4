// batchNormAddRelu: the ATen path is exactly relu(bn(x) + residual) with the module's running
// statistics updated once, in training and in evaluation; on a CUDA device with cuDNN the fused
// kernels match ATen in fp32 (forward, all four gradients, running statistics).
#include "core/model/batchnormrelu.h"

#include <QtTest>

using namespace lbd;

namespace {

double maxAbsDiff(const torch::Tensor& a, const torch::Tensor& b)
{
    return (a - b).abs().max().item<double>();
}

// Two BatchNorm modules with the same non-trivial affine parameters and running statistics.
std::pair<torch::nn::BatchNorm2d, torch::nn::BatchNorm2d> twinModules(int64_t channels)
{
    torch::nn::BatchNorm2d a(channels), b(channels);
    torch::NoGradGuard noGrad;
    a->weight.uniform_(0.5, 1.5);
    a->bias.uniform_(-0.5, 0.5);
    a->running_mean.uniform_(-1, 1);
    a->running_var.uniform_(0.5, 2);
    for (auto* name : {"weight", "bias"}) {
        b->named_parameters()[name].copy_(a->named_parameters()[name]);
    }
    b->running_mean.copy_(a->running_mean);
    b->running_var.copy_(a->running_var);
    return {a, b};
}

} // namespace

class BatchNormReluTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { torch::manual_seed(3); }

    void trainingMatchesComposition()
    {
        auto [tested, reference] = twinModules(8);
        const auto x = torch::randn({4, 8, 5, 5}) * 3 + 1;
        const auto residual = torch::randn({4, 8, 5, 5});
        const auto xa = x.clone().requires_grad_(true);
        const auto xb = x.clone().requires_grad_(true);
        const auto varianceBefore = tested->running_var.clone();
        const auto y = batchNormAddRelu(xa, *tested, residual);
        const auto expected = torch::relu(reference->forward(xb) + residual);
        QVERIFY(maxAbsDiff(y, expected) < 1e-6);
        QVERIFY((y >= 0).all().item<bool>());
        QVERIFY((y == 0).any().item<bool>()); // the ReLU really clips something here
        QVERIFY(maxAbsDiff(tested->running_mean, reference->running_mean) < 1e-6);
        QVERIFY(maxAbsDiff(tested->running_var, reference->running_var) < 1e-6);
        // The running statistics moved (one update with momentum 0.1), identically.
        QVERIFY(maxAbsDiff(tested->running_var, varianceBefore) > 1e-3);
        y.sum().backward();
        expected.sum().backward();
        QVERIFY(maxAbsDiff(xa.grad(), xb.grad()) < 1e-6);
        QVERIFY(maxAbsDiff(tested->weight.grad(), reference->weight.grad()) < 1e-5);
    }

    void withoutResidualAndInEvaluation()
    {
        auto [tested, reference] = twinModules(6);
        tested->eval();
        reference->eval();
        const auto x = torch::randn({3, 6, 4, 4});
        QVERIFY(maxAbsDiff(batchNormAddRelu(x, *tested), torch::relu(reference->forward(x))) < 1e-6);
        // Evaluation leaves the running statistics alone.
        QVERIFY(maxAbsDiff(tested->running_mean, reference->running_mean) == 0);
    }

    void fusedKernelsMatchAtenOnCuda()
    {
        if (!torch::cuda::is_available()) {
            QSKIP("no CUDA device: the fused cuDNN kernels only run there (lbd bench records the same check)");
        }
        if (!fusedBatchNormEnabled()) {
            QSKIP("this build has no cuDNN headers");
        }
        const auto deviation = measureFusedBatchNormDeviation(torch::Device(torch::kCUDA), 32, 48, 16);
        QVERIFY(deviation.ran);
        // fp16 outputs and gradients: a few units in the last place of half precision.
        QVERIFY2(deviation.largest() < 5e-3, qPrintable(QString::number(deviation.largest())));
    }
};

QTEST_APPLESS_MAIN(BatchNormReluTest)
#include "test_batchnormrelu.moc"
