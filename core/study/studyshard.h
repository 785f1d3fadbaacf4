#pragma once
// Which share of a study's runs this process trains, for several hosts (or a SLURM job array) on
// one shared study folder. Run k (study order: cell by cell, seeds within a cell) belongs to shard
// k mod N, so every shard gets every cell's seeds spread over it and the shards are disjoint and
// together cover the study. Aggregation always reads every run on disk. A decision-only cell's run
// (decisioncell.h) trains nothing and belongs to the shard of the run it re-decides (the runner
// asks owns() of that run), so it is made by the process that trains its source.
#include <functional>
#include <string>

namespace lbd {

struct StudyShard {
    int index = 0; // 0-based: `--shard I/N` is index I-1
    int count = 1;
    std::string source; // where it came from, for the log: "--shard 1/2", "SLURM_ARRAY_TASK_ID=3 ..."

    bool enabled() const { return count > 1; }
    bool owns(int run) const { return run % count == index; }
    std::string text() const { return std::to_string(index + 1) + "/" + std::to_string(count); } // "1/2"
};

// "I/N" with 1 <= I <= N <= 100000; InputError naming `option` otherwise.
StudyShard parseStudyShard(const std::string& text, const std::string& option = "--shard");

// A SLURM job array's share: SLURM_ARRAY_TASK_ID relative to SLURM_ARRAY_TASK_MIN (0 if unset) and
// divided by SLURM_ARRAY_TASK_STEP (1 if unset), of SLURM_ARRAY_TASK_COUNT tasks. One shard of one
// (disabled) when the variables are not set; an InputError names a malformed or inconsistent one.
StudyShard studyShardFromEnvironment(const std::function<const char*(const char*)>& lookup = {});

} // namespace lbd
