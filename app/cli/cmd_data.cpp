// `lbd data`: what a long-tailed data set looks like before training on it.
#include "app/cli/command.h"
#include "app/cli/configflags.h"

#include "core/data/datapreparation.h"
#include "core/train/configjson.h"
#include "core/data/regions.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <memory>
#include <numeric>

namespace lbd::cli {
namespace {

struct DataOptions {
    ConfigFlags flags;
    bool json = false;
};

int runData(const DataOptions& o)
{
    const bool json = o.json;
    nlohmann::json patch = o.flags.patch();
    const DataSpec spec = trainConfigFromJson(patch.contains("data") ? nlohmann::json{{"data", patch["data"]}}
                                                                     : nlohmann::json::object(),
                                              "data options")
                              .data;
    const PreparedData prepared = prepareData(spec);
    const auto& names = prepared.dataset.classNames;
    const auto thirds = classRegions(prepared.trainCounts, RegionScheme::ThirdsByIndex);
    const auto byCount = classRegions(prepared.trainCounts, RegionScheme::ByTrainCount);
    const int64_t trainTotal = std::accumulate(prepared.trainCounts.begin(), prepared.trainCounts.end(), int64_t(0));
    const int64_t testTotal = std::accumulate(prepared.testCounts.begin(), prepared.testCounts.end(), int64_t(0));

    if (json) {
        nlohmann::json out = {{"dataset", prepared.dataset.name},
                              {"profile", profileName(spec.longTail.profile)},
                              {"imbalance_ratio", spec.longTail.imbalanceRatio},
                              {"seed", spec.longTail.seed},
                              {"image", {{"channels", prepared.dataset.format.channels},
                                         {"height", prepared.dataset.format.height},
                                         {"width", prepared.dataset.format.width}}},
                              {"train_total", trainTotal},
                              {"test_total", testTotal},
                              {"classes", nlohmann::json::array()}};
        for (size_t c = 0; c < names.size(); ++c) {
            out["classes"].push_back({{"index", c},
                                      {"name", names[c]},
                                      {"train", prepared.trainCounts[c]},
                                      {"test", prepared.testCounts[c]},
                                      {"region_thirds", regionName(thirds[c], RegionScheme::ThirdsByIndex)},
                                      {"region_counts", regionName(byCount[c], RegionScheme::ByTrainCount)}});
        }
        std::cout << out.dump(2) << '\n';
        return 0;
    }
    std::printf("%s: %lld classes, %lldx%lld, %lld channel(s); %s profile, imbalance ratio %g, seed %llu\n",
                prepared.dataset.name.c_str(), static_cast<long long>(names.size()),
                static_cast<long long>(prepared.dataset.format.height), static_cast<long long>(prepared.dataset.format.width),
                static_cast<long long>(prepared.dataset.format.channels), profileName(spec.longTail.profile).c_str(),
                spec.longTail.imbalanceRatio, static_cast<unsigned long long>(spec.longTail.seed));
    std::printf("%5s  %-24s %8s %8s  %-6s %-6s\n", "class", "name", "train", "test", "region", "count");
    for (size_t c = 0; c < names.size(); ++c) {
        std::printf("%5zu  %-24s %8lld %8lld  %-6s %-6s\n", c, names[c].c_str(),
                    static_cast<long long>(prepared.trainCounts[c]), static_cast<long long>(prepared.testCounts[c]),
                    regionName(thirds[c], RegionScheme::ThirdsByIndex).c_str(),
                    regionName(byCount[c], RegionScheme::ByTrainCount).c_str());
    }
    std::printf("%5s  %-24s %8lld %8lld\n", "", "total", static_cast<long long>(trainTotal), static_cast<long long>(testTotal));
    std::printf("regions: 'region' = thirds by class index (head/med/tail, the paper); "
                "'count' = many (>100) / medium (20-100) / few (<20) training images\n");
    return 0;
}

} // namespace

Command addDataCommand(CLI::App& lbd)
{
    auto o = std::make_shared<DataOptions>();
    CLI::App* c = lbd.add_subcommand("data", "per-class train / test counts, names and regions of a long-tailed data set");
    addDataFlags(*c, o->flags);
    c->add_flag("--json", o->json, "print as JSON");
    return {c, [o] { return runData(*o); }};
}

} // namespace lbd::cli
