// Per-particle temperature scaling (core/eval/particletemperature.h; lbd-math.md section 9):
// vector I (vector F's particles through T_j = 1 and the mean-logit rule decide class 0, which
// log-of-floored probabilities turn into class 1), the scaling by hand, the JOINT fit (it beats
// fitting each particle on its own, and is a minimum of the calibrated mean's NLL), and the file's
// one check (hostile values are refused naming the file and the field).
#include "core/eval/decisions.h"
#include "core/eval/particletemperature.h"
#include "core/util/error.h"

#include "tests/support/expect.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

using namespace lbd;

namespace {

// softmax of one row of logits, in double.
std::vector<double> softmax(const std::vector<double>& z)
{
    double top = -INFINITY;
    for (double v : z) {
        top = std::max(top, v);
    }
    double sum = 0.0;
    std::vector<double> p;
    for (double v : z) {
        p.push_back(std::exp(v - top));
        sum += p.back();
    }
    for (double& v : p) {
        v /= sum;
    }
    return p;
}

// The mean-logit decision of [M][1][C] probabilities.
int64_t meanLogitDecision(const std::vector<double>& probabilities, int64_t particles, int64_t classes)
{
    const torch::Tensor p = torch::tensor(probabilities, torch::kFloat64).view({particles, 1, classes});
    return decide(p, UtilityMatrix::oneHot(classes), DecisionRule::MeanLogit).decisions[0].item<int64_t>();
}

void writeText(const std::string& path, const std::string& text)
{
    std::ofstream(path) << text;
}

} // namespace

class TestParticleTemperature : public QObject {
    Q_OBJECT

private slots:
    // Vector I: vector F's three particles (logits [30,-10,-12], [5,22,-8], [5,22,-8]) scaled with
    // every T_j = 1 and decided by mean-logit -> class 0 (mean logits [13.333, 11.333, -9.333]).
    // The former scaling took log max(p, 1e-12): particle 1's log p(1) rose from -40 to -27.6 and
    // class 1 won.
    void vectorIPerParticleTemperaturesKeepTheExactLog()
    {
        std::vector<double> p;
        for (const auto& z : {std::vector<double>{30, -10, -12}, {5, 22, -8}, {5, 22, -8}}) {
            const std::vector<double> row = softmax(z);
            p.insert(p.end(), row.begin(), row.end());
        }
        QCOMPARE(meanLogitDecision(p, 3, 3), int64_t(0)); // vector F itself
        const std::vector<double> scaled = particleTemperatureScaled(p, 3, 3, {1.0, 1.0, 1.0});
        for (size_t i = 0; i < p.size(); ++i) {
            QVERIFY2(std::abs(scaled[i] - p[i]) <= 1e-12 * p[i],
                     qPrintable(QStringLiteral("%1: %2 vs %3").arg(i).arg(scaled[i], 0, 'g', 17).arg(p[i], 0, 'g', 17)));
        }
        QCOMPARE(meanLogitDecision(scaled, 3, 3), int64_t(0));
        // What the floor did (the bug this vector catches).
        std::vector<double> floored = p;
        for (double& v : floored) {
            v = std::max(v, 1e-12);
        }
        QCOMPARE(meanLogitDecision(floored, 3, 3), int64_t(1));
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
        QVERIFY(test::throwsInputError([&] { particleTemperatureScaled(p, 2, 3, {1.0}); }, {"1 temperatures", "2 particles"}));
        QVERIFY(test::throwsInputError([&] { particleTemperatureScaled(p, 4, 3, {1, 1, 1, 1}); }, {"4 particles"}));
        QVERIFY(test::throwsInputError([&] { particleTemperatureScaled(p, 2, 3, {1.0, -1.0}); }, {"T_j"}));
    }

    // Two identical particles: their mean is the particle, so the joint fit is the single T of
    // pbar [0.9, 0.1] on labels 0, 0, 0, 1: 9^(1/T) / (9^(1/T) + 1) = 3/4, T = log 9 / log 3 = 2.
    void identicalParticlesGetTheClosedFormT()
    {
        std::vector<double> p;
        for (int i = 0; i < 8; ++i) {
            p.push_back(0.9);
            p.push_back(0.1);
        }
        const ParticleTemperatureFit fit = fitParticleTemperatures(p, 2, {0, 0, 0, 1}, 2);
        QCOMPARE(fit.values.size(), size_t(2));
        for (const double t : fit.values) {
            QVERIFY2(std::abs(t - 2.0) < 1e-4, qPrintable(QString::number(t, 'g', 10)));
        }
        QVERIFY(std::abs(fit.nllAfter - -(0.75 * std::log(0.75) + 0.25 * std::log(0.25))) < 1e-9);
        QVERIFY(std::abs(fit.nllBefore - -(0.75 * std::log(0.9) + 0.25 * std::log(0.1))) < 1e-12);
        QCOMPARE(fit.images, int64_t(4));
    }

    // A sure particle (0.95) wrong on images 2 and 5, a timid one (0.7) wrong on 2 and 8; labels
    // 0, 1, 2, 0, ... Fitted each on its own (the former rule), T = 1.749 and 0.741: calibrated
    // members, a mean of NLL 0.54616. The best common T (0.744) gives 0.52382; the joint fit
    // (1.3155, 0.5571) gives 0.52154 (computed with numpy: golden-section coordinate descent to
    // 1e-9). So the joint fit beats both, and no single T_j can move to lower it.
    void theJointFitBeatsFittingEachParticleAlone()
    {
        const std::vector<int64_t> labels = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0};
        const auto row = [](int64_t k, double sure) {
            std::vector<double> r(3, (1.0 - sure) / 2.0);
            r[static_cast<size_t>(k)] = sure;
            return r;
        };
        std::vector<double> p;
        for (size_t n = 0; n < labels.size(); ++n) { // particle 0: wrong (the next class) on 2 and 5
            const auto r = row(n == 2 || n == 5 ? (labels[n] + 1) % 3 : labels[n], 0.95);
            p.insert(p.end(), r.begin(), r.end());
        }
        for (size_t n = 0; n < labels.size(); ++n) { // particle 1: wrong (the class after) on 2 and 8
            const auto r = row(n == 2 || n == 8 ? (labels[n] + 2) % 3 : labels[n], 0.7);
            p.insert(p.end(), r.begin(), r.end());
        }
        const ParticleTemperatureFit joint = fitParticleTemperatures(p, 2, labels, 3);
        const double jointNll = particleTemperatureNll(p, 2, labels, 3, joint.values);
        QVERIFY(std::abs(jointNll - joint.nllAfter) < 1e-12);
        QVERIFY(joint.nllAfter < joint.nllBefore);
        // Each particle fitted alone (the former rule): calibrated members, a worse mean.
        QVERIFY2(std::abs(joint.values[0] - 1.3155) < 1e-3 && std::abs(joint.values[1] - 0.5571) < 1e-3,
                 qPrintable(QStringLiteral("T %1, %2").arg(joint.values[0], 0, 'g', 8).arg(joint.values[1], 0, 'g', 8)));
        QVERIFY2(std::abs(jointNll - 0.52154) < 1e-5, qPrintable(QString::number(jointNll, 'g', 8)));
        const TemperatureFit alone0 = fitTemperature(std::vector<double>(p.begin(), p.begin() + 30), labels, 3);
        const TemperatureFit alone1 = fitTemperature(std::vector<double>(p.begin() + 30, p.end()), labels, 3);
        const double aloneNll = particleTemperatureNll(p, 2, labels, 3, {alone0.temperature, alone1.temperature});
        QVERIFY(std::abs(aloneNll - 0.54616) < 1e-5);
        QVERIFY2(jointNll < particleTemperatureNll(p, 2, labels, 3, {0.7443, 0.7443}) - 1e-3, "the best common T");
        QVERIFY2(jointNll < aloneNll - 1e-2, qPrintable(QStringLiteral("joint %1, each alone %2 (T %3, %4 vs %5, %6)")
                                                           .arg(jointNll).arg(aloneNll).arg(joint.values[0]).arg(joint.values[1])
                                                           .arg(alone0.temperature).arg(alone1.temperature)));
        // A minimum: moving any T_j by 1 % either way does not lower the NLL.
        for (size_t j = 0; j < 2; ++j) {
            for (const double factor : {0.99, 1.01}) {
                std::vector<double> moved = joint.values;
                moved[j] *= factor;
                QVERIFY(particleTemperatureNll(p, 2, labels, 3, moved) >= jointNll - 1e-12);
            }
        }
        for (const double t : joint.values) {
            QVERIFY(t >= kMinTemperature && t <= kMaxTemperature);
        }
        QVERIFY(test::throwsInputError([&] { fitParticleTemperatures(p, 2, {}, 3); }, {"no image"}));
        QVERIFY(test::throwsInputError([&] { fitParticleTemperatures(p, 2, {0, 1, 2, 0, 1, 2, 0, 1, 2, 3}, 3); }, {"label 3"}));
    }

    void theFileRoundTripsAndIsChecked()
    {
        QTemporaryDir dir;
        const std::string run = dir.path().toStdString();
        const std::string file = run + "/" + kParticleTemperatureFileName;
        QVERIFY(!loadParticleTemperatures(run, 2));
        ParticleTemperatureFit fit;
        fit.values = {1.5, 0.75};
        fit.images = 9;
        fit.nllBefore = 1.0;
        fit.nllAfter = 0.9;
        saveParticleTemperatures(fit, run);
        const auto back = loadParticleTemperatures(run, 2);
        QVERIFY(back);
        QCOMPARE(back->temperatures(), (std::vector<double>{1.5, 0.75}));
        QCOMPARE(back->images, int64_t(9));
        QCOMPARE(back->nllAfter, 0.9);
        // The run's M is checked where the file is read.
        QVERIFY(test::throwsInputError([&] { loadParticleTemperatures(run, 3); }, {file, "temperatures has 2 values", "3 particles"}));

        const auto hostile = [&](const std::string& temperatures, const std::string& extra = {}) {
            writeText(file, R"({"fit": "joint", "fitted_on": "validation", "images": 9, "nll_before": 1, "nll_after": 0.9, )"
                                + extra + R"("temperatures": )" + temperatures + "}");
        };
        for (const std::string& t : {"1e308", "1e-320", "0.0499", "20.001", "0", "-1"}) {
            hostile("[1.0, " + t + "]");
            QVERIFY2(test::throwsInputError([&] { loadParticleTemperatures(run, 2); }, {file, "temperatures[1]", "[0.05, 20]"}),
                     t.c_str());
        }
        hostile("[0.05, 20]");
        QVERIFY(loadParticleTemperatures(run, 2)); // the ends of the fit's range are what a fit can give
        writeText(file, R"({"fit": "joint", "fitted_on": "test", "images": 9, "nll_before": 1, "nll_after": 1, "temperatures": [1, 1]})");
        QVERIFY(test::throwsInputError([&] { loadParticleTemperatures(run, 2); }, {file, "fitted_on", "validation"}));
        writeText(file, R"({"fit": "joint", "fitted_on": "validation", "images": 0, "nll_before": 1, "nll_after": 1, "temperatures": [1, 1]})");
        QVERIFY(test::throwsInputError([&] { loadParticleTemperatures(run, 2); }, {file, "images"}));
        writeText(file, R"({"fit": "joint", "fitted_on": "validation", "images": 9, "nll_before": -1, "nll_after": 1, "temperatures": [1, 1]})");
        QVERIFY(test::throwsInputError([&] { loadParticleTemperatures(run, 2); }, {file, "nll_before"}));
        writeText(file, R"({"fit": "joint", "fitted_on": "validation", "images": 9})");
        QVERIFY(test::throwsInputError([&] { loadParticleTemperatures(run, 2); }, {file, "nll_before"}));
        // A file from before the joint fit is not used: the caller refits, and says why.
        writeText(file, R"({"fitted_on": "validation", "images": 9, "particles": [{"temperature": 1.5, "nll_before": 1, "nll_after": 0.9}]})");
        std::string outdated;
        QVERIFY(!loadParticleTemperatures(run, 1, &outdated));
        QVERIFY2(outdated.find("refitted jointly") != std::string::npos, outdated.c_str());
    }
};

QTEST_APPLESS_MAIN(TestParticleTemperature)
#include "test_particletemperature.moc"
