// `lbd ood` and the out-of-distribution fields of `lbd predict`: the fit written by training is
// in every --json prediction (score, threshold, caution), a run without it says so (in the JSON
// and in the text), --fit writes it again, --measure prints the AUROC as JSON with no null or NaN
// anywhere, an ood.json with a value out of range or of the earlier format is refused naming the
// file and the field (exit 2; predict still classifies and says the caution needs a refit), and
// bad arguments are refused with the reason.
#include "tests/app/clitest.h"

#include <cmath>
#include <functional>

using namespace lbd::test;

namespace {

// Every value of the tree: no null (nlohmann writes NaN and infinity as null) and no non-finite
// number. Returns the path of the first bad value, empty when there is none.
QString firstNullOrNan(const QJsonValue& value, const QString& where)
{
    if (value.isNull() || value.isUndefined()) {
        return where;
    }
    if (value.isDouble() && !std::isfinite(value.toDouble())) {
        return where;
    }
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (int i = 0; i < array.size(); ++i) {
            const QString bad = firstNullOrNan(array.at(i), where + QStringLiteral("[%1]").arg(i));
            if (!bad.isEmpty()) {
                return bad;
            }
        }
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            const QString bad = firstNullOrNan(it.value(), where + QLatin1Char('.') + it.key());
            if (!bad.isEmpty()) {
                return bad;
            }
        }
    }
    return {};
}

} // namespace

class TestCliOod final : public CliTest {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        trainTinyRun();
        QImage colour(37, 23, QImage::Format_RGB32);
        colour.fill(QColor(200, 40, 90));
        m_image = path(QStringLiteral("colour.png"));
        QVERIFY(colour.save(m_image, "PNG"));
    }

    void predictJsonCarriesTheCheck()
    {
        QVERIFY2(!m_run.isEmpty(), qPrintable(m_trainFailure));
        QVERIFY(QFile::exists(m_run + QStringLiteral("/ood.json")));
        const QStringList args = {QStringLiteral("predict"), m_run, m_image, QStringLiteral("--json")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        QString error;
        const QJsonObject p = parseJson(result.out, &error).array().at(0).toObject();
        QVERIFY2(error.isEmpty(), qPrintable(error + result.describe(args)));
        // kTinyConfig: 16x16 grey images.
        QCOMPARE(p.value(QStringLiteral("input")).toString(),
                 QStringLiteral("colour PNG 37x23, reduced to 16x16 grey (stretched: the aspect ratio is not kept)"));
        const QJsonObject ood = p.value(QStringLiteral("ood")).toObject();
        QCOMPARE(ood.value(QStringLiteral("checked")).toBool(), true);
        QVERIFY(ood.value(QStringLiteral("caution")).isBool());
        QVERIFY(ood.value(QStringLiteral("score")).isDouble());
        QVERIFY(ood.value(QStringLiteral("threshold")).isDouble());
        QCOMPARE(ood.value(QStringLiteral("caution")).toBool(),
                 ood.value(QStringLiteral("score")).toDouble() > ood.value(QStringLiteral("threshold")).toDouble());
        QCOMPARE(ood.value(QStringLiteral("method")).toString(), QStringLiteral("mahalanobis"));
        // kTinyConfig keeps 40, 25, 15, 10 of each class's 40 images: the rest are the fit's.
        QCOMPARE(ood.value(QStringLiteral("fitted_on")).toString(), QStringLiteral("images the long-tail resampling left out"));
    }

    void withoutAFitItSaysSoThenFitWritesIt()
    {
        QVERIFY2(!m_run.isEmpty(), qPrintable(m_trainFailure));
        QVERIFY(QFile::remove(m_run + QStringLiteral("/ood.json")));
        QStringList args = {QStringLiteral("predict"), m_run, m_image, QStringLiteral("--json")};
        Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        QString error;
        const QJsonObject ood = parseJson(result.out, &error).array().at(0).toObject().value(QStringLiteral("ood")).toObject();
        QCOMPARE(ood.value(QStringLiteral("checked")).toBool(true), false);
        QVERIFY(ood.value(QStringLiteral("caution")).isNull());
        EXPECT_MENTIONS(ood.value(QStringLiteral("note")).toString(), QStringLiteral("no out-of-distribution fit"), result, args);
        EXPECT_MENTIONS(result.err, QStringLiteral("lbd ood"), result, args);

        args = QStringList{QStringLiteral("predict"), m_run, m_image};
        result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        EXPECT_MENTIONS(result.out, QStringLiteral("not checked for being unlike the training data"), result, args);

        args = QStringList{QStringLiteral("ood"), m_run, QStringLiteral("--fit")};
        result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        EXPECT_MENTIONS(result.err, QStringLiteral("written to"), result, args);
        QVERIFY(QFile::exists(m_run + QStringLiteral("/ood.json")));
        args = QStringList{QStringLiteral("predict"), m_run, m_image};
        result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        QVERIFY2(result.out.contains(QStringLiteral("CAUTION")) || result.out.contains(QStringLiteral("familiar: like the run's")),
                 qPrintable(result.describe(args)));
    }

    void measurePrintsTheAuroc()
    {
        QVERIFY2(!m_run.isEmpty(), qPrintable(m_trainFailure));
        const QString folder = path(QStringLiteral("foreign"));
        QDir().mkpath(folder + QStringLiteral("/sub"));
        for (int i = 0; i < 6; ++i) {
            QImage image(20 + i, 30, QImage::Format_RGB32);
            image.fill(QColor(40 * i, 255 - 30 * i, 90));
            QVERIFY(image.save(folder + QStringLiteral("/sub/%1.png").arg(i)));
        }
        const QStringList args = {QStringLiteral("ood"), m_run, QStringLiteral("--measure"), QStringLiteral("--ood-folder"), folder,
                                  QStringLiteral("--noise"), QStringLiteral("30")};
        const Result result = runLbd(args);
        EXPECT_EXIT(result, args, 0);
        QString error;
        const QJsonObject report = parseJson(result.out, &error).object();
        QVERIFY2(error.isEmpty(), qPrintable(error + result.describe(args)));
        const QJsonArray sets = report.value(QStringLiteral("out_of_distribution")).toArray();
        QCOMPARE(sets.size(), 2);
        QCOMPARE(sets.at(0).toObject().value(QStringLiteral("images")).toInt(), 6);
        QCOMPARE(sets.at(1).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("uniform noise"));
        for (const auto& set : sets) {
            const QJsonObject auroc = set.toObject().value(QStringLiteral("auroc")).toObject();
            for (const QString& method : {QStringLiteral("mahalanobis"), QStringLiteral("energy")}) {
                const double value = auroc.value(method).toDouble(-1);
                QVERIFY2(value >= 0.0 && value <= 1.0, qPrintable(result.describe(args)));
            }
        }
        QCOMPARE(report.value(QStringLiteral("in_distribution")).toObject().value(QStringLiteral("images")).toInt(), 40);
        const QString bad = firstNullOrNan(report, QStringLiteral("output"));
        QVERIFY2(bad.isEmpty(), qPrintable(bad + QStringLiteral(" is null or not finite\n") + result.out));
    }

    void outOfRangeFitIsRefusedNamingTheField()
    {
        QVERIFY2(!m_run.isEmpty(), qPrintable(m_trainFailure));
        const QString file = m_run + QStringLiteral("/ood.json");
        QVERIFY(runLbd({QStringLiteral("ood"), m_run, QStringLiteral("--fit")}).code == 0);
        const QByteArray good = readFile(file);
        const QJsonObject fit = QJsonDocument::fromJson(good).object();
        QVERIFY(fit.value(QStringLiteral("mahalanobis")).isObject());
        const auto withChange = [&fit](const std::function<void(QJsonObject&)>& change) {
            QJsonObject copy = fit;
            change(copy);
            return QJsonDocument(copy).toJson(QJsonDocument::Compact);
        };
        const auto firstSpace = [](QJsonObject& f, const std::function<void(QJsonObject&)>& change) {
            QJsonObject m = f.value(QStringLiteral("mahalanobis")).toObject();
            QJsonArray spaces = m.value(QStringLiteral("spaces")).toArray();
            QJsonObject space = spaces.at(0).toObject();
            change(space);
            spaces[0] = space;
            m[QStringLiteral("spaces")] = spaces;
            f[QStringLiteral("mahalanobis")] = m;
        };
        const QList<QPair<QString, QByteArray>> cases = {
            {QStringLiteral("pass_rate"), withChange([](QJsonObject& f) { f[QStringLiteral("pass_rate")] = 1.5; })},
            {QStringLiteral("held_out.per_class"),
             withChange([](QJsonObject& f) {
                 QJsonObject h = f.value(QStringLiteral("held_out")).toObject();
                 h[QStringLiteral("per_class")] = QJsonArray{1, 2, 3};
                 f[QStringLiteral("held_out")] = h;
             })},
            {QStringLiteral("mahalanobis.threshold"), withChange([](QJsonObject& f) {
                 QJsonObject m = f.value(QStringLiteral("mahalanobis")).toObject();
                 m[QStringLiteral("threshold")] = -1;
                 f[QStringLiteral("mahalanobis")] = m;
             })},
            {QStringLiteral("mahalanobis.spaces[0].scale"),
             withChange([&](QJsonObject& f) { firstSpace(f, [](QJsonObject& s) { s[QStringLiteral("scale")] = 0; }); })},
            {QStringLiteral("mahalanobis.spaces[0].stage"),
             withChange([&](QJsonObject& f) { firstSpace(f, [](QJsonObject& s) { s[QStringLiteral("stage")] = 9; }); })},
            // The precision negated: symmetric, but not positive definite.
            {QStringLiteral("mahalanobis.spaces[0].precision"), withChange([&](QJsonObject& f) {
                 firstSpace(f, [](QJsonObject& s) {
                     QJsonArray p = s.value(QStringLiteral("precision")).toArray();
                     for (auto&& v : p) {
                         v = -v.toDouble();
                     }
                     s[QStringLiteral("precision")] = p;
                 });
             })},
            {QStringLiteral("energy.threshold"), QByteArray(good).replace("\"energy\":{\"threshold\":", "\"energy\":{\"threshold\":\"x\",\"was\":")},
        };
        for (const auto& [field, bytes] : cases) {
            QVERIFY(writeFile(file, bytes));
            const QStringList args = {QStringLiteral("ood"), m_run, QStringLiteral("--measure"), QStringLiteral("--noise"), QStringLiteral("5")};
            const Result result = runLbd(args);
            EXPECT_EXIT(result, args, 2);
            EXPECT_MENTIONS(result.err, file, result, args);
            EXPECT_MENTIONS(result.err, field, result, args);
            // predict still classifies, and says why the caution is off.
            const QStringList predict = {QStringLiteral("predict"), m_run, m_image, QStringLiteral("--json")};
            const Result p = runLbd(predict);
            EXPECT_EXIT(p, predict, 0);
            QString error;
            const QJsonObject ood = parseJson(p.out, &error).array().at(0).toObject().value(QStringLiteral("ood")).toObject();
            QCOMPARE(ood.value(QStringLiteral("checked")).toBool(true), false);
            EXPECT_MENTIONS(ood.value(QStringLiteral("note")).toString(), field, p, predict);
        }
        // The earlier format (fitted on training images): refused with the command that refits it.
        QVERIFY(writeFile(file, R"({"format": "lbd-ood-1", "method": "mahalanobis"})"));
        const QStringList predict = {QStringLiteral("predict"), m_run, m_image};
        const Result p = runLbd(predict);
        EXPECT_EXIT(p, predict, 0);
        EXPECT_MENTIONS(p.out + p.err, QStringLiteral("lbd ood"), p, predict);
        EXPECT_MENTIONS(p.out + p.err, QStringLiteral("earlier version"), p, predict);
        QVERIFY(runLbd({QStringLiteral("ood"), m_run, QStringLiteral("--fit")}).code == 0);
    }

    void badArgumentsAreRefused()
    {
        QVERIFY2(!m_run.isEmpty(), qPrintable(m_trainFailure));
        QStringList args = {QStringLiteral("ood"), m_run};
        Result result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("--fit"), result, args);
        args = QStringList{QStringLiteral("ood"), m_run, QStringLiteral("--measure")};
        result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("--ood-folder"), result, args);
        const QString empty = path(QStringLiteral("empty"));
        QDir().mkpath(empty);
        args = QStringList{QStringLiteral("ood"), m_run, QStringLiteral("--measure"), QStringLiteral("--ood-folder"), empty};
        result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, empty, result, args);
        args = QStringList{QStringLiteral("ood"), path(QStringLiteral("no-such-run")), QStringLiteral("--fit")};
        result = runLbd(args);
        EXPECT_EXIT(result, args, 2);
        EXPECT_MENTIONS(result.err, QStringLiteral("no-such-run"), result, args);
    }

private:
    QString m_image;
};

QTEST_APPLESS_MAIN(TestCliOod)
#include "test_cli_ood.moc"
