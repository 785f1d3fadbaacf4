// `lbd eval --calibrate` (temperature scaling fitted on the validation split, never on the test
// set), the calibration metrics in report.json, and the logit-adjustment preset prior:tau with
// `--tune prior-tau` (issue 29); `--calibrate --per-particle` (one T_j per particle, also fitted
// on the validation split) beside the single T.
#include "tests/app/clitest.h"

#include <cmath>

using namespace lbd::test;

class TestCliCalibrate final : public CliTest {
    Q_OBJECT

    QString m_validationRun; // the tiny run with a validation split
    QString m_oneParticleRun; // the same with M = 1, where per-particle T_1 = T must be the single T exactly

    QJsonObject evalJson(const QStringList& flags, const QString& run = {})
    {
        const QStringList args =
            QStringList{QStringLiteral("eval"), run.isEmpty() ? m_validationRun : run, QStringLiteral("--json")} + flags;
        const Result result = runLbd(args);
        [&] { EXPECT_EXIT(result, args, 0); }();
        QString error;
        const QJsonObject report = parseJson(result.out, &error).object();
        if (!error.isEmpty()) {
            QTest::qFail(qPrintable(error + result.describe(args)), __FILE__, __LINE__);
        }
        return report;
    }

private slots:
    void initTestCase()
    {
        trainTinyRun();
        QVERIFY2(!m_run.isEmpty(), qPrintable(m_trainFailure));
        m_validationRun = path(QStringLiteral("run-validation"));
        const QStringList args = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny.json")),
                                  QStringLiteral("--val-fraction"), QStringLiteral("0.25"), QStringLiteral("--out"),
                                  m_validationRun, QStringLiteral("--quiet")};
        const Result trained = runLbd(args);
        EXPECT_EXIT(trained, args, 0);
        QVERIFY(QFileInfo(m_validationRun + QStringLiteral("/val_probabilities.pt")).isFile());
        m_oneParticleRun = path(QStringLiteral("run-one-particle"));
        const QStringList one = {QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("tiny.json")),
                                 QStringLiteral("--val-fraction"), QStringLiteral("0.25"), QStringLiteral("--particles"),
                                 QStringLiteral("1"), QStringLiteral("--out"), m_oneParticleRun, QStringLiteral("--quiet")};
        const Result trainedOne = runLbd(one);
        EXPECT_EXIT(trainedOne, one, 0);
    }

    void calibrationMetricsInEveryReport()
    {
        const QJsonObject report = evalJson({});
        const QJsonObject metrics = report.value(QStringLiteral("calibration_metrics")).toObject();
        const double brier = metrics.value(QStringLiteral("brier")).toDouble(-1);
        QVERIFY2(brier >= 0.0 && brier <= 2.0, qPrintable(QString::number(brier)));
        const QJsonObject interval = metrics.value(QStringLiteral("ece_interval")).toObject();
        QVERIFY(interval.value(QStringLiteral("low")).toDouble(-1) <= interval.value(QStringLiteral("high")).toDouble(-2));
        QCOMPARE(interval.value(QStringLiteral("resamples")).toInt(), 1000);
        QVERIFY(metrics.value(QStringLiteral("classwise_ece")).toDouble(-1) >= 0.0);
        QVERIFY(metrics.value(QStringLiteral("adaptive_ece")).toDouble(-1) >= 0.0);
        QVERIFY(!report.contains(QStringLiteral("temperature"))); // not calibrated unless asked
    }

    // Without a validation split there is nothing to fit T on: a clear error, and no file.
    void calibrateNeedsValidation()
    {
        const QStringList args = {QStringLiteral("eval"), m_run, QStringLiteral("--calibrate")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("no validation split"), result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("never fitted on the test set"), result, args);
        QVERIFY(!QFileInfo::exists(m_run + QStringLiteral("/temperature.json")));
    }

    void calibrateFitsOnValidationAndReportsBeforeAfter()
    {
        const QString file = m_validationRun + QStringLiteral("/temperature.json");
        QFile::remove(file);
        const QJsonObject report = evalJson({QStringLiteral("--calibrate"), QStringLiteral("--rule"), QStringLiteral("argmax")});
        const QJsonObject fit = report.value(QStringLiteral("temperature_fit")).toObject();
        QCOMPARE(fit.value(QStringLiteral("fitted_on")).toString(), QStringLiteral("validation"));
        QVERIFY(fit.value(QStringLiteral("images")).toInt() > 0);
        QVERIFY(fit.value(QStringLiteral("images")).toInt() < 40); // the validation split, not the 40 test images
        const double t = fit.value(QStringLiteral("temperature")).toDouble(-1);
        QVERIFY2(t > 0.0, qPrintable(QString::number(t)));
        QVERIFY(fit.value(QStringLiteral("nll_after")).toDouble() <= fit.value(QStringLiteral("nll_before")).toDouble() + 1e-12);
        QVERIFY(QFileInfo(file).isFile());
        QCOMPARE(report.value(QStringLiteral("temperature")).toObject().value(QStringLiteral("value")).toDouble(), t);
        // Argmax decisions do not change with T; the uncalibrated summary is the report without it.
        const QJsonObject before = report.value(QStringLiteral("uncalibrated")).toObject();
        const QJsonObject plain = evalJson({QStringLiteral("--rule"), QStringLiteral("argmax")});
        QCOMPARE(before.value(QStringLiteral("nll")).toDouble(), plain.value(QStringLiteral("nll")).toDouble());
        QCOMPARE(before.value(QStringLiteral("ece")).toDouble(),
                 plain.value(QStringLiteral("calibration")).toObject().value(QStringLiteral("ece")).toDouble());
        QCOMPARE(report.value(QStringLiteral("accuracy")).toObject().value(QStringLiteral("accuracy")).toDouble(),
                 plain.value(QStringLiteral("accuracy")).toObject().value(QStringLiteral("accuracy")).toDouble());

        // The second time reads the saved T; the text output says before / after.
        const QByteArray saved = readFile(file);
        const QStringList args = {QStringLiteral("eval"), m_validationRun, QStringLiteral("--calibrate")};
        const Result text = runLbd(args);
        EXPECT_EXIT(text, args, 0);
        EXPECT_MENTIONS(text.out, QStringLiteral("before / after"), text, args);
        EXPECT_MENTIONS(text.out, QStringLiteral("softmax(log pbar / T)"), text, args);
        QCOMPARE(readFile(file), saved);

        const QStringList meanLogit = {QStringLiteral("eval"), m_validationRun, QStringLiteral("--calibrate"),
                                       QStringLiteral("--rule"), QStringLiteral("mean-logit")};
        const Result refused = runLbd(meanLogit);
        EXPECT_EXIT(refused, meanLogit, 2);
        EXPECT_MENTIONS(refused.err, QStringLiteral("use expected or argmax"), refused, meanLogit);
    }

    static double number(const QJsonObject& report, const QString& pathText)
    {
        QJsonValue value = report;
        for (const QString& key : pathText.split(QLatin1Char('.'))) {
            value = value.toObject().value(key);
        }
        return value.toDouble(-1.0);
    }

    // particle_temperatures.json as a joint fit writes it.
    static QByteArray particleFile(const QStringList& temperatures)
    {
        return "{\"fit\": \"joint\", \"fitted_on\": \"validation\", \"images\": 10, \"nll_before\": 1.0, "
               "\"nll_after\": 0.9, \"temperatures\": [" + temperatures.join(QStringLiteral(", ")).toUtf8() + "]}\n";
    }

    // With one particle, per-particle calibration with T_1 = the single T decides exactly as the
    // single T (the same order of the same numbers), and its calibration figures agree to 1e-6. Not
    // to the last bit: the single T's path (unchanged) floors pbar at 1e-12 before the log, the
    // per-particle path reads the exact log p (lbd-math.md section 9), and this tiny run gives
    // some classes p = 0. With M > 1 they differ by design: the mean of softmax(log p_j / T) is not
    // softmax(log pbar / T).
    void perParticleWithOneParticleEqualsSingleT()
    {
        QFile::remove(m_oneParticleRun + QStringLiteral("/temperature.json"));
        const QStringList expected = {QStringLiteral("--calibrate"), QStringLiteral("--rule"), QStringLiteral("expected")};
        const QJsonObject singleT = evalJson(expected, m_oneParticleRun);
        const double t = number(singleT, QStringLiteral("temperature_fit.temperature"));
        QVERIFY2(t > 0.0 && std::abs(t - 1.0) > 1e-3, qPrintable(QString::number(t, 'g', 17))); // T = 1 would prove nothing
        QVERIFY(writeFile(m_oneParticleRun + QStringLiteral("/particle_temperatures.json"),
                          particleFile({QString::number(t, 'g', 17)})));
        const QJsonObject perParticle = evalJson(expected + QStringList{QStringLiteral("--per-particle")}, m_oneParticleRun);
        for (const QString& key : {QStringLiteral("accuracy.accuracy"), QStringLiteral("mean_utility"),
                                   QStringLiteral("uncalibrated.nll")}) {
            QVERIFY2(number(perParticle, key) == number(singleT, key),
                     qPrintable(key + QStringLiteral(": per-particle %1, single T %2")
                                          .arg(number(perParticle, key), 0, 'g', 17).arg(number(singleT, key), 0, 'g', 17)));
        }
        for (const QString& key : {QStringLiteral("calibration.ece"), QStringLiteral("calibration.mce"),
                                   QStringLiteral("calibration_metrics.brier")}) {
            QVERIFY2(std::abs(number(perParticle, key) - number(singleT, key)) <= 1e-6,
                     qPrintable(key + QStringLiteral(": per-particle %1, single T %2")
                                          .arg(number(perParticle, key), 0, 'g', 17).arg(number(singleT, key), 0, 'g', 17)));
        }
        QCOMPARE(perParticle.value(QStringLiteral("confusion")), singleT.value(QStringLiteral("confusion")));
        QVERIFY(number(perParticle, QStringLiteral("nll")) != number(perParticle, QStringLiteral("uncalibrated.nll")));
        // The single T's figures beside it are those of the single-T report.
        QCOMPARE(number(perParticle, QStringLiteral("single_temperature.nll")), number(singleT, QStringLiteral("nll")));
        QCOMPARE(number(perParticle, QStringLiteral("single_temperature.temperature")), t);
    }

    // T_1, T_2 fitted jointly on validation (not the 40 test images), lowering the validation NLL
    // of the calibrated mean below every T_j = 1's (the fit's objective); the report holds before,
    // per-particle and single T.
    void perParticleFitsOnValidationAndReportsBoth()
    {
        const QString file = m_validationRun + QStringLiteral("/particle_temperatures.json");
        QFile::remove(file);
        const QJsonObject report = evalJson({QStringLiteral("--calibrate"), QStringLiteral("--per-particle")});
        QVERIFY(QFileInfo(file).isFile());
        const QJsonObject fit = report.value(QStringLiteral("particle_temperature_fit")).toObject();
        QCOMPARE(fit.value(QStringLiteral("fitted_on")).toString(), QStringLiteral("validation"));
        QCOMPARE(fit.value(QStringLiteral("fit")).toString(), QStringLiteral("joint"));
        QVERIFY(fit.value(QStringLiteral("images")).toInt() > 0);
        QVERIFY(fit.value(QStringLiteral("images")).toInt() < 40);
        const QJsonArray temperatures = fit.value(QStringLiteral("temperatures")).toArray();
        QCOMPARE(temperatures.size(), 2);
        for (const auto& t : temperatures) {
            QVERIFY2(t.toDouble() >= 0.05 && t.toDouble() <= 20.0, qPrintable(QString::number(t.toDouble())));
        }
        const double before = fit.value(QStringLiteral("nll_before")).toDouble(-1);
        const double after = fit.value(QStringLiteral("nll_after")).toDouble(-1);
        QVERIFY2(after >= 0.0 && after < before, qPrintable(QStringLiteral("NLL %1 at T_j, %2 at T = 1").arg(after).arg(before)));
        QCOMPARE(report.value(QStringLiteral("particle_temperatures")).toObject().value(QStringLiteral("values")).toArray(),
                 temperatures);
        // Both calibrations and the model's own figures, on the 40 test images.
        QCOMPARE(report.value(QStringLiteral("images")).toInt(), 40);
        for (const QString& key : {QStringLiteral("uncalibrated.nll"), QStringLiteral("uncalibrated.calibration_metrics.brier"),
                                   QStringLiteral("single_temperature.nll"), QStringLiteral("single_temperature.ece"),
                                   QStringLiteral("single_temperature.calibration_metrics.brier"),
                                   QStringLiteral("single_temperature.accuracy"), QStringLiteral("temperature_fit.temperature"),
                                   QStringLiteral("nll"), QStringLiteral("calibration_metrics.brier")}) {
            QVERIFY2(number(report, key) >= 0.0, qPrintable(key));
        }
        QVERIFY(!report.contains(QStringLiteral("temperature"))); // one T per particle, not one on pbar

        // The second time reads the saved T_j; the text says before / after for both.
        const QByteArray saved = readFile(file);
        const QStringList args = {QStringLiteral("eval"), m_validationRun, QStringLiteral("--calibrate"),
                                  QStringLiteral("--per-particle")};
        const Result text = runLbd(args);
        EXPECT_EXIT(text, args, 0);
        EXPECT_MENTIONS(text.out, QStringLiteral("per-particle T  T_j = "), text, args);
        EXPECT_MENTIONS(text.out, QStringLiteral("single T        T = "), text, args);
        QCOMPARE(text.out.count("before / after"), 2);
        QCOMPARE(readFile(file), saved);

        // Every rule decides per-particle calibrated particles; one T on pbar has no mean-logit figures.
        const QJsonObject meanLogit = evalJson({QStringLiteral("--calibrate"), QStringLiteral("--per-particle"),
                                                QStringLiteral("--rule"), QStringLiteral("mean-logit")});
        QVERIFY(meanLogit.value(QStringLiteral("single_temperature")).isNull());
        QVERIFY(number(meanLogit, QStringLiteral("nll")) >= 0.0);
    }

    // T_j = 1 for every particle changes nothing; a file with the wrong count and the flag
    // without --calibrate are refused by name.
    void perParticleIdentityAndErrors()
    {
        const QString file = m_validationRun + QStringLiteral("/particle_temperatures.json");
        QVERIFY(writeFile(file, particleFile({QStringLiteral("1"), QStringLiteral("1")})));
        const QJsonObject ones = evalJson({QStringLiteral("--calibrate"), QStringLiteral("--per-particle")});
        // Within 1e-6, not exactly: the scaling renormalises in double and the results are stored
        // as float again.
        for (const QString& key : {QStringLiteral("nll"), QStringLiteral("ece")}) {
            const double after = number(ones, key == QStringLiteral("ece") ? QStringLiteral("calibration.ece") : key);
            const double before = number(ones, QStringLiteral("uncalibrated.") + key);
            QVERIFY2(std::abs(after - before) <= 1e-6 * std::max(1.0, before),
                     qPrintable(key + QStringLiteral(": %1 at T_j = 1, %2 uncalibrated").arg(after, 0, 'g', 17).arg(before, 0, 'g', 17)));
        }
        QCOMPARE(number(ones, QStringLiteral("accuracy.accuracy")), number(ones, QStringLiteral("uncalibrated.accuracy")));

        QVERIFY(writeFile(file, particleFile({QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3")})));
        const QStringList wrong = {QStringLiteral("eval"), m_validationRun, QStringLiteral("--calibrate"),
                                   QStringLiteral("--per-particle")};
        const Result refused = runLbd(wrong);
        EXPECT_EXIT(refused, wrong, 2);
        EXPECT_MENTIONS(refused.err, QStringLiteral("particle_temperatures.json: temperatures has 3 values for the run's 2 particles"),
                        refused, wrong);
        QFile::remove(file);

        const QStringList alone = {QStringLiteral("eval"), m_validationRun, QStringLiteral("--per-particle")};
        const Result needsCalibrate = runLbd(alone);
        EXPECT_EXIT(needsCalibrate, alone, 2);
        EXPECT_MENTIONS(needsCalibrate.err, QStringLiteral("option of --calibrate"), needsCalibrate, alone);
    }

    // prior:0 is one-hot; --tune prior-tau picks tau on validation and reports the test split.
    void priorTau()
    {
        const QJsonObject oneHot = evalJson({QStringLiteral("--utility"), QStringLiteral("onehot")});
        const QJsonObject prior0 = evalJson({QStringLiteral("--utility"), QStringLiteral("prior:0")});
        QCOMPARE(prior0.value(QStringLiteral("utility")).toString(), QStringLiteral("prior:0"));
        QCOMPARE(prior0.value(QStringLiteral("confusion")), oneHot.value(QStringLiteral("confusion")));
        const QJsonObject tuned = evalJson({QStringLiteral("--tune"), QStringLiteral("prior-tau")});
        const QJsonObject tuning = tuned.value(QStringLiteral("tuning")).toObject();
        QCOMPARE(tuning.value(QStringLiteral("what")).toString(), QStringLiteral("prior-tau"));
        QVERIFY(tuning.value(QStringLiteral("candidates")).toArray().size() > 1);
        QVERIFY(tuned.value(QStringLiteral("utility")).toString().startsWith(QStringLiteral("prior:")));
        QCOMPARE(tuned.value(QStringLiteral("images")).toInt(), 40);

        const QStringList bad = {QStringLiteral("eval"), m_validationRun, QStringLiteral("--utility"), QStringLiteral("prior:x")};
        const Result refused = runLbd(bad);
        EXPECT_EXIT(refused, bad, 2);
        EXPECT_MENTIONS(refused.err, QStringLiteral("prior:"), refused, bad);

        // prior:tau with eq7 would do the opposite of logit adjustment (vector H): refused, with the
        // reason, by eval (--utility and --tune) and predict.
        const QStringList withEq7[] = {
            {QStringLiteral("eval"), m_validationRun, QStringLiteral("--utility"), QStringLiteral("prior:1"), QStringLiteral("--rule"), QStringLiteral("eq7")},
            {QStringLiteral("eval"), m_validationRun, QStringLiteral("--tune"), QStringLiteral("prior-tau"), QStringLiteral("--rule"), QStringLiteral("eq7")},
            {QStringLiteral("predict"), m_validationRun, path(QStringLiteral("none.png")), QStringLiteral("--utility"), QStringLiteral("prior:1"),
             QStringLiteral("--rule"), QStringLiteral("eq7")},
        };
        for (const QStringList& args : withEq7) {
            const Result eq7 = runLbd(args);
            EXPECT_EXIT(eq7, args, 2);
            EXPECT_MENTIONS(eq7.err, QStringLiteral("head class wins"), eq7, args);
            EXPECT_MENTIONS(eq7.err, QStringLiteral("vector H"), eq7, args);
        }
    }

    // Issue 37: temperature files holding what no fit gives are refused naming the file and the
    // field, for the JSON and the text report, and no NaN, null or 0.0 ECE is printed from them.
    void impossibleTemperatureFilesAreRefused()
    {
        const QString single = m_validationRun + QStringLiteral("/temperature.json");
        const QString perParticle = m_validationRun + QStringLiteral("/particle_temperatures.json");
        const QByteArray savedSingle = readFile(single);
        const auto singleFile = [](const QString& t) {
            return QByteArray("{\"temperature\": ") + t.toUtf8()
                   + ", \"fitted_on\": \"validation\", \"images\": 10, \"nll_before\": 1.2, \"nll_after\": 1.1}\n";
        };
        struct Case {
            QString file;
            QByteArray content;
            QString field;
        };
        const std::vector<Case> cases = {
            {single, singleFile(QStringLiteral("1e308")), QStringLiteral("temperature.json: temperature = ")},
            {single, singleFile(QStringLiteral("1e-320")), QStringLiteral("temperature.json: temperature = ")},
            {perParticle, particleFile({QStringLiteral("1e308"), QStringLiteral("1")}), QStringLiteral("particle_temperatures.json: temperatures[0] = ")},
            {perParticle, particleFile({QStringLiteral("1"), QStringLiteral("1e-320")}), QStringLiteral("particle_temperatures.json: temperatures[1] = ")},
        };
        for (const Case& c : cases) {
            QVERIFY(writeFile(c.file, c.content));
            for (const bool json : {true, false}) {
                const QStringList args = QStringList{QStringLiteral("eval"), m_validationRun, QStringLiteral("--calibrate")}
                                         + (c.file == perParticle ? QStringList{QStringLiteral("--per-particle")} : QStringList{})
                                         + (json ? QStringList{QStringLiteral("--json")} : QStringList{});
                const Result result = runLbd(args);
                EXPECT_EXIT(result, args, 2);
                EXPECT_MENTIONS(result.err, c.field, result, args);
                EXPECT_MENTIONS(result.err, QStringLiteral("[0.05, 20]"), result, args);
                QVERIFY2(!result.out.contains(QStringLiteral("nan"), Qt::CaseInsensitive)
                             && !result.out.contains(QStringLiteral("null")) && !result.out.contains(QStringLiteral("ECE")),
                         qPrintable(result.describe(args)));
            }
            QVERIFY(QFile::remove(c.file));
        }
        if (!savedSingle.isEmpty()) {
            QVERIFY(writeFile(single, savedSingle));
        }
    }
};

QTEST_APPLESS_MAIN(TestCliCalibrate)
#include "test_cli_calibrate.moc"
