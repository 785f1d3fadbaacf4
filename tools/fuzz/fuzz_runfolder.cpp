// Run folders as the runs list reads them (core/train/runsummary.cpp): the input is one of
// config.json, run.json, status.json, report.json or metrics.jsonl (chosen by its first byte), the
// others are absent. readRunSummary must never throw; readRunHistory throws only InputError.
#include "core/train/runsummary.h"
#include "core/util/error.h"
#include "tools/fuzz/fuzzfile.h"

#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    static const char* files[] = {"config.json", "run.json", "status.json", "report.json", "metrics.jsonl"};
    const std::string folder = lbd::fuzz::scratchFolder();
    for (const char* file : files) {
        std::remove((folder + "/" + file).c_str());
    }
    lbd::fuzz::writeScratchFile(files[data[0] % 5], data + 1, size - 1);
    const lbd::RunSummary summary = lbd::readRunSummary(folder);
    (void)summary;
    try {
        lbd::readRunHistory(folder);
    } catch (const lbd::InputError&) {
    }
    return 0;
}
