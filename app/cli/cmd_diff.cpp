// `lbd diff RUN_A RUN_B`: what differs between two runs: their settings (config.json), where and
// how they were made (run.json's provenance: build, command line, machine, data fingerprint) and
// their results (report.json's headline metrics). The Runs page's comparison shows the same rows
// (core/train/rundiff.h).
#include "app/cli/command.h"

#include "core/train/rundiff.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace lbd::cli {
namespace {

struct DiffOptions {
    std::string first;
    std::string second;
    bool json = false;
};

void printSection(const char* title, const std::vector<RunDifference>& rows)
{
    const std::string count = rows.empty() ? "no differences"
                                            : std::to_string(rows.size()) + (rows.size() == 1 ? " difference" : " differences");
    std::cout << title << ": " << count << '\n';
    for (const RunDifference& row : rows) {
        std::cout << "  " << row.key << ": " << row.first << "  ->  " << row.second << '\n';
    }
}

nlohmann::json sectionJson(const std::vector<RunDifference>& rows)
{
    nlohmann::json out = nlohmann::json::array();
    for (const RunDifference& row : rows) {
        out.push_back({{"key", row.key}, {"a", row.first}, {"b", row.second}});
    }
    return out;
}

int runDiff(const DiffOptions& o)
{
    const RunDifferences differences = diffRuns(o.first, o.second);
    if (o.json) {
        std::cout << nlohmann::json{{"a", o.first},
                                    {"b", o.second},
                                    {"config", sectionJson(differences.config)},
                                    {"environment", sectionJson(differences.environment)},
                                    {"metrics", sectionJson(differences.metrics)}}
                         .dump(2)
                  << '\n';
        return 0;
    }
    std::cout << "a: " << o.first << "\nb: " << o.second << '\n';
    printSection("config", differences.config);
    printSection("environment", differences.environment);
    printSection("metrics", differences.metrics);
    return 0;
}

} // namespace

Command addDiffCommand(CLI::App& lbd)
{
    auto o = std::make_shared<DiffOptions>();
    CLI::App* c = lbd.add_subcommand("diff", "what differs between two runs: settings, environment (build, command line, "
                                             "machine, data) and metrics");
    c->footer("Only what differs is printed, as 'key: value in A  ->  value in B' ('(absent)' where a run lacks the key). "
              "Environment keys come from run.json's provenance (lbd_version, git_commit, command_line, host, cpu, gpu, "
              "gpu_driver, cuda, cudnn, nccl, libtorch, data_fingerprint, device). Exit status: 0 compared (whether or not "
              "they differ), 2 a folder is not a run or its report.json cannot be read (the message names the file and field).");
    c->add_option("run_a", o->first, "the first run folder")->required()->type_name("RUN_A");
    c->add_option("run_b", o->second, "the second run folder")->required()->type_name("RUN_B");
    c->add_flag("--json", o->json, "print the differences as JSON ({config, environment, metrics}: [{key, a, b}])");
    return {c, [o] { return runDiff(*o); }};
}

} // namespace lbd::cli
