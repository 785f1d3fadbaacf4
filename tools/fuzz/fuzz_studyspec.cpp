// Studies (core/study/studyspec.cpp): a study.json parsed, its factors expanded into cells and
// every cell's config checked by the config parser. What parses must write back and expand again
// to the same cells.
#include "core/study/studyspec.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const nlohmann::json json = nlohmann::json::parse(data, data + size, nullptr, false);
    if (json.is_discarded()) {
        return 0;
    }
    try {
        const lbd::StudySpec spec = lbd::studySpecFromJson(json, "input");
        const lbd::ResolvedStudy study = lbd::resolveStudy(spec, {});
        const lbd::ResolvedStudy again = lbd::resolveStudy(lbd::studySpecFromJson(lbd::toJson(spec), "round trip"), {});
        if (again.cells.size() != study.cells.size() || again.runs.size() != study.runs.size()) {
            __builtin_trap();
        }
        for (size_t i = 0; i < study.cells.size(); ++i) {
            if (again.cells[i].config != study.cells[i].config || again.cells[i].id != study.cells[i].id) {
                __builtin_trap();
            }
        }
    } catch (const lbd::InputError&) {
    }
    return 0;
}
