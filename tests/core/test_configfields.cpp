// The config field table: every setting declared once, round-tripping through JSON, each error
// naming its key; and the text form of a value that `lbd train --set key=value` parses.
#include "core/train/configfields.h"
#include "core/train/configjson.h"
#include "tests/support/expect.h"

#include <nlohmann/json.hpp>

#include <set>

using namespace lbd;
using test::throwsInputError;

class TestConfigFields : public QObject {
    Q_OBJECT
private slots:
    void keysAreUniqueAndDocumented()
    {
        std::set<std::string> keys;
        for (const ConfigField& field : configFields()) {
            QVERIFY2(keys.insert(field.key).second, field.key.c_str());
            QVERIFY2(!field.help.empty() && !field.type.empty(), field.key.c_str());
            QCOMPARE(findConfigField(field.key), &field);
        }
        QVERIFY(keys.count("objective.alpha") && keys.count("decision.rule") && keys.count("data.synthetic.seed"));
        QCOMPARE(findConfigField("objective.alhpa"), nullptr);
    }

    // Every field written by toJson is read back by trainConfigFromJson to the same JSON.
    void everyFieldRoundTrips()
    {
        TrainConfig config;
        config.data.dataset = "synthetic"; // the synthetic fields are written too
        config.objective.alpha = 0.125;
        config.decision.deferUtility = 0.25;
        config.optimizer.decayEpochs = {3, 7};
        config.optimizer.decayFactors = {0.5, 0.25};
        config.train.precision = Precision::Bf16;
        const nlohmann::json json = toJson(config);
        for (const ConfigField& field : configFields()) {
            if (!field.written || field.written(config)) {
                QVERIFY2(json.contains(nlohmann::json::json_pointer("/" + QString::fromStdString(field.key)
                                                                            .replace(QLatin1Char('.'), QLatin1Char('/'))
                                                                            .toStdString())),
                         field.key.c_str());
            }
        }
        QCOMPARE(toJson(trainConfigFromJson(json)).dump(), json.dump());
    }

    void wrongTypesNameTheKey_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value"); // JSON
        QTest::addColumn<QString>("message");
        QTest::newRow("number") << "objective.alpha" << "\"small\"" << "objective.alpha must be a number";
        QTest::newRow("integer") << "train.epochs" << "2.5" << "train.epochs must be an integer";
        QTest::newRow("int range") << "train.epochs" << "99999999999" << "train.epochs is out of range";
        QTest::newRow("bool") << "augment.flip" << "1" << "augment.flip must be true or false";
        QTest::newRow("negative seed") << "train.seed" << "-1" << "train.seed must not be negative";
        QTest::newRow("enum") << "train.precision" << "\"fp8\"" << "train.precision is not valid: precision 'fp8' is not known (use fp16, bf16 or fp32)";
        QTest::newRow("rule") << "decision.rule" << "\"vote\"" << "decision.rule";
        QTest::newRow("list") << "optimizer.decay_epochs" << "3" << "optimizer.decay_epochs must be an array";
        QTest::newRow("utility") << "objective.utility" << "3" << "objective.utility";
    }
    void wrongTypesNameTheKey()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, message);
        nlohmann::json json = nlohmann::json::object();
        json[nlohmann::json::json_pointer("/" + key.replace(QLatin1Char('.'), QLatin1Char('/')).toStdString())] =
            nlohmann::json::parse(value.toStdString());
        QVERIFY(throwsInputError([&] { trainConfigFromJson(json); }, {message.toStdString()}));
    }

    // A config that is not an object of settings is refused, not read as the defaults.
    void rootMustBeAnObject()
    {
        QVERIFY(throwsInputError([] { trainConfigFromJson(nlohmann::json::array()); }, {"JSON object", "array"}));
        QVERIFY(throwsInputError([] { trainConfigFromJson(nlohmann::json(3)); }, {"JSON object"}));
        QVERIFY(throwsInputError([] { trainConfigFromJson(nlohmann::json::parse(R"({"a": {"b": {"c": {"d": 1}}}})")); },
                                 {"a is not a known setting"}));
        QVERIFY(throwsInputError([] { trainConfigFromJson(nlohmann::json::parse(R"({"objective": {"alpha": {"x": 1}}})")); },
                                 {"objective.alpha must be a number"}));
        QVERIFY(throwsInputError([] { trainConfigFromJson(nlohmann::json::parse(R"({"train": {"epochs": {"x": 1}}})")); },
                                 {"train.epochs must be an integer"}));
    }

    void textValuesFollowTheFieldType()
    {
        QCOMPARE(parseConfigValue(*findConfigField("objective.alpha"), "0.5"), nlohmann::json(0.5));
        QCOMPARE(parseConfigValue(*findConfigField("train.epochs"), "12"), nlohmann::json(12));
        QCOMPARE(parseConfigValue(*findConfigField("augment.flip"), "false"), nlohmann::json(false));
        QCOMPARE(parseConfigValue(*findConfigField("decision.defer"), "none"), nlohmann::json(nullptr));
        QCOMPARE(parseConfigValue(*findConfigField("decision.defer"), "0.3"), nlohmann::json(0.3));
        QCOMPARE(parseConfigValue(*findConfigField("optimizer.decay_epochs"), "160,180"), nlohmann::json({160, 180}));
        QCOMPARE(parseConfigValue(*findConfigField("decision.rule"), "argmax"), nlohmann::json("argmax"));
        QCOMPARE(parseConfigValue(*findConfigField("objective.utility"), "tail:2"), nlohmann::json("tail:2"));
        QVERIFY(throwsInputError([] { parseConfigValue(*findConfigField("objective.alpha"), "1e999"); },
                                 {"objective.alpha", "1e999"}));
        QVERIFY(throwsInputError([] { parseConfigValue(*findConfigField("train.epochs"), "7x"); }, {"train.epochs", "7x"}));
        QVERIFY(throwsInputError([] { parseConfigValue(*findConfigField("augment.flip"), "yes"); }, {"augment.flip", "yes"}));
    }
};

QTEST_APPLESS_MAIN(TestConfigFields)
#include "test_configfields.moc"
