// Training configurations (core/train/configjson.cpp): config.json and presets, parsed by
// nlohmann/json and read field by field into a TrainConfig.
#include "core/train/configjson.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const nlohmann::json json = nlohmann::json::parse(data, data + size, nullptr, false);
    if (json.is_discarded()) {
        return 0;
    }
    try {
        const lbd::TrainConfig config = lbd::trainConfigFromJson(json, "input");
        // What was read must write back and read again to the same JSON.
        if (lbd::toJson(lbd::trainConfigFromJson(lbd::toJson(config), "round trip")) != lbd::toJson(config)) {
            __builtin_trap();
        }
    } catch (const lbd::InputError&) {
    }
    return 0;
}
