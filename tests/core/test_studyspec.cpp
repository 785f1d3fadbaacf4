// Studies: study.json parsed with errors that name the key, the factors' cartesian product,
// baselines and seeds applied as `lbd train` applies them, the folder's refusal of another
// study, and every built-in study resolving at both scales.
#include "core/study/decisioncell.h"
#include "core/study/studyfolder.h"
#include "core/study/studyspec.h"
#include "core/train/configjson.h"
#include "core/train/trainconfig.h"

#include "tests/support/expect.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace lbd;
using json = nlohmann::json;

namespace {

// A valid study over the synthetic data set: 2 x 3 cells, 2 seeds.
json twoFactorStudy()
{
    return json::parse(R"({
      "name": "grid", "title": "A grid", "claim": "none",
      "config": {"name": "tiny", "data": {"dataset": "synthetic"}, "model": {"arch": "smallcnn", "particles": 3},
                 "train": {"epochs": 10}},
      "set": {"train.eval_every": 5},
      "seeds": [4, 7],
      "quick": {"config": {"data": {"dataset": "synthetic"}, "model": {"arch": "smallcnn"}}, "seeds": [1]},
      "factors": [
        {"name": "method", "levels": [{"label": "CE", "baseline": "ce"}, {"label": "LBD M=5", "set": {"model.particles": 5}}]},
        {"name": "tau", "key": "objective.tau", "values": [1, 2.5, 40]}
      ]
    })");
}

} // namespace

class TestStudySpec : public QObject {
    Q_OBJECT

private slots:
    void expandsTheCartesianProductFirstFactorSlowest()
    {
        const ResolvedStudy study = resolveStudy(studySpecFromJson(twoFactorStudy()), {});
        QCOMPARE(study.cells.size(), size_t(6));
        QCOMPARE(study.runs.size(), size_t(12));
        QCOMPARE(study.cells[0].label, std::string("CE, tau=1"));
        QCOMPARE(study.cells[1].label, std::string("CE, tau=2.5"));
        QCOMPARE(study.cells[3].label, std::string("LBD M=5, tau=1"));
        QCOMPARE(study.cells[0].id, std::string("ce-tau-1"));
        QCOMPARE(study.cells[1].id, std::string("ce-tau-2.5"));
        QCOMPARE(study.cells[5].id, std::string("lbd-m-5-tau-40"));
        QCOMPARE(study.runs[1].directory, std::string("runs/ce-tau-1/seed-7"));
        QCOMPARE(study.runs[2].cell, 1);
    }

    void appliesLevelsBaselinesAndSeedsAsTrainDoes()
    {
        const ResolvedStudy study = resolveStudy(studySpecFromJson(twoFactorStudy()), {});
        // CE: the baseline's one particle replaces the config's 3; its switches are set.
        const TrainConfig ce = trainConfigFromJson(runConfigJson(study, study.runs[0]));
        QCOMPARE(ce.model.particles, int64_t(1));
        QVERIFY(!ce.objective.utilityTerm);
        QVERIFY(!ce.objective.repulsive);
        QCOMPARE(ce.objective.tau, 1.0);
        QCOMPARE(ce.train.evalEvery, 5); // the study's "set" reaches every cell
        QCOMPARE(ce.data.longTail.seed, uint64_t(4));
        QCOMPARE(ce.train.seed, uint64_t(4));
        const TrainConfig lbd = trainConfigFromJson(runConfigJson(study, study.runs[11]));
        QCOMPARE(lbd.model.particles, int64_t(5));
        QCOMPARE(lbd.objective.tau, 40.0);
        QCOMPARE(lbd.train.seed, uint64_t(7));
        QCOMPARE(lbd.name, std::string("grid-lbd-m-5-tau-40"));
    }

    void quickScaleAndOverrides()
    {
        StudyOptions options;
        options.quick = true;
        options.set = nestedPatch(json{{"train.epochs", 3}}, "--set");
        const ResolvedStudy quick = resolveStudy(studySpecFromJson(twoFactorStudy()), options);
        QCOMPARE(quick.seeds, std::vector<int64_t>({1}));
        QCOMPARE(quick.runs.size(), size_t(6));
        const TrainConfig config = trainConfigFromJson(runConfigJson(quick, quick.runs[0]));
        QCOMPARE(config.train.epochs, 3);
        options.seeds = {9, 10, 11};
        QCOMPARE(resolveStudy(studySpecFromJson(twoFactorStudy()), options).runs.size(), size_t(18));
    }

    void nestedPatchSpellsOutDottedKeys()
    {
        const json patch = nestedPatch(json::parse(R"({"a.b.c": 1, "a.d": [2], "e": {"f.g": true}})"), "set");
        QCOMPARE(patch, json::parse(R"({"a": {"b": {"c": 1}, "d": [2]}, "e": {"f": {"g": true}}})"));
        QVERIFY(test::throwsInputError([] { nestedPatch(json{{"a..b", 1}}, "set"); }, {"set", "a..b"}));
        QVERIFY(test::throwsInputError([] { nestedPatch(json::array(), "levels[0].set"); }, {"levels[0].set"}));
    }

    void badStudiesNameWhatIsWrong_data()
    {
        QTest::addColumn<QString>("patch"); // JSON merged into the valid study ("null" removes a key)
        QTest::addColumn<QString>("named");
        QTest::newRow("no factors") << R"({"factors": []})" << "factors";
        QTest::newRow("no seeds") << R"({"seeds": null})" << "seeds";
        QTest::newRow("seed twice") << R"({"seeds": [1, 1]})" << "seed 1 twice";
        QTest::newRow("negative seed") << R"({"seeds": [-1]})" << "seeds";
        QTest::newRow("bad name") << R"({"name": "My Study"})" << "name";
        QTest::newRow("unknown key") << R"({"factor": []})" << "study.factor";
        QTest::newRow("preset and config") << R"({"preset": "quick-cpu"})" << "not both";
        QTest::newRow("level without label")
            << R"({"factors": [{"name": "m", "levels": [{"set": {"model.particles": 2}}]}]})" << "factors[0].levels[0].label";
        QTest::newRow("duplicate labels")
            << R"({"factors": [{"name": "m", "levels": [{"label": "a"}, {"label": "a"}]}]})" << "two levels are labelled 'a'";
        QTest::newRow("values without key") << R"({"factors": [{"name": "m", "values": [1, 2]}]})" << "factors[0]";
        QTest::newRow("unknown level key")
            << R"({"factors": [{"name": "m", "levels": [{"label": "a", "sett": {}}]}]})" << "levels[0].sett";
        QTest::newRow("invalid cell config")
            << R"({"factors": [{"name": "M", "key": "model.particles", "values": [2, 0]}]})" << "cell 'M=0'";
        QTest::newRow("unknown config key")
            << R"({"factors": [{"name": "x", "levels": [{"label": "x", "set": {"train.epoch": 3}}]}]})" << "train.epoch";
        QTest::newRow("unknown baseline")
            << R"({"factors": [{"name": "x", "levels": [{"label": "x", "baseline": "svm"}]}]})" << "svm";
        // Decision-only levels (decisioncell.h): each refusal names the key.
        const auto decisionStudy = [](const char* level) {
            return QString(R"({"factors": [{"name": "m", "levels": [{"label": "CE", "baseline": "ce"}, %1]}]})").arg(level);
        };
        QTest::newRow("decide_from names no level")
            << decisionStudy(R"({"label": "post", "decide_from": "LBD", "decision": {"utility": "prior:1"}})")
            << "factors[0].levels[1].decide_from 'LBD' names no level of factor 'm'";
        QTest::newRow("decide_from itself")
            << decisionStudy(R"({"label": "post", "decide_from": "post", "decision": {"utility": "prior:1"}})")
            << "factors[0].levels[1].decide_from 'post' is a decision-only level itself";
        QTest::newRow("decide_from cycle")
            << QString(R"({"factors": [{"name": "m", "levels": [{"label": "a", "decide_from": "b", "decision": {"utility": "prior:1"}},
                                                               {"label": "b", "decide_from": "a", "decision": {"utility": "prior:1"}}]}]})")
            << "factors[0].levels[0].decide_from 'b' is a decision-only level itself";
        QTest::newRow("decision-only source")
            << decisionStudy(R"({"label": "p1", "decide_from": "CE", "decision": {"utility": "prior:1"}},
                                {"label": "p2", "decide_from": "p1", "decision": {"utility": "prior:2"}})")
            << "factors[0].levels[2].decide_from 'p1' is a decision-only level itself";
        QTest::newRow("decide_from without decision")
            << decisionStudy(R"({"label": "post", "decide_from": "CE"})") << "factors[0].levels[1].decision is missing";
        QTest::newRow("decision without decide_from")
            << decisionStudy(R"({"label": "post", "decision": {"utility": "prior:1"}})")
            << "factors[0].levels[1].decision needs \"decide_from\"";
        QTest::newRow("decision-only level trains")
            << decisionStudy(R"({"label": "post", "decide_from": "CE", "set": {"train.epochs": 2}, "decision": {"utility": "prior:1"}})")
            << "factors[0].levels[1].set: a decision-only level";
        QTest::newRow("unknown utility")
            << decisionStudy(R"({"label": "post", "decide_from": "CE", "decision": {"utility": "prior:tuned"}})")
            << "factors[0].levels[1].decision.utility 'prior:tuned'";
        QTest::newRow("tau out of range")
            << decisionStudy(R"({"label": "post", "decide_from": "CE", "decision": {"utility": "prior:11"}})")
            << "decision.utility 'prior:11'";
        QTest::newRow("rule without utility")
            << decisionStudy(R"({"label": "post", "decide_from": "CE", "decision": {"utility": "prior:1", "rule": "mean-logit"}})")
            << "factors[0].levels[1].decision.rule 'mean-logit' ignores the utility";
        QTest::newRow("unknown decision key")
            << decisionStudy(R"({"label": "post", "decide_from": "CE", "decision": {"utility": "prior:1", "defer": 0.5}})")
            << "decision.defer";
        QTest::newRow("tune without validation")
            << decisionStudy(R"({"label": "post", "decide_from": "CE", "decision": {"utility": "prior:tune"}})")
            << "cell 'post': decision.utility prior:tune tunes tau on the validation split, but cell 'CE' trains without one";
    }

    void badStudiesNameWhatIsWrong()
    {
        QFETCH(QString, patch);
        QFETCH(QString, named);
        json study = twoFactorStudy();
        const json changes = json::parse(patch.toStdString());
        for (const auto& item : changes.items()) {
            if (item.value().is_null()) {
                study.erase(item.key());
            } else {
                study[item.key()] = item.value();
            }
        }
        QVERIFY(test::throwsInputError([&] { resolveStudy(studySpecFromJson(study), {}); }, {named.toStdString()}));
    }

    // A decision-only level re-decides the cell with its source level and the same other levels:
    // it takes that cell's config (what was trained), its runs pair seed by seed, and the spec
    // round-trips through study.json.
    void decisionOnlyCellsLinkToTheirSource()
    {
        json spec = twoFactorStudy();
        spec["config"]["data"]["val_fraction"] = 0.2;
        spec["factors"][0]["levels"].push_back(json::parse(
            R"({"label": "CE + post-hoc", "decide_from": "CE", "decision": {"utility": "prior:tune"}})"));
        const ResolvedStudy study = resolveStudy(studySpecFromJson(spec), {});
        QCOMPARE(study.cells.size(), size_t(9));
        const StudyCell& post = study.cells[7];
        QCOMPARE(post.label, std::string("CE + post-hoc, tau=2.5"));
        QVERIFY(post.decisionOnly());
        QCOMPARE(post.decideFrom, 1);
        QCOMPARE(study.cells[1].label, std::string("CE, tau=2.5"));
        QCOMPARE(post.config, study.cells[1].config);
        QCOMPARE(post.decision.utility, std::string("prior:tune"));
        QCOMPARE(post.decision.rule, std::string("expected"));
        QVERIFY(!study.cells[1].decisionOnly());
        for (int r = 0; r < static_cast<int>(study.runs.size()); ++r) {
            const int source = decisionSourceRun(study, r);
            QCOMPARE(source >= 0, study.cells[study.runs[r].cell].decisionOnly());
            if (source >= 0) {
                QCOMPARE(study.runs[source].seed, study.runs[r].seed);
                QCOMPARE(study.runs[source].cell, study.cells[study.runs[r].cell].decideFrom);
            }
        }
        const ResolvedStudy again = resolveStudy(studySpecFromJson(toJson(study.spec)), {});
        QCOMPARE(again.cells[7].decideFrom, 1);
        QCOMPARE(again.cells[7].decision.utility, std::string("prior:tune"));
        // A folder of the study refuses the same cells deciding otherwise.
        QTemporaryDir temp;
        const std::string folder = temp.filePath("grid").toStdString();
        prepareStudyFolder(study, folder);
        spec["factors"][0]["levels"][2]["decision"]["utility"] = "prior:1";
        QVERIFY(test::throwsInputError([&] { prepareStudyFolder(resolveStudy(studySpecFromJson(spec), {}), folder); },
                                       {"another study"}));
    }

    void specRoundTripsThroughJson()
    {
        const StudySpec spec = studySpecFromJson(twoFactorStudy());
        const StudySpec again = studySpecFromJson(toJson(spec));
        const ResolvedStudy a = resolveStudy(spec, {});
        const ResolvedStudy b = resolveStudy(again, {});
        QCOMPARE(a.cells.size(), b.cells.size());
        for (size_t i = 0; i < a.cells.size(); ++i) {
            QCOMPARE(a.cells[i].config, b.cells[i].config);
            QCOMPARE(a.cells[i].label, b.cells[i].label);
        }
        QCOMPARE(again.factors[1].key, std::string("objective.tau"));
    }

    void folderRefusesAnotherStudy()
    {
        QTemporaryDir temp;
        const std::string folder = temp.filePath("grid").toStdString();
        const ResolvedStudy study = resolveStudy(studySpecFromJson(twoFactorStudy()), {});
        prepareStudyFolder(study, folder);
        QVERIFY(isStudyFolder(folder));
        prepareStudyFolder(study, folder); // the same study continues
        const ResolvedStudy reopened = openStudyFolder(folder);
        QCOMPARE(reopened.runs.size(), study.runs.size());
        QCOMPARE(reopened.cells[4].config, study.cells[4].config);
        StudyOptions other;
        other.seeds = {1, 2, 3};
        QVERIFY(test::throwsInputError([&] { prepareStudyFolder(resolveStudy(study.spec, other), folder); },
                                       {folder, "another study", "lbd study " + folder}));
        const std::string busy = temp.filePath("busy").toStdString();
        QVERIFY(QDir().mkpath(QString::fromStdString(busy) + "/something"));
        QVERIFY(test::throwsInputError([&] { prepareStudyFolder(study, busy); }, {busy, "not empty"}));
    }

    void everyBuiltInStudyResolvesAtBothScales()
    {
        const auto studies = listBuiltInStudies();
        QCOMPARE(studies.size(), size_t(7)); // the paper's six and discrepancy-as-linear
        for (const StudyInfo& info : studies) {
            QVERIFY2(!info.claim.empty() && !info.paperTable.empty(), info.name.c_str());
            const StudySpec spec = findStudySpec(info.name);
            for (const bool quick : {false, true}) {
                StudyOptions options;
                options.quick = quick;
                const ResolvedStudy study = resolveStudy(spec, options);
                QVERIFY2(study.cells.size() >= 2, info.name.c_str());
                QVERIFY2(study.seeds.size() >= 2, info.name.c_str());
            }
        }
        // The fair discrepancy study holds the utility term's strength at both scales.
        for (const bool quick : {false, true}) {
            StudyOptions options;
            options.quick = quick;
            const ResolvedStudy fair = resolveStudy(findStudySpec("discrepancy-as-linear"), options);
            QCOMPARE(fair.cells.size(), size_t(5));
            for (const StudyCell& cell : fair.cells) {
                QCOMPARE(cell.config["objective"]["ratio_scale"].get<std::string>(), std::string("as-linear"));
            }
        }
        QVERIFY(test::throwsInputError([] { findStudySpec("no-such-study"); }, {"no-such-study", "methods"}));
    }
};

QTEST_APPLESS_MAIN(TestStudySpec)
#include "test_studyspec.moc"
