// Uncertainty decomposition: vector A of lbd-math.md section 7 and vote disagreement.
#include "core/eval/uncertainty.h"

#include <QtTest>

using namespace lbd;

class TestUncertainty : public QObject {
    Q_OBJECT

private slots:
    void vectorA_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::newRow("double") << static_cast<int>(torch::kFloat64);
        QTest::newRow("float") << static_cast<int>(torch::kFloat32);
    }
    void vectorA()
    {
        QFETCH(int, dtype);
        const auto probs = torch::tensor({0.50, 0.30, 0.20, 0.40, 0.25, 0.35}, torch::kFloat64)
                               .view({2, 1, 3})
                               .to(static_cast<torch::Dtype>(dtype));
        const ImageUncertainty u = computeUncertainty(probs).image(0);
        QVERIFY2(std::abs(u.total - 1.06937) < 1e-5, qPrintable(QString::number(u.total, 'f', 7)));
        QVERIFY2(std::abs(u.aleatoric - 1.05509) < 1e-5, qPrintable(QString::number(u.aleatoric, 'f', 7)));
        QVERIFY2(std::abs(u.epistemic - 0.01428) < 1e-5, qPrintable(QString::number(u.epistemic, 'f', 7)));
        QCOMPARE(u.voteDisagreement, 0.0); // both particles pick class 0
        QCOMPARE(u.particleTop1, std::vector<int64_t>({0, 0}));
        QCOMPARE(u.particleTop1Probability.size(), size_t{2});
        QVERIFY(std::abs(u.particleTop1Probability[0] - 0.50) < 1e-6);
        QVERIFY(std::abs(u.particleTop1Probability[1] - 0.40) < 1e-6);
    }

    void voteDisagreementCountsLargestAgreement()
    {
        // Image 0: top-1 = 0, 1, 1 -> 1 - 2/3. Image 1: 0, 1, 2 -> 1 - 1/3. Image 2: all 2 -> 0.
        const auto probs = torch::tensor({// particle 1
                                          0.6, 0.3, 0.1, 0.5, 0.2, 0.3, 0.1, 0.1, 0.8,
                                          // particle 2
                                          0.2, 0.7, 0.1, 0.3, 0.6, 0.1, 0.0, 0.0, 1.0,
                                          // particle 3
                                          0.1, 0.5, 0.4, 0.2, 0.2, 0.6, 0.3, 0.1, 0.6},
                                         torch::kFloat64)
                               .view({3, 3, 3});
        const UncertaintyBatch batch = computeUncertainty(probs);
        QCOMPARE(batch.size(), int64_t{3});
        QVERIFY(std::abs(batch.voteDisagreement[0].item<double>() - 1.0 / 3.0) < 1e-12);
        QVERIFY(std::abs(batch.voteDisagreement[1].item<double>() - 2.0 / 3.0) < 1e-12);
        QCOMPARE(batch.voteDisagreement[2].item<double>(), 0.0);
        QCOMPARE(batch.image(1).particleTop1, std::vector<int64_t>({0, 1, 2}));
        // A one-hot particle has zero entropy, not NaN from 0 * log 0.
        QVERIFY(torch::isfinite(batch.aleatoric).all().item<bool>());
        QVERIFY(torch::isfinite(batch.total).all().item<bool>());
    }

    void entropyOfKnownDistributions()
    {
        QVERIFY(std::abs(entropy(torch::full({4}, 0.25, torch::kFloat64)).item<double>() - std::log(4.0)) < 1e-12);
        QCOMPARE(entropy(torch::tensor({0.0, 1.0, 0.0}, torch::kFloat64)).item<double>(), 0.0);
    }

    void identicalParticlesHaveNoEpistemicUncertainty()
    {
        const auto one = torch::tensor({0.2, 0.5, 0.3}, torch::kFloat32).view({1, 1, 3});
        const UncertaintyBatch batch = computeUncertainty(torch::cat({one, one, one}, 0));
        QVERIFY(batch.epistemic[0].item<double>() >= 0.0);
        QVERIFY(batch.epistemic[0].item<double>() < 1e-6);
    }
};

QTEST_APPLESS_MAIN(TestUncertainty)
#include "test_uncertainty.moc"
