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
};

QTEST_MAIN(TestCliPredictCalibrate)
#include "test_cli_predictcalibrate.moc"
