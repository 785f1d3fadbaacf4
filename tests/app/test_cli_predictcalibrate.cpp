// `lbd predict --calibrate` (issue 29): the run's temperature.json turns pbar into
// softmax(log pbar / T) before the decision and its confidence; without the file it is a clear
// error saying how to make one (on the validation split, never the test set), and rules that
// decide from each particle are refused.
#include "tests/app/clitest.h"

#include <cmath>

using namespace lbd::test;

namespace {
// What `lbd eval --calibrate` writes, with T = 2.5.
const QByteArray kTemperatureFile = "{\"temperature\": 2.5, \"definition\": \"calibrated pbar = softmax(log pbar / T)\", "
                                    "\"fitted_on\": \"validation\", \"images\": 10, \"nll_before\": 1.2, "
                                    "\"nll_after\": 1.1}\n";
// Per particle (item 3), as `lbd eval --calibrate --per-particle` writes it (a joint fit): T_1 = 8
// softens particle 1 (the tiny run is very sure), T_2 = 0.5 sharpens particle 2.
const QByteArray kParticleFile = "{\"fit\": \"joint\", \"fitted_on\": \"validation\", \"images\": 10, "
                                 "\"nll_before\": 1.0, \"nll_after\": 0.9, \"temperatures\": [8.0, 0.5]}\n";
} // namespace

class TestCliPredictCalibrate final : public CliTest {
    Q_OBJECT

    QString m_image;
    static constexpr double kTemperature = 2.5;

    QJsonObject predictJson(const QStringList& flags)
    {
        const QStringList args = QStringList{QStringLiteral("predict"), m_run, m_image, QStringLiteral("--json")} + flags;
        const Result result = runLbd(args);
        [&] { EXPECT_EXIT(result, args, 0); }();
        QString error;
        const QJsonArray predictions = parseJson(result.out, &error).array();
        if (!error.isEmpty() || predictions.size() != 1) {
            QTest::qFail(qPrintable(error + result.describe(args)), __FILE__, __LINE__);
            return {};
        }
        return predictions.first().toObject();
    }

    static std::vector<double> numbers(const QJsonValue& value)
    {
        std::vector<double> out;
        for (const auto& v : value.toArray()) {
            out.push_back(v.toDouble());
        }
        return out;
    }

private slots:
    void initTestCase()
    {
        trainTinyRun();
        QVERIFY2(!m_run.isEmpty(), qPrintable(m_trainFailure));
        QImage gray(16, 16, QImage::Format_Grayscale8);
        for (int y = 0; y < gray.height(); ++y) {
            for (int x = 0; x < gray.width(); ++x) {
                gray.setPixel(x, y, qRgb((x * 13 + y * 7) % 256, (x * 13 + y * 7) % 256, (x * 13 + y * 7) % 256));
            }
        }
        m_image = path(QStringLiteral("image.png"));
        QVERIFY(gray.save(m_image, "PNG"));
    }

    void withoutATemperatureFileSaysHowToMakeOne()
    {
        const QStringList args = {QStringLiteral("predict"), m_run, m_image, QStringLiteral("--calibrate")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("temperature.json"), result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("--calibrate"), result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("validation"), result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("never fitted on the test set"), result, args);
    }

    // Hand check: with T = 2.5, the calibrated probabilities are pbar^(1/T) / sum pbar^(1/T) of
    // the uncalibrated output; argmax stays, and the expected-utility confidence under one-hot U is
    // the calibrated max.
    void calibratedProbabilitiesAreSoftmaxOfLogPbarOverT()
    {
        QVERIFY(writeFile(m_run + QStringLiteral("/temperature.json"), kTemperatureFile));
        const QStringList flags = {QStringLiteral("--rule"), QStringLiteral("expected"), QStringLiteral("--utility"),
                                   QStringLiteral("onehot")};
        const QJsonObject plain = predictJson(flags);
        const QJsonObject calibrated = predictJson(flags + QStringList{QStringLiteral("--calibrate")});
        QVERIFY(plain.value(QStringLiteral("temperature")).isNull());
        QCOMPARE(calibrated.value(QStringLiteral("temperature")).toDouble(), kTemperature);

        const std::vector<double> pbar = numbers(plain.value(QStringLiteral("probabilities")));
        const std::vector<double> q = numbers(calibrated.value(QStringLiteral("probabilities")));
        QCOMPARE(pbar.size(), size_t(4));
        QCOMPARE(q.size(), size_t(4));
        double norm = 0.0;
        for (double p : pbar) {
            norm += std::pow(p, 1.0 / kTemperature);
        }
        double largest = 0.0, spread = 0.0;
        for (size_t k = 0; k < q.size(); ++k) {
            const double expected = std::pow(pbar[k], 1.0 / kTemperature) / norm;
            QVERIFY2(std::abs(q[k] - expected) < 1e-9, qPrintable(QStringLiteral("class %1: %2, expected %3").arg(k).arg(q[k]).arg(expected)));
            largest = std::max(largest, q[k]);
            spread = std::max(spread, std::abs(q[k] - pbar[k]));
        }
        QVERIFY2(spread > 1e-3, "T = 2.5 must visibly soften the probabilities");
        QCOMPARE(calibrated.value(QStringLiteral("argmax")).toString(), plain.value(QStringLiteral("argmax")).toString());
        QVERIFY(std::abs(calibrated.value(QStringLiteral("decision_confidence")).toDouble() - largest) < 1e-9);
        QVERIFY(std::abs(plain.value(QStringLiteral("decision_confidence")).toDouble() - *std::max_element(pbar.begin(), pbar.end()))
                < 1e-9);
        // The listed top classes carry the calibrated probabilities; the particles stay the model's.
        QVERIFY(std::abs(calibrated.value(QStringLiteral("top")).toArray().first().toObject().value(QStringLiteral("probability")).toDouble()
                         - largest)
                < 1e-12);
        QVERIFY(calibrated.value(QStringLiteral("particle_probabilities")).toArray()
                == plain.value(QStringLiteral("particle_probabilities")).toArray());

        // A defer threshold between the two confidences defers only the calibrated decision.
        const double r = 0.5 * (largest + *std::max_element(pbar.begin(), pbar.end()));
        const QStringList defer = flags + QStringList{QStringLiteral("--defer"), QString::number(r, 'g', 17)};
        QVERIFY(!predictJson(defer).value(QStringLiteral("deferred")).toBool());
        QVERIFY(predictJson(defer + QStringList{QStringLiteral("--calibrate")}).value(QStringLiteral("deferred")).toBool());

        // The text output says so.
        const QStringList args = QStringList{QStringLiteral("predict"), m_run, m_image, QStringLiteral("--calibrate")} + flags;
        const Result text = runLbd(args);
        EXPECT_EXIT(text, args, 0);
        EXPECT_MENTIONS(text.out, QStringLiteral("softmax(log pbar / T), T = 2.5"), text, args);
    }

    void perParticleRulesAreRefused()
    {
        QVERIFY(writeFile(m_run + QStringLiteral("/temperature.json"), kTemperatureFile));
        const QStringList args = {QStringLiteral("predict"), m_run, m_image, QStringLiteral("--calibrate"), QStringLiteral("--rule"),
                                  QStringLiteral("mean-logit")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("mean-logit"), result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("expected"), result, args);
    }

    // One T per particle: each particle's distribution is p_j^(1/T_j) / sum of the exact p_j (by hand), pbar their
    // mean, and every rule works (mean-logit decides from the calibrated particles). Without a
    // validation split and no file there is nothing to fit on: a clear error.
    void perParticleTemperatures()
    {
        const QStringList needs = {QStringLiteral("predict"), m_run, m_image, QStringLiteral("--per-particle")};
        const Result alone = runLbd(needs);
        EXPECT_EXIT(alone, needs, 2);
        EXPECT_MENTIONS(alone.err, QStringLiteral("option of --calibrate"), alone, needs);
        QFile::remove(m_run + QStringLiteral("/particle_temperatures.json"));
        const QStringList noSplit = needs + QStringList{QStringLiteral("--calibrate")};
        const Result refused = runLbd(noSplit);
        EXPECT_EXIT(refused, noSplit, 2);
        EXPECT_MENTIONS(refused.err, QStringLiteral("no validation split"), refused, noSplit);

        QVERIFY(writeFile(m_run + QStringLiteral("/particle_temperatures.json"), kParticleFile));
        const QStringList flags = {QStringLiteral("--rule"), QStringLiteral("mean-logit")};
        const QJsonObject plain = predictJson(flags);
        const QJsonObject calibrated = predictJson(flags + QStringList{QStringLiteral("--calibrate"), QStringLiteral("--per-particle")});
        const QJsonArray temperatures = calibrated.value(QStringLiteral("temperature")).toArray();
        QCOMPARE(temperatures.size(), 2);
        QCOMPARE(temperatures.at(1).toDouble(), 0.5);
        const QJsonArray before = plain.value(QStringLiteral("particle_probabilities")).toArray();
        const QJsonArray after = calibrated.value(QStringLiteral("particle_probabilities")).toArray();
        std::vector<double> mean(4, 0.0);
        double moved = 0.0;
        for (int j = 0; j < 2; ++j) {
            const std::vector<double> p = numbers(before.at(j));
            const std::vector<double> q = numbers(after.at(j));
            const double t = j == 0 ? 8.0 : 0.5;
            // The exact p_j, not p_j floored at 1e-12 (lbd-math.md section 9): a class at 1e-30 under
            // T = 8 is 1e-30^(1/8) = 1.8e-4 of the norm, not 1e-12^(1/8) = 0.03.
            double norm = 0.0;
            for (double v : p) {
                norm += std::pow(v, 1.0 / t);
            }
            for (size_t k = 0; k < 4; ++k) {
                const double expected = std::pow(p[k], 1.0 / t) / norm;
                QVERIFY2(std::abs(q[k] - expected) < 1e-9, qPrintable(QStringLiteral("particle %1 class %2: %3 vs %4").arg(j).arg(k).arg(q[k]).arg(expected)));
                mean[k] += 0.5 * q[k];
                moved = std::max(moved, std::abs(q[k] - p[k]));
            }
        }
        QVERIFY2(moved > 1e-4, qPrintable(QString::number(moved)));
        const std::vector<double> pbar = numbers(calibrated.value(QStringLiteral("probabilities")));
        for (size_t k = 0; k < 4; ++k) {
            QVERIFY(std::abs(pbar[k] - mean[k]) < 1e-9);
        }
        QCOMPARE(calibrated.value(QStringLiteral("rule")).toString(), QStringLiteral("mean-logit"));
    }

    // A run with a validation split: the first --per-particle fits T_1, T_2 jointly there (not on
    // the 40 test images) and keeps them; the second reads the same file.
    void perParticleTemperaturesAreFittedOnValidation()
    {
        const QString run = path(QStringLiteral("run-validation"));
        const QStringList train = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny.json")),
                                   QStringLiteral("--val-fraction"), QStringLiteral("0.25"), QStringLiteral("--out"), run,
                                   QStringLiteral("--quiet")};
        const Result trained = runLbd(train);
        EXPECT_EXIT(trained, train, 0);
        const QStringList args = {QStringLiteral("predict"), run, m_image, QStringLiteral("--calibrate"),
                                  QStringLiteral("--per-particle"), QStringLiteral("--json")};
        const Result first = runLbd(args);
        EXPECT_EXIT(first, args, 0);
        const QString file = run + QStringLiteral("/particle_temperatures.json");
        const QByteArray saved = readFile(file);
        QString error;
        const QJsonObject fit = parseJson(QString::fromUtf8(saved), &error).object();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(fit.value(QStringLiteral("fitted_on")).toString(), QStringLiteral("validation"));
        QVERIFY(fit.value(QStringLiteral("images")).toInt() > 0 && fit.value(QStringLiteral("images")).toInt() < 40);
        QCOMPARE(fit.value(QStringLiteral("fit")).toString(), QStringLiteral("joint"));
        QCOMPARE(fit.value(QStringLiteral("temperatures")).toArray().size(), 2);
        QVERIFY(fit.value(QStringLiteral("nll_after")).toDouble() <= fit.value(QStringLiteral("nll_before")).toDouble());
        const Result second = runLbd(args);
        EXPECT_EXIT(second, args, 0);
        QCOMPARE(readFile(file), saved);
        QCOMPARE(second.out, first.out);
    }

    // Issue 37: temperatures no fit gives (T = 1e308 made pbar uniform and was labelled "fitted on
    // validation"; T = 1e-320 printed NaN probabilities and still a decision) are refused before any
    // image, naming the file and the field, in JSON and text, and nothing NaN or null is printed.
    void impossibleTemperatureFilesAreRefused()
    {
        const QString single = m_run + QStringLiteral("/temperature.json");
        const QString perParticle = m_run + QStringLiteral("/particle_temperatures.json");
        const auto singleFile = [](const QString& t) {
            return QByteArray("{\"temperature\": ") + t.toUtf8()
                   + ", \"fitted_on\": \"validation\", \"images\": 10, \"nll_before\": 1.2, \"nll_after\": 1.1}\n";
        };
        const auto particleFile = [](const QString& list) {
            return QByteArray("{\"fit\": \"joint\", \"fitted_on\": \"validation\", \"images\": 10, \"nll_before\": 1.0, "
                              "\"nll_after\": 0.9, \"temperatures\": [") + list.toUtf8() + "]}\n";
        };
        struct Case {
            QString file;
            QByteArray content;
            QStringList flags;
            QString field;
        };
        const QStringList calibrate = {QStringLiteral("--calibrate")};
        const QStringList both = {QStringLiteral("--calibrate"), QStringLiteral("--per-particle")};
        const std::vector<Case> cases = {
            {single, singleFile(QStringLiteral("1e308")), calibrate, QStringLiteral("temperature.json: temperature = ")},
            {single, singleFile(QStringLiteral("1e-320")), calibrate, QStringLiteral("temperature.json: temperature = ")},
            {perParticle, particleFile(QStringLiteral("1e308, 1")), both, QStringLiteral("particle_temperatures.json: temperatures[0] = ")},
            {perParticle, particleFile(QStringLiteral("1, 1e-320")), both, QStringLiteral("particle_temperatures.json: temperatures[1] = ")},
            {perParticle, particleFile(QStringLiteral("1, 1, 1")), both, QStringLiteral("particle_temperatures.json: temperatures has 3 values")},
        };
        for (const Case& c : cases) {
            QVERIFY(writeFile(c.file, c.content));
            for (const bool json : {true, false}) {
                const QStringList args = QStringList{QStringLiteral("predict"), m_run, m_image} + c.flags
                                         + (json ? QStringList{QStringLiteral("--json")} : QStringList{});
                const Result result = runLbd(args);
                EXPECT_EXIT(result, args, 2);
                EXPECT_MENTIONS(result.err, c.field, result, args);
                QVERIFY2(!result.out.contains(QStringLiteral("nan"), Qt::CaseInsensitive)
                             && !result.out.contains(QStringLiteral("null")),
                         qPrintable(result.describe(args)));
                QVERIFY2(!result.out.contains(QStringLiteral("decision")), qPrintable(result.describe(args)));
            }
            QVERIFY(QFile::remove(c.file));
        }
    }
};

QTEST_MAIN(TestCliPredictCalibrate)
#include "test_cli_predictcalibrate.moc"
