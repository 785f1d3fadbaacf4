// `lbd predict` and `lbd export`: classifying image files with a run, and its weights for Python.
#include "tests/app/clitest.h"

using namespace lbd::test;

class TestCliPredict final : public CliTest {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        trainTinyRun();
    }

    void predictTextFile()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QString notes = path(QStringLiteral("notes.txt"));
        QVERIFY(writeFile(notes, "These are notes, not an image.\n"));
        const QStringList args = {QStringLiteral("predict"), m_run, notes};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, notes, result, args);
    }

    void predictMissingImage()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QString missing = path(QStringLiteral("gone.png"));
        const QStringList args = {QStringLiteral("predict"), m_run, missing};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, missing, result, args);
    }

    void predictPng()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        // One image in the run's own format, one that must be converted (colour, another size).
        QImage gray(16, 16, QImage::Format_Grayscale8);
        for (int y = 0; y < gray.height(); ++y) {
            for (int x = 0; x < gray.width(); ++x) {
                gray.setPixel(x, y, qRgb(x * 16, x * 16, x * 16));
            }
        }
        QImage colour(37, 23, QImage::Format_RGB32);
        colour.fill(QColor(200, 40, 90));
        const QString grayPath = path(QStringLiteral("gray.png"));
        const QString colourPath = path(QStringLiteral("colour.png"));
        QVERIFY(gray.save(grayPath, "PNG"));
        QVERIFY(colour.save(colourPath, "PNG"));

        const QStringList args = {QStringLiteral("predict"), m_run, grayPath, colourPath, QStringLiteral("--json")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        QString error;
        const QJsonArray predictions = parseJson(result.out, &error).array();
        QVERIFY2(error.isEmpty(), qPrintable(error + QLatin1Char('\n') + result.describe(args)));
        QCOMPARE(predictions.size(), 2);
        for (const auto& value : predictions) {
            const QJsonObject prediction = value.toObject();
            QVERIFY2(!prediction.contains(QStringLiteral("error")), qPrintable(result.describe(args)));
            const QJsonArray probabilities = prediction.value(QStringLiteral("probabilities")).toArray();
            QCOMPARE(probabilities.size(), 4);
            double sum = 0;
            for (const auto& p : probabilities) {
                QVERIFY(p.toDouble(-1) >= 0.0 && p.toDouble(-1) <= 1.0);
                sum += p.toDouble();
            }
            QVERIFY2(std::abs(sum - 1.0) < 1e-4, qPrintable(QString::number(sum, 'g', 10)));
            const QJsonArray particles = prediction.value(QStringLiteral("particle_probabilities")).toArray();
            QCOMPARE(particles.size(), 2);
            for (const auto& particle : particles) {
                double particleSum = 0;
                for (const auto& p : particle.toArray()) {
                    particleSum += p.toDouble();
                }
                QVERIFY(std::abs(particleSum - 1.0) < 1e-4);
            }
            QVERIFY(!prediction.value(QStringLiteral("decision")).toString().isEmpty());
            const double epistemic = prediction.value(QStringLiteral("epistemic")).toDouble(-1);
            QVERIFY(epistemic >= -1e-6);
        }
    }

    void exportWeights()
    {
        QVERIFY2(!m_run.isEmpty(), "no tiny run (see tinyRunTrained)");
        const QString weights = path(QStringLiteral("w.pt"));
        const QStringList args = {QStringLiteral("export"), m_run, QStringLiteral("--out"), weights};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        EXPECT_MENTIONS(result.out, weights, result, args);
        const QByteArray bytes = readFile(weights);
        QVERIFY2(bytes.size() > 1000, qPrintable(QString::number(bytes.size())));
        QVERIFY2(bytes.startsWith("PK"), "not a zip archive as torch.load reads"); // torch's zip container

        const QStringList noOut = {QStringLiteral("export"), m_run};
        const Result usage = runLbd(noOut);
        EXPECT_EXIT(usage, noOut, 2);
        EXPECT_MENTIONS(usage.err, QStringLiteral("--out"), usage, noOut);
    }
};

QTEST_APPLESS_MAIN(TestCliPredict)
#include "test_cli_predict.moc"
