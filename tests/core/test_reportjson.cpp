// report.json as its readers take it (reportFromFile: the runs list, lbd diff, --reuse-from): every
// field of the wrong JSON type is an InputError naming the file and the field's path
// ("RUN/report.json: field evaluation.per_class[1].total must be an integer (found a number)"),
// never the JSON library's exception; a complete report reads back as it was written.
#include "core/eval/reportjson.h"
#include "core/util/error.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <string>

using namespace lbd;
using nlohmann::json;

namespace {

const std::string kFile = "RUN/report.json";

RegionAccuracies regions(RegionScheme scheme)
{
    RegionAccuracies out;
    out.scheme = scheme;
    for (int r = 0; r < 3; ++r) {
        out.regions.push_back({static_cast<Region>(r), regionName(static_cast<Region>(r), scheme), {r, 4, r / 4.0}});
    }
    return out;
}

CalibrationReport calibration()
{
    return {{{0.0, 0.5, 3, 0.25, 0.4}, {0.5, 1.0, 5, 0.8, 0.7}}, 8, 0.1, 0.2};
}

// Every section a report can have, so that every reader of a section is reached.
EvaluationReport fullReport()
{
    EvaluationReport report;
    report.rule = DecisionRule::Expected;
    report.classCount = 2;
    report.imageCount = 8;
    report.particleCount = 2;
    report.overall = {5, 8, 0.625};
    report.regionsThirds = regions(RegionScheme::ThirdsByIndex);
    report.regionsCounts = regions(RegionScheme::ByTrainCount);
    report.perClass = {{3, 4, 0.75}, {2, 4, 0.5}};
    report.confusion = {{3, 1}, {2, 2}};
    report.fhrCurve = {{1, 2, 4, 0.5}};
    report.fhrPoints = {{0.5, {1, 2, 4, 0.5}}};
    report.fhrConvention = "k head classes";
    report.fhrCurveMean = 0.5;
    report.fhrPointsMean = 0.5;
    report.calibration = calibration();
    report.regionCalibration = {{Region::Head, "head", calibration()}};
    report.aurocConfidence = 0.7;
    report.nll = 0.9;
    report.calibrationMetrics = CalibrationMetrics{0.3, 0.1, 0.12, 0.05, 0.2, 200, 7};
    report.temperature = 1.5;
    report.uncalibrated = UncalibratedSummary{0.6, 1.1, 0.2, 0.3, CalibrationMetrics{0.3, 0.1, 0.12, 0.05, 0.2, 200, 7}};
    report.published = PublishedMetrics{0.625, 0.11, 0.66, 1, calibration().bins};
    report.meanUtility = 0.625;
    report.riskCoverage = {{0.5, 1.0}, {0.25, 0.375}, 8, 0.3};
    report.riskCoverageTail = {{1.0}, {0.5}, 4, 0.5};
    report.defer = DeferReport{0.2, 2, 6, 0.75, {5, 6, 5 / 6.0}, regions(RegionScheme::ThirdsByIndex)};
    report.warnings = {"a warning"};
    return report;
}

json fullFile()
{
    return {{"evaluation", reportToJson(fullReport())}, {"train_seconds", 3.0}};
}

// "/evaluation/per_class/1/total" -> "evaluation.per_class[1].total": how the messages name it.
std::string fieldPath(const std::string& pointer)
{
    std::string path;
    size_t start = 1;
    while (start <= pointer.size()) {
        const size_t end = std::min(pointer.find('/', start), pointer.size());
        const std::string part = pointer.substr(start, end - start);
        const bool index = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
        path += index ? "[" + part + "]" : (path.empty() ? "" : ".") + part;
        start = end + 1;
    }
    return path;
}

QString errorOf(const json& file)
{
    try {
        reportFromFile(file, kFile);
    } catch (const InputError& error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

} // namespace

class TestReportJson : public QObject {
    Q_OBJECT

private slots:
    void aFullReportReadsBackAsWritten()
    {
        const EvaluationReport read = reportFromFile(fullFile(), kFile);
        QCOMPARE(reportToJson(read), reportToJson(fullReport()));
    }

    void wrongTypesNameTheFileAndTheField_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        const auto row = [](const char* pointer, const char* value, const char* message) {
            QTest::newRow(pointer) << pointer << value << message;
        };
        row("/evaluation/accuracy/accuracy", "\"high\"", "field evaluation.accuracy.accuracy must be a number (found a string)");
        row("/evaluation/per_class/1/total", "2.5", "field evaluation.per_class[1].total must be an integer (found a number)");
        row("/evaluation/confusion/0/1", "\"x\"", "field evaluation.confusion[0][1] must be an integer (found a string)");
        row("/evaluation/calibration/bins", "{}", "field evaluation.calibration.bins must be a list (found an object)");
        row("/evaluation/regions/thirds/2/region", "3", "field evaluation.regions.thirds[2].region must be a string (found a number)");
        row("/evaluation/defer/selective_accuracy", "[]", "field evaluation.defer.selective_accuracy must be an object (found an array)");
        row("/evaluation/calibration_metrics/ece_interval/seed", "-1", "field evaluation.calibration_metrics.ece_interval.seed must be an integer");
        row("/evaluation/images", "1e300", "field evaluation.images must be an integer (found a number)");
        row("/evaluation/rule", "\"nonsense\"", "field evaluation.rule: decision rule 'nonsense' is not known");
        row("/evaluation", "[1]", "field evaluation must be an object (found an array)");
    }

    void wrongTypesNameTheFileAndTheField()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, message);
        json file = fullFile();
        file[json::json_pointer(pointer.toStdString())] = json::parse(value.toStdString());
        const QString error = errorOf(file);
        QVERIFY2(error.startsWith(QString::fromStdString(kFile) + ": "), qPrintable(error));
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void aMissingFieldIsNamed()
    {
        json file = fullFile();
        file["evaluation"]["fhr"].erase("convention");
        QCOMPARE(errorOf(file), QString("RUN/report.json: field evaluation.fhr.convention is missing"));
        QCOMPARE(errorOf(json::array()), QString("RUN/report.json: must be a JSON object (found an array)"));
        QCOMPARE(errorOf(json::object()), QString("RUN/report.json: field evaluation is missing"));
    }

    // Each value of a complete report in turn replaced by one of another type: the report reads
    // (a field no reader takes, or a string in a list of warnings) or is refused naming that field.
    void everyFieldOfTheWrongTypeIsNamed()
    {
        const json flat = fullFile().flatten();
        int refused = 0;
        for (const auto& [pointer, value] : flat.items()) {
            json file = fullFile();
            file[json::json_pointer(pointer)] = value.is_string() ? json(7) : json("x");
            const QString error = errorOf(file);
            if (!error.isEmpty()) {
                ++refused;
                const QString field = QString::fromStdString(fieldPath(pointer));
                QVERIFY2(error.startsWith("RUN/report.json: field " + field), qPrintable(QString::fromStdString(pointer) + ": " + error));
            }
        }
        QVERIFY2(refused > 100, qPrintable(QString::number(refused))); // the report has some 150 values
    }

    void anEmptyGroupReadsAsNoAccuracy()
    {
        json file = fullFile();
        file["evaluation"]["per_class"][0]["accuracy"] = nullptr;
        QCOMPARE(reportFromFile(file, kFile).perClass[0].accuracy, 0.0);
    }
};

QTEST_APPLESS_MAIN(TestReportJson)
#include "test_reportjson.moc"
