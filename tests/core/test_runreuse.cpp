// Reusing finished runs across studies: what counts as the same run, the built-in studies' shared
// cells, the GPU plan's union studies covering every built-in run, and the index and copy of run
// folders (finished ones only, copied whole, never over another run).
#include "core/eval/reportjson.h"
#include "core/study/runreuse.h"
#include "core/study/studyspec.h"
#include "core/train/configjson.h"
#include "core/train/runfolder.h"

#include "tests/support/expect.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

using namespace lbd;
using json = nlohmann::json;

namespace {

json tinyConfig()
{
    return json::parse(R"({"name": "tiny", "data": {"dataset": "synthetic"}, "model": {"arch": "smallcnn", "particles": 2},
                           "train": {"epochs": 3, "device": "cpu", "threads": 2, "seed": 5}})");
}

// Every run of a study, by its reuse key -> "study/cell label/seed".
std::map<std::string, std::string> runsByKey(const ResolvedStudy& study)
{
    std::map<std::string, std::string> keys;
    for (const StudyRunRef& run : study.runs) {
        if (study.cells[run.cell].decisionOnly()) {
            continue; // re-decides another cell's runs: trains nothing, so no union entry
        }
        keys.emplace(runReuseKey(runConfigJson(study, run)),
                     study.spec.name + "/" + study.cells[run.cell].label + "/" + std::to_string(run.seed));
    }
    return keys;
}

std::string keyOf(const ResolvedStudy& study, const std::string& cellLabel, int64_t seed)
{
    for (const StudyRunRef& run : study.runs) {
        if (study.cells[run.cell].label == cellLabel && run.seed == seed) {
            return runReuseKey(runConfigJson(study, run));
        }
    }
    return "no cell " + cellLabel;
}

ResolvedStudy builtIn(const std::string& name)
{
    return resolveStudy(findStudySpec(name), {});
}

// A run folder as a finished run leaves it (the files inspectStudyRun asks for).
void writeFinishedRun(const std::string& directory, const json& config, const std::string& state = "finished")
{
    std::filesystem::create_directories(directory);
    const RunFolder folder(directory);
    folder.writeJson(RunFolder::kConfig, config);
    folder.writeStatus(state, 3, 3);
    folder.writeJson(RunFolder::kReport, json{{"evaluation", reportToJson(EvaluationReport())}});
    for (const char* file : {RunFolder::kTestProbabilities, RunFolder::kWeights}) {
        std::ofstream(folder.path(file)) << "bytes";
    }
}

} // namespace

class TestRunReuse : public QObject {
    Q_OBJECT

private slots:
    void theKeyIgnoresWhereARunTrainedAndItsLabelsOnly()
    {
        const json config = tinyConfig();
        json elsewhere = config;
        elsewhere["train"]["device"] = "auto";
        elsewhere["train"]["threads"] = 7;
        elsewhere["name"] = "another-study-cell";
        QCOMPARE(runReuseKey(elsewhere), runReuseKey(config));
        json defaultsSpelledOut = config;
        defaultsSpelledOut["objective"]["tau"] = 40; // the default
        QCOMPARE(runReuseKey(defaultsSpelledOut), runReuseKey(config));
        for (const auto& [key, value] : std::vector<std::pair<std::string, json>>{
                 {"/train/seed", 6}, {"/train/epochs", 4}, {"/model/particles", 3}, {"/data/seed", 1}}) {
            json other = config;
            other[json::json_pointer(key)] = value;
            QVERIFY2(runReuseKey(other) != runReuseKey(config), key.c_str());
        }
        QVERIFY(test::throwsInputError([] { runReuseKey(json::parse(R"({"train": {"epochs": -1}})")); }, {"train.epochs"}));
    }

    void aStandardDataSetIsTheSameWhereverItsFolderLies()
    {
        // The 2026-11-28 GPU runs read Fashion-MNIST from /root/w4d/fmnist and from
        // /work/main/.gpu-src/.deps/fmnist: the same files, the same runs.
        json here = tinyConfig();
        here["data"]["dataset"] = "fashion-mnist";
        here["data"]["data_dir"] = "/usr/share/datasets/fashion-mnist";
        json there = here;
        there["data"]["data_dir"] = "/root/w4d/fmnist";
        QCOMPARE(runReuseKey(there), runReuseKey(here));
        // A user's image folder is its own content: another folder is another run.
        json folder = here;
        folder["data"]["dataset"] = "folder";
        folder["data"]["data_dir"] = "/home/me/icons";
        json otherFolder = folder;
        otherFolder["data"]["data_dir"] = "/home/me/other-icons";
        QVERIFY(runReuseKey(otherFolder) != runReuseKey(folder));
    }

    void theBuiltInStudiesShareTheRecipeAndTheBaselines()
    {
        const ResolvedStudy methods = builtIn("methods");
        for (const int64_t seed : {0, 1}) {
            const std::string recipe = keyOf(methods, "LBD", seed);
            QCOMPARE(keyOf(builtIn("calibration"), "LBD (3)", seed), recipe);
            QCOMPARE(keyOf(builtIn("discrepancy"), "ratio=linear", seed), recipe);
            // The fair study trains under paper-tail: its linear cell is the utility ablation's
            // tail-sensitive run (linear weighs alike under either scale), not the recipe.
            const std::string tailRun = keyOf(builtIn("utility"), "tail-sensitive", seed);
            QCOMPARE(keyOf(builtIn("discrepancy-as-linear"), "ratio=linear", seed), tailRun);
            QVERIFY(tailRun != recipe);
            QVERIFY(keyOf(builtIn("discrepancy-as-linear"), "ratio=effective", seed)
                    != keyOf(builtIn("discrepancy"), "ratio=effective", seed));
            QCOMPARE(keyOf(builtIn("particles"), "M=3", seed), recipe);
            QCOMPARE(keyOf(builtIn("repulsion"), "on", seed), recipe);
            // The utility ablation's one-hot cell is a paper-standard run: the recipe itself.
            QCOMPARE(keyOf(builtIn("utility"), "one-hot", seed), recipe);
            QCOMPARE(keyOf(builtIn("calibration"), "MCP (CE, 1 model)", seed), keyOf(methods, "CE", seed));
            QCOMPARE(keyOf(builtIn("calibration"), "Ensemble (3)", seed), keyOf(methods, "Ensemble", seed));
            // The logit-adjusted cell is a run of its own, and at tau = 1 the very run a
            // balanced-softmax cell would train (one expression: objectivespec.h).
            const std::string adjusted = keyOf(methods, "Logit-adjusted loss", seed);
            QVERIFY(adjusted != keyOf(methods, "CE", seed));
            json balanced = runConfigJson(methods, methods.runs.front());
            setBaselineInConfigJson(balanced, "balanced-softmax", false);
            balanced["data"]["seed"] = seed;
            balanced["train"]["seed"] = seed;
            QCOMPARE(runReuseKey(balanced), adjusted);
            QVERIFY(keyOf(methods, "LBD", seed) != keyOf(methods, "LBD", seed + 1));
        }
    }

    // The GPU plan (tools/gpu/lease-2026-11-28b.sh) trains tools/gpu/claims-union.json, and
    // tools/claims_report.sh then puts the built-in studies together from it with --reuse-from:
    // every one of their runs must be among its runs, and no run is trained twice.
    void theGpuPlanCoversEveryBuiltInRun()
    {
        const std::string tools = std::string(LBD_SOURCE_DIR) + "/tools/gpu/";
        const ResolvedStudy plan = resolveStudy(findStudySpec(tools + "claims-union.json"), {});
        const std::map<std::string, std::string> trained = runsByKey(plan);
        const size_t planned = plan.runs.size();
        std::set<std::string> needed;
        for (const StudyInfo& info : listBuiltInStudies()) {
            if (info.name == "discrepancy-as-linear") {
                continue; // paper-tail ratios with the utility term's strength held: not one of the paper's tables
            }
            for (const auto& [key, name] : runsByKey(builtIn(info.name))) {
                QVERIFY2(trained.count(key) == 1, ("not trained by the GPU plan: " + name).c_str());
                needed.insert(key);
            }
        }
        // The methods study's post-hoc row trains nothing: its runs are not among those needed, and
        // the runs it re-decides (the CE cell's) are trained by the plan.
        const ResolvedStudy methods = builtIn("methods");
        int decisionOnly = 0;
        for (const StudyCell& cell : methods.cells) {
            if (cell.decisionOnly()) {
                ++decisionOnly;
                QCOMPARE(methods.cells[cell.decideFrom].label, std::string("CE"));
                QVERIFY(!cell.config.is_null());
            }
        }
        QCOMPARE(decisionOnly, 1);
        QCOMPARE(runsByKey(methods).size(), (methods.cells.size() - 1) * methods.seeds.size());
        // 16 configs x 3 seeds (the particle study uses 3 seeds since 2026-11-28).
        QCOMPARE(needed.size(), size_t(16 * 3));
        QCOMPARE(trained.size(), planned); // no config trained twice
        QCOMPARE(planned, needed.size());  // nothing trained that no study uses
    }

    void indexesFinishedRunsOnlyAndCopiesThemWhole()
    {
        QTemporaryDir temp;
        const std::string root = temp.path().toStdString();
        json finished = tinyConfig();
        json stopped = tinyConfig();
        stopped["train"]["seed"] = 6;
        writeFinishedRun(root + "/a/b/c/runs/x/seed-5", finished);
        writeFinishedRun(root + "/a/stopped", stopped, "stopped");
        std::filesystem::create_directories(root + "/a/broken");
        std::ofstream(root + "/a/broken/config.json") << "{not json";
        // A finished run whose report.json is garbage is passed over, and said so: copied in, it
        // would count as finished with no numbers.
        json garbled = tinyConfig();
        garbled["train"]["seed"] = 7;
        writeFinishedRun(root + "/a/garbled", garbled);
        std::ofstream(root + "/a/garbled/report.json", std::ios::trunc) << R"({"evaluation": {"rule": 3}})";
        const ReusableRuns runs({root + "/a"});
        QCOMPARE(runs.size(), size_t(1));
        QVERIFY(!runs.find(garbled));
        QCOMPARE(runs.passedOver().size(), size_t(1));
        QVERIFY(QString::fromStdString(runs.passedOver().front()).contains(QStringLiteral("report.json")));
        json asAStudyAsksForIt = finished;
        asAStudyAsksForIt["train"]["device"] = "auto";
        QCOMPARE(runs.find(asAStudyAsksForIt).value_or(""), root + "/a/b/c/runs/x/seed-5");
        QVERIFY(!runs.find(stopped));

        const std::string target = root + "/study/runs/x/seed-5";
        copyRunFolder(*runs.find(finished), target);
        QCOMPARE(RunFolder(target).readJson(RunFolder::kReport), RunFolder(root + "/a/b/c/runs/x/seed-5").readJson(RunFolder::kReport));
        QVERIFY(std::filesystem::exists(target + "/" + RunFolder::kWeights));
        // Never over another run's files; nothing half-copied left behind.
        QVERIFY(test::throwsRunError([&] { copyRunFolder(root + "/a/stopped", target); }, {target, "already holds files"}));
        QCOMPARE(std::distance(std::filesystem::directory_iterator(root + "/study/runs/x"), {}), 1L);
        QVERIFY(test::throwsInputError([&] { ReusableRuns({root + "/nowhere"}); }, {"--reuse-from", "nowhere", "not a folder"}));
    }
};

QTEST_APPLESS_MAIN(TestRunReuse)
#include "test_runreuse.moc"
