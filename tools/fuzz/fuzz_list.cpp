// List files ("relative/path label" lines): the input is the training list, the test list and the
// class-names file at once. No image is decoded: a zero in-memory budget streams every split.
#include "datasets/common/error.h"
#include "datasets/list/listfilereader.h"
#include "tools/fuzz/fuzzfile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string train = lbd::fuzz::writeScratchFile("train.txt", data, size);
    const std::string names = lbd::fuzz::writeScratchFile("names.txt", data, size);
    lbd::ListFileOptions options;
    options.files.format = {3, 8, 8};
    options.files.limits.maxInMemoryBytes = 0;
    options.files.limits.maxTextFileBytes = 1 << 16;
    options.files.limits.maxClasses = 1000;
    for (const bool withNames : {false, true}) {
        options.classNamesFile = withNames ? names : std::string();
        try {
            const lbd::RawDataset dataset = lbd::readListFiles(lbd::fuzz::scratchFolder(), train, train, options);
            for (const int64_t label : dataset.train.labels) {
                if (label < 0 || label >= dataset.classCount()) {
                    __builtin_trap();
                }
            }
        } catch (const lbd::InputError&) {
        }
    }
    return 0;
}
