// Utility matrices (core/lbd/utilitymatrixio.cpp): the CSV and JSON parsers, with class names
// (the file's names must be a permutation of them) and without (any square matrix).
#include "core/lbd/utilitymatrix.h"
#include "core/util/error.h"

#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::vector<std::string> names = {"cat", "dog", "bird"};
    for (const auto* classNames : {&names, static_cast<const std::vector<std::string>*>(nullptr)}) {
        const std::vector<std::string> given = classNames ? *classNames : std::vector<std::string>{};
        for (const bool json : {false, true}) {
            try {
                const lbd::UtilityMatrix matrix = json ? lbd::parseUtilityJson(text, given, "input")
                                                       : lbd::parseUtilityCsv(text, given, "input");
                if (!given.empty() && matrix.classCount() != static_cast<int64_t>(given.size())) {
                    __builtin_trap();
                }
            } catch (const lbd::InputError&) {
            }
        }
    }
    try {
        lbd::parseUtilitySpec(text, names);
    } catch (const lbd::InputError&) {
    }
    return 0;
}
