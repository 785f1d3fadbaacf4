// Per-particle temperature scaling (core/eval/particletemperature.h, issue 29 item 3): each T_j
// is the single-T fit of particle j's own probabilities, the scaling of each particle checked by
// hand, the file round-trips, and bad shapes or files are named.
#include "core/eval/particletemperature.h"
#include "core/util/error.h"

#include "tests/support/expect.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

using namespace lbd;

class TestParticleTemperature : public QObject {
    Q_OBJECT

private slots:
    void eachParticleGetsItsOwnFit()
    {
        // 2 particles x 4 images x 3 classes; labels 0, 1, 2, 0. Particle 0 is confidently wrong
        // on image 2 (over-confident: T > 1), particle 1 is timid but right (T < 1).
        const std::vector<double> p = {
            0.90, 0.05, 0.05, 0.05, 0.90, 0.05, 0.90, 0.05, 0.05, 0.80, 0.10, 0.10, // particle 0
            0.50, 0.25, 0.25, 0.25, 0.50, 0.25, 0.25, 0.25, 0.50, 0.50, 0.25, 0.25, // particle 1
        };
        const std::vector<int64_t> labels = {0, 1, 2, 0};
        const ParticleTemperatureFit fit = fitParticleTemperatures(p, 2, labels, 3);
        QCOMPARE(fit.particles.size(), size_t(2));
        const TemperatureFit first = fitTemperature(std::vector<double>(p.begin(), p.begin() + 12), labels, 3);
        const TemperatureFit second = fitTemperature(std::vector<double>(p.begin() + 12, p.end()), labels, 3);
        QCOMPARE(fit.particles[0].temperature, first.temperature);
        QCOMPARE(fit.particles[1].temperature, second.temperature);
        QVERIFY2(fit.particles[0].temperature > 1.0, qPrintable(QString::number(fit.particles[0].temperature)));
        QVERIFY2(fit.particles[1].temperature < 1.0, qPrintable(QString::number(fit.particles[1].temperature)));
        QCOMPARE(fit.temperatures(), (std::vector<double>{first.temperature, second.temperature}));
    }

    // By hand: T = 2 takes square roots, T = 0.5 squares, each row then normalised.
    void scalesEachParticleByItsT()
    {
        const std::vector<double> p = {0.64, 0.32, 0.04, 0.5, 0.3, 0.2};
        const std::vector<double> scaled = particleTemperatureScaled(p, 2, 3, {2.0, 0.5});
        const double root = 0.8 + std::sqrt(0.32) + 0.2;
        const std::vector<double> expected = {0.8 / root, std::sqrt(0.32) / root, 0.2 / root, 0.25 / 0.38, 0.09 / 0.38, 0.04 / 0.38};
        for (size_t i = 0; i < p.size(); ++i) {
            QVERIFY2(std::abs(scaled[i] - expected[i]) < 1e-12, qPrintable(QStringLiteral("%1: %2 vs %3").arg(i).arg(scaled[i]).arg(expected[i])));
        }
        const std::vector<double> same = particleTemperatureScaled(p, 2, 3, {1.0, 1.0});
        for (size_t i = 0; i < p.size(); ++i) {
            QVERIFY(std::abs(same[i] - p[i]) < 1e-12);
        }
        QVERIFY(test::throwsInputError([&] { particleTemperatureScaled(p, 2, 3, {1.0}); }, {"1 temperatures", "2 particles"}));
        QVERIFY(test::throwsInputError([&] { particleTemperatureScaled(p, 4, 3, {1, 1, 1, 1}); }, {"4 particles"}));
        QVERIFY(test::throwsInputError([&] { particleTemperatureScaled(p, 2, 3, {1.0, -1.0}); }, {"T"}));
    }

    void theFileRoundTripsAndIsChecked()
    {
        QTemporaryDir dir;
        const std::string run = dir.path().toStdString();
        QVERIFY(!loadParticleTemperatures(run));
        ParticleTemperatureFit fit;
        for (double t : {1.5, 0.75}) {
            TemperatureFit one;
            one.temperature = t;
            one.images = 9;
            one.nllBefore = 1.0;
            one.nllAfter = 0.9;
            fit.particles.push_back(one);
        }
        saveParticleTemperatures(fit, run);
        const auto back = loadParticleTemperatures(run);
        QVERIFY(back);
        QCOMPARE(back->temperatures(), (std::vector<double>{1.5, 0.75}));
        QCOMPARE(back->particles[1].images, int64_t(9));
        std::ofstream(run + "/" + kParticleTemperatureFileName) << R"({"fitted_on": "test", "images": 9, "particles": []})";
        QVERIFY(test::throwsInputError([&] { loadParticleTemperatures(run); }, {kParticleTemperatureFileName, "validation"}));
        std::ofstream(run + "/" + kParticleTemperatureFileName) << R"({"fitted_on": "validation", "images": 9})";
        QVERIFY(test::throwsInputError([&] { loadParticleTemperatures(run); }, {kParticleTemperatureFileName}));
    }
};

QTEST_APPLESS_MAIN(TestParticleTemperature)
#include "test_particletemperature.moc"
