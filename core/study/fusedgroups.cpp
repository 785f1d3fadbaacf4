#include "core/study/fusedgroups.h"

#include "core/train/configjson.h"
#include "core/train/fusedmember.h"
#include "core/train/fusedrungroup.h"
#include "core/util/device.h"

#include <nlohmann/json.hpp>

#ifdef LBD_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include <map>
#include <thread>

namespace lbd {

namespace {

// A run's share of a GPU under --fuse auto: the recipe (ResNet-32, M = 3, batch 128, fp16) is far
// below it; larger images and models are not, so auto stays at or below kAutoFuseMax.
constexpr double kAutoFuseBytesPerRun = 4.0 * (1 << 30);

void dropSeeds(nlohmann::json& value)
{
    if (!value.is_object()) {
        return;
    }
    value.erase("seed");
    for (auto& item : value.items()) {
        dropSeeds(item.value());
    }
}

// What must be equal for two runs' steps to be one step.
std::string fusionKey(const TrainConfig& config)
{
    const nlohmann::json json = toJson(config);
    nlohmann::json data = json.at("data");
    dropSeeds(data);
    nlohmann::json model = json.at("model");
    const nlohmann::json key = {{"data", data},
                                {"model", model},
                                {"output_size", config.augment.outputSize},
                                {"batch_size", config.train.batchSize},
                                {"device", config.train.device},
                                {"precision", precisionName(config.train.precision)},
                                {"channels_last", config.train.channelsLast}};
    return key.dump();
}

} // namespace

std::optional<std::string> fusionRefusal(const TrainConfig& config)
{
    if (config.model.arch != "resnet32" && config.model.arch != "smallcnn") {
        return "model.arch " + config.model.arch + " is not fused (resnet32 and smallcnn are)";
    }
    return std::nullopt;
}

FusedGroupPlan planFusedGroups(const std::vector<int>& runs, const std::function<TrainConfig(int)>& configOf, int maxGroup)
{
    FusedGroupPlan plan;
    std::map<std::string, size_t> open; // key -> the group still taking runs
    for (int index : runs) {
        const TrainConfig config = configOf(index);
        if (maxGroup <= 1) {
            plan.groups.push_back({index});
            continue;
        }
        if (const auto refusal = fusionRefusal(config)) {
            plan.notes.push_back("run " + std::to_string(index) + " trains alone: " + *refusal);
            plan.groups.push_back({index});
            continue;
        }
        const std::string key = fusionKey(config);
        const auto found = open.find(key);
        if (found != open.end() && plan.groups[found->second].size() < static_cast<size_t>(maxGroup)) {
            plan.groups[found->second].push_back(index);
            continue;
        }
        open[key] = plan.groups.size();
        plan.groups.push_back({index});
    }
    if (maxGroup > 1) {
        for (const auto& group : plan.groups) {
            if (group.size() == 1 && !fusionRefusal(configOf(group.front()))) {
                plan.notes.push_back("run " + std::to_string(group.front())
                                     + " trains alone: no other run has its model, data, image size, batch size, device and precision");
            }
        }
    }
    return plan;
}

int automaticFuseCount(const std::string& device)
{
#ifdef LBD_HAVE_CUDA
    const torch::Device parsed = parseDevice(device.empty() ? std::string("auto") : device);
    if (parsed.is_cuda()) {
        size_t freeBytes = 0;
        size_t totalBytes = 0;
        if (cudaSetDevice(parsed.has_index() ? parsed.index() : 0) == cudaSuccess
            && cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess) {
            const int fit = static_cast<int>(static_cast<double>(freeBytes) / kAutoFuseBytesPerRun);
            return std::max(1, std::min(kAutoFuseMax, fit));
        }
    }
#else
    (void)device;
#endif
    return 1;
}

void trainFusedGroup(const std::vector<int>& runs, const std::function<void(int index, FusedMember* member)>& trainRun)
{
    if (runs.size() == 1) {
        trainRun(runs.front(), nullptr); // as without --fuse
        return;
    }
    FusedRunGroup group(static_cast<int>(runs.size()));
    std::vector<std::thread> threads;
    for (size_t slot = 0; slot < runs.size(); ++slot) {
        threads.emplace_back([&, slot] {
            struct Leave { // whatever the run does, the others stop waiting for it
                FusedRunGroup& group;
                int slot;
                ~Leave() { group.leave(slot); }
            } leave{group, static_cast<int>(slot)};
            trainRun(runs[slot], &group.member(static_cast<int>(slot)));
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
}

} // namespace lbd
