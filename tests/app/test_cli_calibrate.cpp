// `lbd eval --calibrate` (temperature scaling fitted on the validation split, never on the test
// set), the calibration metrics in report.json, and the logit-adjustment preset prior:tau with
// `--tune prior-tau` (issue 29).
#include "tests/app/clitest.h"

using namespace lbd::test;

class TestCliCalibrate final : public CliTest {
    Q_OBJECT

    QString m_validationRun; // the tiny run with a validation split

    QJsonObject evalJson(const QStringList& flags)
    {
        const QStringList args = QStringList{QStringLiteral("eval"), m_validationRun, QStringLiteral("--json")} + flags;
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
    }
};

QTEST_APPLESS_MAIN(TestCliCalibrate)
#include "test_cli_calibrate.moc"
