#include "core/study/studyshard.h"

#include "core/util/error.h"

#include <cstdlib>
#include <limits>

namespace lbd {
namespace {

constexpr long kMaxShards = 100000;

// The whole text as a decimal integer in [low, high]; nullopt-like failure as `ok = false`.
bool parseInteger(const std::string& text, long low, long high, long& value)
{
    if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) {
        return false;
    }
    value = std::strtol(text.c_str(), nullptr, 10);
    return value >= low && value <= high;
}

} // namespace

StudyShard parseStudyShard(const std::string& text, const std::string& option)
{
    const auto slash = text.find('/');
    long index = 0, count = 0;
    if (slash == std::string::npos || !parseInteger(text.substr(slash + 1), 1, kMaxShards, count)
        || !parseInteger(text.substr(0, slash), 1, count, index)) {
        throw InputError(option + " " + text + ": expected I/N, this process's shard I of N (1 <= I <= N, e.g. 1/4)");
    }
    StudyShard shard;
    shard.index = static_cast<int>(index - 1);
    shard.count = static_cast<int>(count);
    shard.source = option + " " + text;
    return shard;
}

StudyShard studyShardFromEnvironment(const std::function<const char*(const char*)>& lookup)
{
    const auto get = [&](const char* name) -> const char* { return lookup ? lookup(name) : std::getenv(name); };
    const char* id = get("SLURM_ARRAY_TASK_ID");
    const char* count = get("SLURM_ARRAY_TASK_COUNT");
    if (id == nullptr && count == nullptr) {
        return {};
    }
    const auto variable = [&](const char* name, const char* value, long low, long high) {
        long parsed = 0;
        if (value == nullptr || !parseInteger(value, low, high, parsed)) {
            throw InputError(std::string(name) + (value == nullptr ? " is not set" : std::string("=") + value + " is not an integer from "
                             + std::to_string(low) + " to " + std::to_string(high))
                             + " (a SLURM job array's task; or give --shard I/N)");
        }
        return parsed;
    };
    const long tasks = variable("SLURM_ARRAY_TASK_COUNT", count, 1, kMaxShards);
    const long task = variable("SLURM_ARRAY_TASK_ID", id, 0, std::numeric_limits<int>::max() / 2);
    const char* minText = get("SLURM_ARRAY_TASK_MIN");
    const char* stepText = get("SLURM_ARRAY_TASK_STEP");
    const long first = minText ? variable("SLURM_ARRAY_TASK_MIN", minText, 0, task) : 0;
    const long step = stepText ? variable("SLURM_ARRAY_TASK_STEP", stepText, 1, kMaxShards) : 1;
    const long index = (task - first) / step;
    if ((task - first) % step != 0 || index >= tasks) {
        throw InputError("SLURM_ARRAY_TASK_ID=" + std::string(id) + " is not one of the " + std::to_string(tasks)
                         + " tasks from SLURM_ARRAY_TASK_MIN=" + std::to_string(first) + " in steps of " + std::to_string(step)
                         + " (an array with gaps, e.g. --array=1,5,9? give --shard I/N instead)");
    }
    StudyShard shard;
    shard.index = static_cast<int>(index);
    shard.count = static_cast<int>(tasks);
    shard.source = "SLURM_ARRAY_TASK_ID=" + std::string(id) + " of SLURM_ARRAY_TASK_COUNT=" + std::to_string(tasks)
                   + (first != 0 ? " from SLURM_ARRAY_TASK_MIN=" + std::to_string(first) : std::string());
    return shard;
}

} // namespace lbd
